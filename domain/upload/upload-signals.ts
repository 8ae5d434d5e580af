// Telling a file's `upload:<id>` workflow about its changes (docs/rules/consistency.md#signal-before-commit), inside the
// change's transaction, through the caller's signaller.
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { signalEntity } from '../workflow-signals/signal-entity';
import { UPLOAD_EVENT_SIGNAL, UPLOAD_WORKFLOW_TYPE, uploadWorkflowId, type UploadEventType } from './upload.rules';

export async function signalUpload(signaller: EntitySignaller, file: { id: string; tenantId: string; version: number }, type: UploadEventType): Promise<void> {
  await signalEntity(
    signaller,
    'upload',
    { workflowType: UPLOAD_WORKFLOW_TYPE, workflowId: uploadWorkflowId(file.id), startArgs: { fileId: file.id, tenantId: file.tenantId } },
    UPLOAD_EVENT_SIGNAL,
    { type, entityVersion: file.version },
  );
}
