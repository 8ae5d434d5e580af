// The upload's workflow contract (docs/rules/consistency.md#the-entity-contract): one workflow per
// uploaded file, `uploadWorkflow` with id `upload:<id>`, told about every committed change of the
// file's row by the signal `uploadEvent` `{type, entityVersion}`, reading the file as an UploadSnapshot.
// Pure: imported by the upload services, the activities and the workflow.
import { entityContract, type EntityEvent } from '../workflow-signals/entity-contract.rules';
import type { UploadStatus } from './upload.rules';

export type UploadEventType = 'UploadCreated' | 'UploadConfirmed' | 'UploadLinked' | 'UploadUnlinked' | 'UploadDeleted';

export type UploadEvent = EntityEvent<UploadEventType>;

export interface UploadWorkflowArgs {
  fileId: string;
  tenantId: string;
}

/** The file as its workflow reads it (the read activity, once the event's version committed). */
export interface UploadSnapshot {
  id: string;
  version: number;
  status: UploadStatus;
  createdAt: string;
  /** when a PENDING_UPLOAD file gives up waiting for its confirm */
  expiresAt: string | null;
  referenced: boolean;
  /** the row is gone (deleted by a user) */
  deleted: boolean;
}

export const uploadContract = entityContract<UploadEventType, UploadWorkflowArgs, UploadSnapshot>({
  entity: 'upload',
  startArgs: (f) => ({ fileId: f.id, tenantId: f.tenantId }),
});
