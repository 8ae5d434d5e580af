// Data access of uploaded files (docs/rules/uploads.md). Scoped by tenantId, plain rows, the caller's handle.
import { fn, raw } from 'objection';
import type { Db } from '../../db/db-handle';
import { UploadedFileModel } from '../../db/models/uploaded-file.model';
import { UploadedFileVariantModel } from '../../db/models/uploaded-file-variant.model';
import { plain, plainOrUndefined, type Row } from '../../db/plain';

export type UploadedFileRow = Row<UploadedFileModel>;
export type NewUploadedFileRow = Omit<UploadedFileRow, 'createdAt' | 'updatedAt' | 'version' | 'referencedBy' | 'referencedAt'> & { id: string };

export async function insertFile(db: Db, row: NewUploadedFileRow): Promise<UploadedFileRow> {
  return plain(await UploadedFileModel.query(db).insertAndFetch(row));
}

export async function findFile(db: Db, tenantId: string, id: string, forUpdate = false): Promise<UploadedFileRow | undefined> {
  const query = UploadedFileModel.query(db).findOne({ id, tenantId });
  if (forUpdate) query.forUpdate();
  return plainOrUndefined(await query);
}

export async function findFileByKey(db: Db, key: string, forUpdate = false): Promise<UploadedFileRow | undefined> {
  const query = UploadedFileModel.query(db).findOne({ key });
  if (forUpdate) query.forUpdate();
  return plainOrUndefined(await query);
}

/** Any tenant: the workflow's read and the orphan deletion. */
export async function findFileById(db: Db, id: string, forUpdate = false): Promise<UploadedFileRow | undefined> {
  const query = UploadedFileModel.query(db).findById(id);
  if (forUpdate) query.forUpdate();
  return plainOrUndefined(await query);
}

/** Writes `changes` and bumps the version (what the file's workflow follows). */
export async function patchFile(db: Db, id: string, changes: Partial<Omit<UploadedFileRow, 'id' | 'version'>>): Promise<UploadedFileRow> {
  return plain(await UploadedFileModel.query(db).patchAndFetchById(id, { ...changes, version: raw('version + 1') }));
}

/** The file is linked to a record (stamped with the database's clock); version + 1. */
export async function markFileReferenced(db: Db, id: string, referencedBy: { type: string; id: string }): Promise<UploadedFileRow> {
  return plain(await UploadedFileModel.query(db).patchAndFetchById(id, { referencedBy, referencedAt: fn.now(), version: raw('version + 1') }));
}

export async function deleteFileRow(db: Db, id: string): Promise<void> {
  await UploadedFileModel.query(db).deleteById(id);
}

export async function variantKeys(db: Db, fileId: string): Promise<string[]> {
  return (await UploadedFileVariantModel.query(db).where({ fileId }).select('key')).map((r) => r.key);
}

/**
 * Claims a rendered variant's place before it is rendered: true when the variant is already the
 * file's, or there was room for it (fewer than `max`); false when the file has `max` variants. Under
 * the file's row lock, so two renders never both take the last place.
 */
export async function reserveVariant(db: Db, fileId: string, key: string, max: number): Promise<boolean> {
  return db.transaction(async (trx) => {
    if (!(await UploadedFileModel.query(trx).findById(fileId).forUpdate())) return false;
    if (await UploadedFileVariantModel.query(trx).findOne({ fileId, key })) return true;
    const [{ count }] = (await UploadedFileVariantModel.query(trx).where({ fileId }).count({ count: '*' })) as unknown as [{ count: string }];
    if (Number(count) >= max) return false;
    await UploadedFileVariantModel.query(trx).insert({ fileId, key });
    return true;
  });
}

/** Gives a reserved variant's place back (its render failed). */
export async function forgetVariant(db: Db, fileId: string, key: string): Promise<void> {
  await UploadedFileVariantModel.query(db).delete().where({ fileId, key });
}
