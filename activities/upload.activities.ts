// Side effects of the upload workflow: reading the committed file, and deleting an unused one (the
// objects first, then the row, under the row's lock so a link committing meanwhile keeps the file).
import type { Db } from '../db/db-handle';
import type { ObjectStorage } from '../domain/upload/object-storage';
import * as repo from '../domain/upload/upload.repository';
import { uploadContract } from '../domain/upload/upload-events.rules';
import type { UploadActivities, UploadCleanupOutcome } from './upload.types';
import { committedAt } from './read-committed';

export interface UploadActivityDeps {
  knex: Db;
  storage: ObjectStorage;
}

export function createUploadActivities({ knex, storage }: UploadActivityDeps): UploadActivities {
  return {
    async readUpload({ fileId, minVersion }) {
      const file = await repo.findFileById(knex, fileId);
      if (!file)
        return { id: fileId, version: minVersion, status: 'ACTIVE', createdAt: new Date(0).toISOString(), expiresAt: null, referenced: false, deleted: true };
      return committedAt(uploadContract, fileId, minVersion, {
        id: file.id,
        version: file.version,
        status: file.status,
        createdAt: new Date(file.createdAt).toISOString(),
        expiresAt: file.expiresAt ? new Date(file.expiresAt).toISOString() : null,
        referenced: file.referencedAt !== null,
        deleted: false,
      });
    },

    async deleteUnusedUpload({ fileId, onlyIfPending }): Promise<UploadCleanupOutcome> {
      return knex.transaction(async (trx) => {
        const file = await repo.findFileById(trx, fileId, true);
        if (!file) return 'GONE';
        if (file.referencedAt !== null || (onlyIfPending && file.status !== 'PENDING_UPLOAD')) return 'KEPT';
        for (const key of [...(await repo.variantKeys(trx, file.id)), file.key]) await storage.delete(key);
        await repo.deleteFileRow(trx, file.id);
        return 'DELETED';
      });
    },
  };
}
