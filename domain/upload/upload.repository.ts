// Data access of uploaded files (docs/rules/uploads.md). Scoped by tenantId, plain rows, the caller's handle.
import type { Db } from '../../db/db-handle';
import { UploadedFileModel } from '../../db/models/uploaded-file.model';
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
  return plain(await UploadedFileModel.query(db).patchAndFetchById(id, { ...changes, version: db.raw('version + 1') as unknown as number }));
}

export async function deleteFileRow(db: Db, id: string): Promise<void> {
  await UploadedFileModel.query(db).deleteById(id);
}

export async function variantKeys(db: Db, fileId: string): Promise<string[]> {
  const rows: { key: string }[] = await db('uploaded_file_variants').where({ fileId }).select('key');
  return rows.map((r) => r.key);
}

export async function recordVariant(db: Db, fileId: string, key: string): Promise<void> {
  await db('uploaded_file_variants').insert({ fileId, key }).onConflict(['fileId', 'key']).ignore();
}
