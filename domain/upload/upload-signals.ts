// Telling a file's `upload:<id>` workflow about its changes (ARCHITECTURE.md section 4), inside the
// change's transaction. The tenant, catalogue and resource services link files through
// upload-links.ts with nothing but their database handle, so the signaller those links use is bound
// once per process by bin/compose.ts (composeApi) rather than passed down every service.
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { signalEntity } from '../workflow-signals/signal-entity';
import { errors } from '../errors';
import { UPLOAD_EVENT_SIGNAL, UPLOAD_WORKFLOW_TYPE, uploadWorkflowId, type UploadEventType } from './upload.rules';

let bound: EntitySignaller | undefined;

/** bin/compose.ts: the signaller upload links use in this process. */
export function bindUploadSignaller(signaller: EntitySignaller): void {
  bound = signaller;
}

export async function signalUpload(file: { id: string; tenantId: string; version: number }, type: UploadEventType, signaller: EntitySignaller | undefined = bound): Promise<void> {
  if (!signaller) throw errors.unavailable('WORKFLOW_UNAVAILABLE', 'The upload workflow service is not configured');
  await signalEntity(
    signaller,
    'upload',
    { workflowType: UPLOAD_WORKFLOW_TYPE, workflowId: uploadWorkflowId(file.id), startArgs: { fileId: file.id, tenantId: file.tenantId } },
    UPLOAD_EVENT_SIGNAL,
    { type, entityVersion: file.version },
  );
}
