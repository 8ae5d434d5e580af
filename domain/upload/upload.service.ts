// Uploads (docs/rules/uploads.md): multipart public images, presigned documents, downloads and
// deletion. Every new file gets its `upload:<id>` workflow (signalled inside the transaction), which
// deletes it 24 h after creation unless something links it, and expires an unconfirmed presigned one.
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Db, Transaction } from '../../db/db-handle';
import { nowOf, type Clock } from '../time/clock';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { errors, uploadErrors } from '../errors';
import type { ObjectStorage } from './object-storage';
import type { UploadHooks } from './upload-hooks';
import * as repo from './upload.repository';
import { changeEntity } from '../workflow-signals/entity-change';
import { uploadContract } from './upload-events.rules';
import { storageCall } from './storage-call';
import { checkType, cleanImage, digestStream, receiveToTempFile, sniffBuffer, sniffFile } from './image-inspection';
import {
  MIN_UPLOAD_BYTES,
  PRESIGNED_GET_SECONDS,
  PRESIGNED_PUT_SECONDS,
  PURPOSES,
  isUploadPurpose,
  mayDelete,
  mayDownload,
  mayUpload,
  maxBytesFor,
  sanitizeFileName,
  storageKey,
  type UploadMime,
  type UploadPurpose,
} from './upload.rules';

export interface UploadDeps {
  knex: Db;
  storage: ObjectStorage;
  signaller: EntitySignaller;
  limits: { maxImageBytes: number; maxDocumentBytes: number };
  /** unset: the system clock */
  now?: Clock;
  /** how a record lets go of a deleted file it shows (upload-hooks.ts) */
  uploadHooks: UploadHooks;
}

export interface UploadActor {
  userId: string;
  role: string;
  tenantId: string;
}

export interface UploadedFileDto {
  id: string;
  key: string;
  purpose: string;
  visibility: string;
  status: string;
  mimeType: string;
  sizeBytes: number;
  width: number | null;
  height: number | null;
  checksumSha256: string | null;
  originalName: string | null;
  referencedBy: { type: string; id: string } | null;
  createdAt: string;
}

export function toUploadDto(row: repo.UploadedFileRow): UploadedFileDto {
  return {
    id: row.id,
    key: row.key,
    purpose: row.purpose,
    visibility: row.visibility,
    status: row.status,
    mimeType: row.mimeType,
    sizeBytes: Number(row.sizeBytes),
    width: row.width ?? null,
    height: row.height ?? null,
    checksumSha256: row.checksumSha256 ?? null,
    originalName: row.originalName ?? null,
    referencedBy: row.referencedBy ?? null,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

function purposeOf(value: unknown): UploadPurpose {
  if (!isUploadPurpose(value)) throw errors.validation('Request validation failed', [{ field: 'purpose', message: 'must be one of the upload purposes' }]);
  return value;
}

function assertMayUpload(actor: UploadActor, purpose: UploadPurpose): void {
  if (!mayUpload(actor.role, purpose)) throw uploadErrors.purposeForbidden(purpose);
}

export interface MultipartFile {
  purpose: unknown;
  /** the part's declared content type */
  mimeType: string | undefined;
  fileName: string | undefined;
  body: Readable;
}

/** The first check of POST /upload, before any byte of the file is read. */
export function admitMultipart(actor: UploadActor, purposeValue: unknown): UploadPurpose {
  const purpose = purposeOf(purposeValue);
  if (PURPOSES[purpose].visibility !== 'PUBLIC') {
    throw errors.validation('Request validation failed', [{ field: 'purpose', message: 'private documents are uploaded through POST /upload/presigned-put' }]);
  }
  assertMayUpload(actor, purpose);
  return purpose;
}

/** POST /upload: a public image, streamed to a temp file, checked, cleaned, stored, recorded. */
export async function uploadImage(deps: UploadDeps, actor: UploadActor, file: MultipartFile): Promise<UploadedFileDto> {
  const purpose = admitMultipart(actor, file.purpose);
  const rule = PURPOSES[purpose];
  const received = await receiveToTempFile(file.body, maxBytesFor(purpose, deps.limits));
  try {
    const mime = checkType(await sniffFile(received.path), file.mimeType, rule.mimeTypes);
    const image = await cleanImage(received.path, mime);
    const id = crypto.randomUUID();
    const key = storageKey(actor.tenantId, id, mime);
    await storageCall(() => deps.storage.put(key, image.data, { contentType: mime, contentLength: image.data.length }));
    try {
      return toUploadDto(
        await recordNewFile(deps, {
          id,
          tenantId: actor.tenantId,
          key,
          purpose,
          visibility: rule.visibility,
          status: 'ACTIVE',
          mimeType: mime,
          sizeBytes: image.data.length,
          originalName: sanitizeFileName(file.fileName),
          width: image.width,
          height: image.height,
          checksumSha256: image.checksumSha256,
          uploadedBy: actor.userId,
          expiresAt: null,
        }),
      );
    } catch (err) {
      // the row never committed: the stored object has no owner
      await deps.storage.delete(key).catch(() => undefined);
      throw err;
    }
  } finally {
    await received.discard();
  }
}

export interface PresignPutInput {
  purpose: string;
  mimeType: string;
  sizeBytes: number;
  checksumSha256?: string;
  fileName?: string;
}

/** POST /upload/presigned-put: a PENDING_UPLOAD row and a 300 s URL bound to the size and type. */
export async function presignPut(
  deps: UploadDeps,
  actor: UploadActor,
  input: PresignPutInput,
): Promise<{ uploadUrl: string; fileId: string; key: string; expiresAt: string; headers: Record<string, string> }> {
  const purpose = purposeOf(input.purpose);
  // public images go through POST /upload, where they are checked and cleaned of EXIF/GPS
  if (PURPOSES[purpose].visibility !== 'PRIVATE') {
    throw errors.validation('Request validation failed', [{ field: 'purpose', message: 'public images are uploaded through POST /upload' }]);
  }
  assertMayUpload(actor, purpose);
  const rule = PURPOSES[purpose];
  if (!(rule.mimeTypes as readonly string[]).includes(input.mimeType)) {
    throw uploadErrors.invalidType(`${input.mimeType} is not accepted for ${purpose} (allowed: ${rule.mimeTypes.join(', ')})`);
  }
  const limit = maxBytesFor(purpose, deps.limits);
  if (input.sizeBytes > limit) throw uploadErrors.tooLarge(limit);
  if (input.sizeBytes < MIN_UPLOAD_BYTES) throw uploadErrors.tooSmall(MIN_UPLOAD_BYTES);
  const mime = input.mimeType as UploadMime;
  const id = crypto.randomUUID();
  const key = storageKey(actor.tenantId, id, mime);
  const expiresAt = new Date(nowOf(deps).getTime() + PRESIGNED_PUT_SECONDS * 1000);
  const uploadUrl = await storageCall(() =>
    deps.storage.presignPut(key, { contentType: mime, contentLength: input.sizeBytes, expiresInSeconds: PRESIGNED_PUT_SECONDS }),
  );
  await recordNewFile(deps, {
    id,
    tenantId: actor.tenantId,
    key,
    purpose,
    visibility: rule.visibility,
    status: 'PENDING_UPLOAD',
    mimeType: mime,
    sizeBytes: input.sizeBytes,
    originalName: sanitizeFileName(input.fileName),
    width: null,
    height: null,
    checksumSha256: input.checksumSha256?.toLowerCase() ?? null,
    uploadedBy: actor.userId,
    expiresAt,
  });
  return { uploadUrl, fileId: id, key, expiresAt: expiresAt.toISOString(), headers: { 'content-type': mime, 'content-length': String(input.sizeBytes) } };
}

/** A new file's row, at version 1, and its upload workflow told (signalled before the row commits). */
function recordNewFile(deps: UploadDeps, file: repo.NewUploadedFileRow): Promise<repo.UploadedFileRow> {
  return deps.knex.transaction((trx) => changeEntity(deps.signaller, uploadContract, { write: () => repo.insertFile(trx, file), event: 'UploadCreated' }));
}

async function ownFile(db: Db, actor: UploadActor, id: string, forUpdate = false): Promise<repo.UploadedFileRow> {
  const file = await repo.findFile(db, actor.tenantId, id, forUpdate);
  if (!file) throw uploadErrors.notFound();
  return file;
}

/**
 * POST /upload/confirm/:fileId: the object must be in storage, with the declared size, a content of
 * the declared type, and the declared SHA-256 when one was given. The bytes are read back here, so
 * this holds on storage that does not enforce signed headers (s3rver) as well as on S3 and MinIO.
 */
export async function confirmUpload(deps: UploadDeps, actor: UploadActor, fileId: string): Promise<UploadedFileDto> {
  return deps.knex.transaction(async (trx) => {
    const file = await ownFile(trx, actor, fileId, true);
    assertMayUpload(actor, file.purpose as UploadPurpose);
    if (file.status === 'ACTIVE') return toUploadDto(file);
    if (file.expiresAt && new Date(file.expiresAt).getTime() < nowOf(deps).getTime())
      throw uploadErrors.notFound('The upload window of this file has closed; ask for a new presigned URL');
    const stored = await storageCall(() => deps.storage.head(file.key));
    if (!stored) throw uploadErrors.notFound('Nothing has been uploaded for this file yet');
    const fail = async (message: string, error = uploadErrors.integrityFailed(message)): Promise<never> => {
      await storageCall(() => deps.storage.delete(file.key));
      throw error;
    };
    if (stored.sizeBytes !== Number(file.sizeBytes)) await fail(`The stored object has ${stored.sizeBytes} bytes, ${file.sizeBytes} were declared`);
    const body = await storageCall(() => deps.storage.read(file.key));
    if (!body) throw uploadErrors.notFound('Nothing has been uploaded for this file yet');
    const digest = await storageCall(() => digestStream(body));
    if (digest.sizeBytes !== Number(file.sizeBytes)) await fail(`The stored object has ${digest.sizeBytes} bytes, ${file.sizeBytes} were declared`);
    const sniffed = await sniffBuffer(digest.head);
    if (sniffed !== file.mimeType)
      await fail(
        `The uploaded content is ${sniffed ?? 'of an unknown type'}, ${file.mimeType} was declared`,
        uploadErrors.typeMismatch(`The uploaded content is ${sniffed ?? 'of an unknown type'}, ${file.mimeType} was declared`),
      );
    if (file.checksumSha256 && file.checksumSha256 !== digest.checksumSha256) await fail('The SHA-256 of the stored object differs from the declared checksum');
    const confirmed = await changeEntity(deps.signaller, uploadContract, {
      write: () => repo.patchFile(trx, file.id, { status: 'ACTIVE', checksumSha256: digest.checksumSha256, expiresAt: null }),
      event: 'UploadConfirmed',
    });
    return toUploadDto(confirmed);
  });
}

/** GET /upload/presigned-get/:id: a 3600 s download URL, per purpose (docs/rules/uploads.md#who-may-do-what). */
export async function presignGet(deps: UploadDeps, actor: UploadActor, id: string): Promise<{ downloadUrl: string; expiresAt: string }> {
  const file = await ownFile(deps.knex, actor, id);
  if (file.status !== 'ACTIVE') throw uploadErrors.notFound('The file has not been confirmed yet');
  if (file.visibility === 'PRIVATE' && !mayDownload(actor.role, file.purpose as UploadPurpose)) throw uploadErrors.purposeForbidden(file.purpose);
  const downloadUrl = await storageCall(() =>
    deps.storage.presignGet(file.key, { expiresInSeconds: PRESIGNED_GET_SECONDS, downloadName: file.originalName ?? undefined }),
  );
  return { downloadUrl, expiresAt: new Date(nowOf(deps).getTime() + PRESIGNED_GET_SECONDS * 1000).toISOString() };
}

export async function getUpload(deps: UploadDeps, actor: UploadActor, id: string): Promise<UploadedFileDto> {
  return toUploadDto(await ownFile(deps.knex, actor, id));
}

/**
 * How each reference type lets go of a deleted file: through the owning module's repository, which
 * the port reaches (the field is cleared only while it still holds the file's key).
 */
const CLEAR_REFERENCE: Record<string, (hooks: UploadHooks, trx: Transaction, file: repo.UploadedFileRow, recordId: string) => Promise<void>> = {
  'tenant.logoKey': (hooks, trx, file, id) => hooks.removeBrandingImage(trx, id, 'logoKey', file.key),
  'tenant.coverKey': (hooks, trx, file, id) => hooks.removeBrandingImage(trx, id, 'coverKey', file.key),
  'tenant.coverMobileKey': (hooks, trx, file, id) => hooks.removeBrandingImage(trx, id, 'coverMobileKey', file.key),
  'service.imageKey': (hooks, trx, file, id) => hooks.clearServiceImage(trx, file.tenantId, id, file.key),
  'resource.avatarKey': (hooks, trx, file, id) => hooks.clearResourceAvatar(trx, file.tenantId, id, file.key),
};

async function clearReference(hooks: UploadHooks, trx: Transaction, file: repo.UploadedFileRow): Promise<void> {
  const ref = file.referencedBy;
  const clear = ref ? CLEAR_REFERENCE[ref.type] : undefined;
  if (ref && clear) await clear(hooks, trx, file, ref.id);
}

/**
 * DELETE /upload/:id (docs/rules/uploads.md#who-may-do-what): STAFF only their own orphans, OWNER/ADMIN anything (a referenced
 * file is removed from its record too). The objects go before the commit, so a storage failure
 * changes nothing (502).
 */
export async function deleteUpload(deps: UploadDeps, actor: UploadActor, id: string): Promise<void> {
  await deps.knex.transaction(async (trx) => {
    const file = await ownFile(trx, actor, id, true);
    if (!mayDelete(actor, file))
      throw errors.forbidden(file.referencedAt ? 'Only an owner may delete a file that is in use' : 'Staff may delete only their own unused files');
    await clearReference(deps.uploadHooks, trx, file);
    const variants = await repo.variantKeys(trx, file.id);
    await repo.deleteFileRow(trx, file.id);
    await storageCall(async () => {
      for (const key of [...variants, file.key]) await deps.storage.delete(key);
    });
  });
}
