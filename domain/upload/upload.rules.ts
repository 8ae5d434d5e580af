// The upload rules (docs/rules/uploads.md), pure: the purpose matrix (visibility, size limit, MIME
// allowlist, proxy preset), keys `{tenantId}/{uuid}.{ext}`, name sanitising, the 24 h orphan age,
// and who may do what with which purpose (docs/rules/uploads.md#who-may-do-what). Workflows may import this file.

export const UPLOAD_PURPOSES = [
  'TENANT_LOGO',
  'TENANT_COVER',
  'SERVICE_IMAGE',
  'RESOURCE_AVATAR',
  'PORTFOLIO_PHOTO',
  'ONBOARDING_DOC',
  'PAYMENT_ATTACHMENT',
] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];
export type Visibility = 'PUBLIC' | 'PRIVATE';
export type UploadStatus = 'PENDING_UPLOAD' | 'ACTIVE';
export type UploadMime = 'image/png' | 'image/jpeg' | 'image/webp' | 'application/pdf';
type StaffRole = 'ADMIN' | 'OWNER' | 'STAFF';

const MB = 1024 * 1024;
export const MIN_UPLOAD_BYTES = 100;
export const MAX_IMAGE_PIXELS = 50_000_000;
export const PRESIGNED_PUT_SECONDS = 300;
export const PRESIGNED_GET_SECONDS = 3600;
export const ORPHAN_AGE_MS = 24 * 3600 * 1000;

const IMAGES: readonly UploadMime[] = ['image/png', 'image/webp', 'image/jpeg'];
const DOCUMENTS: readonly UploadMime[] = ['application/pdf', 'image/png', 'image/jpeg'];

export interface PurposeRule {
  visibility: Visibility;
  maxBytes: number;
  mimeTypes: readonly UploadMime[];
  /** image proxy preset (PUBLIC only) */
  preset: string | null;
  /** who may create files of this purpose */
  uploaders: readonly StaffRole[];
  /** who may get a presigned download (PRIVATE only) */
  downloaders: readonly StaffRole[];
}

export const PURPOSES: Record<UploadPurpose, PurposeRule> = {
  TENANT_LOGO: {
    visibility: 'PUBLIC',
    maxBytes: 2 * MB,
    mimeTypes: IMAGES,
    preset: 'rs:fit:200:200/q:90',
    uploaders: ['ADMIN', 'OWNER', 'STAFF'],
    downloaders: [],
  },
  TENANT_COVER: {
    visibility: 'PUBLIC',
    maxBytes: 5 * MB,
    mimeTypes: IMAGES,
    preset: 'rs:fill:1920:480/g:sm/q:85',
    uploaders: ['ADMIN', 'OWNER', 'STAFF'],
    downloaders: [],
  },
  SERVICE_IMAGE: {
    visibility: 'PUBLIC',
    maxBytes: 3 * MB,
    mimeTypes: IMAGES,
    preset: 'rs:fill:600:400/q:85',
    uploaders: ['ADMIN', 'OWNER', 'STAFF'],
    downloaders: [],
  },
  RESOURCE_AVATAR: {
    visibility: 'PUBLIC',
    maxBytes: 2 * MB,
    mimeTypes: IMAGES,
    preset: 'rs:fill:200:200/g:sm/q:90',
    uploaders: ['ADMIN', 'OWNER', 'STAFF'],
    downloaders: [],
  },
  PORTFOLIO_PHOTO: {
    visibility: 'PUBLIC',
    maxBytes: 5 * MB,
    mimeTypes: IMAGES,
    preset: 'rs:fit:1200:1200/q:85',
    uploaders: ['ADMIN', 'OWNER', 'STAFF'],
    downloaders: [],
  },
  ONBOARDING_DOC: {
    visibility: 'PRIVATE',
    maxBytes: 10 * MB,
    mimeTypes: DOCUMENTS,
    preset: null,
    uploaders: ['ADMIN', 'OWNER'],
    downloaders: ['ADMIN', 'OWNER'],
  },
  PAYMENT_ATTACHMENT: {
    visibility: 'PRIVATE',
    maxBytes: 10 * MB,
    mimeTypes: DOCUMENTS,
    preset: null,
    uploaders: ['ADMIN', 'OWNER'],
    downloaders: ['OWNER', 'STAFF'],
  },
};

export const ALLOWED_MIME_TYPES: readonly UploadMime[] = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'];

export function isUploadPurpose(value: unknown): value is UploadPurpose {
  return typeof value === 'string' && (UPLOAD_PURPOSES as readonly string[]).includes(value);
}

export function isAllowedMime(value: string): value is UploadMime {
  return (ALLOWED_MIME_TYPES as readonly string[]).includes(value);
}

/** The purpose's limit, capped by the deployment's UPLOAD_MAX_IMAGE_BYTES / UPLOAD_MAX_DOCUMENT_BYTES. */
export function maxBytesFor(purpose: UploadPurpose, ceilings: { maxImageBytes: number; maxDocumentBytes: number }): number {
  const rule = PURPOSES[purpose];
  return Math.min(rule.maxBytes, rule.visibility === 'PUBLIC' ? ceilings.maxImageBytes : ceilings.maxDocumentBytes);
}

export function extensionOf(mime: UploadMime): string {
  return { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'application/pdf': 'pdf' }[mime];
}

/** `{tenantId}/{uuid}.{ext}` */
export function storageKey(tenantId: string, fileId: string, mime: UploadMime): string {
  return `${tenantId}/${fileId}.${extensionOf(mime)}`;
}

const KEY =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(png|jpg|webp|pdf)$/;

/** The tenant a key belongs to, or undefined when it is not a key of ours. */
export function tenantOfKey(key: string): string | undefined {
  return KEY.exec(key)?.[1];
}

/** A display name without paths, control characters or markup, at most 255 characters. */
export function sanitizeFileName(name: string | undefined): string | null {
  if (!name) return null;
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"|?*`$]/g, '_')
    .replace(/^\.+/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!cleaned) return null;
  return Array.from(cleaned).slice(0, 255).join('');
}

export function mayUpload(role: string, purpose: UploadPurpose): boolean {
  return (PURPOSES[purpose].uploaders as readonly string[]).includes(role);
}

export function mayDownload(role: string, purpose: UploadPurpose): boolean {
  return (PURPOSES[purpose].downloaders as readonly string[]).includes(role);
}

/** Referenced files OWNER/ADMIN; STAFF only their own orphans. */
export function mayDelete(actor: { role: string; userId: string }, file: { uploadedBy: string | null; referencedAt: Date | string | null }): boolean {
  if (actor.role === 'OWNER' || actor.role === 'ADMIN') return true;
  return actor.role === 'STAFF' && file.referencedAt === null && file.uploadedBy === actor.userId;
}

/** When an unreferenced file is deleted (created + 24 h). */
export function orphanDeadline(createdAt: Date | string | number): number {
  return new Date(createdAt).getTime() + ORPHAN_AGE_MS;
}
