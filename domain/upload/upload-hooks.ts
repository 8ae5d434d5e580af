/**
 * The port through which a deleted upload reaches the records that show it (upload-links.ts: the
 * tenant's branding, a service's image, a staff member's avatar). Those areas sit above upload in
 * the order of domain areas (CONTRIBUTING.md#the-order-of-domain-areas); the composition root fills
 * this port with their repositories' functions (composition/domain-hooks.ts). Each clears its field
 * only while it still holds the file's key, inside the delete's transaction.
 */
import type { Db } from '../../db/db-handle';

export interface UploadHooks {
  /** `tenant.<brandingKey>` (logoKey, coverKey, coverMobileKey) */
  removeBrandingImage(db: Db, tenantId: string, brandingKey: string, fileKey: string): Promise<void>;
  /** `service.imageKey` */
  clearServiceImage(db: Db, tenantId: string, serviceId: string, fileKey: string): Promise<void>;
  /** `resource.avatarKey` */
  clearResourceAvatar(db: Db, tenantId: string, resourceId: string, fileKey: string): Promise<void>;
}
