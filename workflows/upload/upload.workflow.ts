// An uploaded file's timeline (docs/rules/uploads.md#orphan-cleanup), one workflow per file (`upload:<id>`), a durable timer in
// place of the hourly sweep:
//
//   presigned -> confirmed within 300 s, or deleted (object and row) when the window closes
//   created   -> linked by a record within 24 h (the timeline ends), or deleted once 24 h old
//   unlinked  -> the api signals again and a new run starts: a file older than 24 h goes at once
//
// The api signals `{type, entityVersion}` before its transaction commits; the entity inbox
// (workflows/shared/entity-inbox.ts) turns the signals into committed state.
import { proxyActivities } from '@temporalio/workflow';
import type { UploadActivities } from '../../activities/upload.types';
import { orphanDeadline } from '../../domain/upload/upload.rules';
import { uploadContract, type UploadWorkflowArgs } from '../../domain/upload/upload-events.rules';
import { entityInbox, entitySignal, proxyReadActivities } from '../shared/entity-inbox';

export type { UploadWorkflowArgs } from '../../domain/upload/upload-events.rules';

export const uploadEventSignal = entitySignal(uploadContract);

const { readUpload } = proxyReadActivities<UploadActivities>();

// Storage may be down for a while: keep trying (the file just stays longer).
const { deleteUnusedUpload } = proxyActivities<UploadActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '1 hour', nonRetryableErrorTypes: [uploadContract.versionNotVisible] },
});

export async function uploadWorkflow({ fileId }: UploadWorkflowArgs): Promise<void> {
  const file = entityInbox(uploadContract, fileId, {
    readCommitted: (minVersion) => readUpload({ fileId, minVersion }),
  });

  // Created (multipart: ACTIVE at once; presigned: PENDING_UPLOAD until confirmed).
  const created = await file.first();
  if (!created || created.deleted) return;

  // Presigned: confirmed before the upload window closes, or the file is given up.
  if (created.status === 'PENDING_UPLOAD') {
    const confirmed = await file.waitUntil((f) => f.deleted || f.status === 'ACTIVE', {
      deadline: (f) => (f.expiresAt ? Date.parse(f.expiresAt) : null),
      summary: (f) => `end of the upload window at ${f.expiresAt}`,
    });
    if (!confirmed && (await deleteUnusedUpload({ fileId, onlyIfPending: true })) !== 'KEPT') return;
  }

  // Linked within 24 h of its creation, or deleted as an orphan.
  const settled = await file.waitUntil((f) => f.deleted || f.referenced, {
    deadline: (f) => orphanDeadline(f.createdAt),
    summary: (f) => `deleting the file if still unused at ${new Date(orphanDeadline(f.createdAt)).toISOString()}`,
  });
  if (settled) return;
  await deleteUnusedUpload({ fileId, onlyIfPending: false });
}
