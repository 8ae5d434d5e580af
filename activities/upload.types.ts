// The upload workflow's activities, as the workflow sees them (types only).
import type { UploadSnapshot } from '../domain/upload/upload-events.rules';

/** DELETED: object and row removed; GONE: already deleted by a user; KEPT: linked or confirmed meanwhile. */
export type UploadCleanupOutcome = 'DELETED' | 'GONE' | 'KEPT';

export interface UploadActivities {
  /** the committed file at or after `minVersion` (retried while not visible); `deleted` when the row is gone */
  readUpload(input: { fileId: string; minVersion: number }): Promise<UploadSnapshot>;
  /**
   * Deletes the object, its rendered variants and the row when the file is still unreferenced (and,
   * with `onlyIfPending`, still unconfirmed). Idempotent.
   */
  deleteUnusedUpload(input: { fileId: string; onlyIfPending: boolean }): Promise<UploadCleanupOutcome>;
}
