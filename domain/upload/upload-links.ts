// Linking files to the records that show them (docs/rules/uploads.md#linking-files-to-records): a feature module stores the key and calls
// `replaceUploadReference` in the same transaction. The new file is linked (it must be ours, ACTIVE,
// of the field's purpose, and not used elsewhere: UPLOAD_ALREADY_REFERENCED); the old one is
// unlinked, which makes it an orphan candidate that its workflow deletes once 24 h old.
import type { Db } from '../../db/db-handle';
import { errors, uploadErrors } from '../errors';
import * as repo from './upload.repository';
import { changeEntity } from '../workflow-signals/entity-change';
import { uploadContract } from './upload-events.rules';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { tenantOfKey, type UploadPurpose } from './upload.rules';

export interface UploadReference {
  /** the record and field, e.g. `tenant.logoKey` */
  type: string;
  id: string;
}

/** The purpose each linkable field takes. */
export const FIELD_PURPOSES: Record<string, UploadPurpose> = {
  'tenant.logoKey': 'TENANT_LOGO',
  'tenant.coverKey': 'TENANT_COVER',
  'tenant.coverMobileKey': 'TENANT_COVER',
  'service.imageKey': 'SERVICE_IMAGE',
  'resource.avatarKey': 'RESOURCE_AVATAR',
};

/** The fields of each record that hold upload keys. */
const LINKED_FIELDS = {
  tenant: ['logoKey', 'coverKey', 'coverMobileKey'],
  service: ['imageKey'],
  resource: ['avatarKey'],
} as const;

function sameReference(a: { type: string; id: string } | null, b: UploadReference): boolean {
  return a !== null && a.type === b.type && a.id === b.id;
}

async function link(db: Db, signaller: EntitySignaller, tenantId: string, key: string, ref: UploadReference, field: string): Promise<void> {
  const owner = tenantOfKey(key);
  if (owner && owner !== tenantId) throw uploadErrors.tenantMismatch();
  const file = owner ? await repo.findFileByKey(db, key, true) : undefined;
  if (!file || file.tenantId !== tenantId || file.status !== 'ACTIVE') throw uploadErrors.notFound(`${field}: no uploaded file has this key`);
  const purpose = FIELD_PURPOSES[ref.type];
  if (purpose && file.purpose !== purpose) {
    throw errors.validation('Request validation failed', [{ field, message: `needs a file uploaded with purpose ${purpose} (this one is ${file.purpose})` }]);
  }
  if (sameReference(file.referencedBy, ref)) return;
  if (file.referencedBy) throw uploadErrors.alreadyReferenced();
  await changeEntity(signaller, uploadContract, {
    write: () => repo.markFileReferenced(db, file.id, { type: ref.type, id: ref.id }),
    event: 'UploadLinked',
  });
}

async function unlink(db: Db, signaller: EntitySignaller, tenantId: string, key: string, ref: UploadReference): Promise<void> {
  // keys from before uploads existed (or of another salon) are not ours to unlink
  if (tenantOfKey(key) !== tenantId) return;
  const file = await repo.findFileByKey(db, key, true);
  if (!file || !sameReference(file.referencedBy, ref)) return;
  await changeEntity(signaller, uploadContract, {
    write: () => repo.patchFile(db, file.id, { referencedBy: null, referencedAt: null }),
    event: 'UploadUnlinked',
  });
}

/**
 * `field` of `ref` changes from `previous` to `next` (null: removed). Call inside the record's
 * transaction, after its row is locked. `fieldName` names the field in errors (e.g. `branding.logoKey`).
 */
export async function replaceUploadReference(
  db: Db,
  signaller: EntitySignaller,
  tenantId: string,
  ref: UploadReference,
  previous: string | null | undefined,
  next: string | null | undefined,
  fieldName = ref.type.split('.').pop()!,
): Promise<void> {
  if (next === undefined || (previous ?? null) === (next ?? null)) return;
  if (previous) await unlink(db, signaller, tenantId, previous, ref);
  if (next) await link(db, signaller, tenantId, next, ref, fieldName);
}

/**
 * The one call a feature module makes: `record` of `entity` (tenant branding, service, resource) goes
 * from `before` to `after` (null: created / deleted); every upload field that changed is unlinked from
 * its old file and linked to its new one, in the caller's transaction.
 */
export async function syncUploadFields(
  db: Db,
  signaller: EntitySignaller,
  tenantId: string,
  entity: keyof typeof LINKED_FIELDS,
  id: string,
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
): Promise<void> {
  for (const field of LINKED_FIELDS[entity]) {
    const previous = (before?.[field] as string | null | undefined) ?? null;
    const next = (after?.[field] as string | null | undefined) ?? null;
    await replaceUploadReference(
      db,
      signaller,
      tenantId,
      { type: `${entity}.${field}`, id },
      previous,
      next,
      entity === 'tenant' ? `branding.${field}` : field,
    );
  }
}
