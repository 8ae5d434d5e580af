// Provider credentials at rest (docs/rules/auth.md#provider-credentials-at-rest): AES-256-GCM under a
// versioned master key. Rows keep the key version they were sealed with, so a new master key version
// can be added to CREDENTIAL_KEYS while old rows still open; rotation re-seals a row under the
// current version. Each blob is bound to its row: the row's binding (`payment_configs/<tenant>/<id>`)
// is the cipher's associated data, so a blob copied into another row, or another salon's, does not
// open there. Blobs sealed before binding (no `v2:` prefix) still open, and migrate re-seals them.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { CredentialKeyring } from '../../config/credential-keys';

// The keyring is configuration (CREDENTIAL_KEYS, parsed and checked at start-up in config/).
export { DEV_CREDENTIAL_KEYS, parseKeyring, type CredentialKeyring } from '../../config/credential-keys';

export interface SealedCredentials {
  /** `v2:` + base64 of iv (12 bytes) | auth tag (16 bytes) | ciphertext; without the prefix: sealed before rows were bound */
  sealed: string;
  keyVersion: number;
}

/** The row a blob belongs to, as associated data: `<table>/<its scope>/<id>`. */
export type CredentialBinding = string;

const BOUND = 'v2:';

/** Seals a JSON-serialisable credentials object under the current key version, bound to its row. */
export function sealCredentials(keyring: CredentialKeyring, credentials: unknown, binding: CredentialBinding): SealedCredentials {
  const key = keyring.keys.get(keyring.currentVersion)!;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(binding, 'utf8'));
  const body = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
  return { sealed: BOUND + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64'), keyVersion: keyring.currentVersion };
}

/** Opens sealed credentials of the row `binding`; throws (without key material or plaintext) when the key, the row or the data is wrong. */
export function openCredentials<T = unknown>(keyring: CredentialKeyring, { sealed, keyVersion }: SealedCredentials, binding: CredentialBinding): T {
  const key = keyring.keys.get(keyVersion);
  if (!key) throw new Error(`credentials sealed with key version ${keyVersion}, which CREDENTIAL_KEYS no longer holds`);
  const bound = sealed.startsWith(BOUND);
  const raw = Buffer.from(bound ? sealed.slice(BOUND.length) : sealed, 'base64');
  if (raw.length < 28) throw new Error('sealed credentials are truncated');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  if (bound) decipher.setAAD(Buffer.from(binding, 'utf8'));
  decipher.setAuthTag(raw.subarray(12, 28));
  try {
    const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    return JSON.parse(plain) as T;
  } catch {
    throw new Error('sealed credentials failed authentication (wrong key, another row, or altered data)');
  }
}

/** True when a row should be sealed again: under an older key version, or before rows were bound. */
export function isSealedWithOldKey(keyring: CredentialKeyring, keyVersion: number, sealed?: string): boolean {
  return keyVersion !== keyring.currentVersion || (sealed !== undefined && !sealed.startsWith(BOUND));
}

/** Whether a blob was sealed before rows were bound (migrate re-seals those). */
export function isUnbound(sealed: string): boolean {
  return !sealed.startsWith(BOUND);
}
