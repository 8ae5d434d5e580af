// The BuildIds search attribute: each completed workflow task adds the completing worker's build to
// the run's list, as the real server does for workers without versioning ("unversioned" first,
// then "unversioned:<build id>"; "versioned:<build id>" for a worker that uses versioning).
import type { RespondWorkflowTaskCompletedRequest } from '../../messages';
import { payloadToJson, WorkerVersioningMode } from '../../proto';
import type { Run } from '../../state/run';

const UNVERSIONED = 'unversioned';
const ATTRIBUTE = 'BuildIds';

interface Stamp {
  buildId?: string;
  useVersioning?: boolean;
}

/**
 * The worker's build as the completion states it: a version stamp or deployment options when the
 * worker uses versioning; otherwise sdk-core only sends its build id as the binary checksum.
 */
function stampOf(req: RespondWorkflowTaskCompletedRequest): Stamp | undefined {
  if (req.workerVersionStamp) return req.workerVersionStamp;
  const options = req.deploymentOptions;
  if (options) return { buildId: options.buildId, useVersioning: options.workerVersioningMode === WorkerVersioningMode.v('VERSIONED') };
  return req.binaryChecksum ? { buildId: req.binaryChecksum, useVersioning: false } : undefined;
}

function valueOf(stamp: Stamp | undefined): string {
  if (!stamp?.buildId) return UNVERSIONED;
  return `${stamp.useVersioning ? 'versioned' : UNVERSIONED}:${stamp.buildId}`;
}

export function recordBuildId(run: Run, req: RespondWorkflowTaskCompletedRequest): void {
  const stamp = stampOf(req);
  const value = valueOf(stamp);
  const stored = payloadToJson(run.searchAttributes[ATTRIBUTE]);
  const existing = Array.isArray(stored) ? stored.map(String) : [];
  // The list starts with the workflow's versioning status, then every build that worked on it.
  const next = stamp?.useVersioning ? [] : [UNVERSIONED];
  for (const v of existing) if (v !== UNVERSIONED && !v.startsWith('assigned:') && !next.includes(v)) next.push(v);
  if (!next.includes(value)) next.push(value);
  if (next.length === existing.length && next.every((v, i) => v === existing[i])) return;
  run.searchAttributes[ATTRIBUTE] = {
    metadata: { encoding: Buffer.from('json/plain'), type: Buffer.from('KeywordList') },
    data: Buffer.from(JSON.stringify(next)),
  };
}
