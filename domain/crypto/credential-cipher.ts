// Provider credentials at rest (docs/rules/auth.md#provider-credentials-at-rest): AES-256-GCM under a versioned master key. Rows keep the
// key version they were sealed with, so a new master key version can be added to CREDENTIAL_KEYS
// while old rows still open; rotation re-seals a row under the current version.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { CredentialKeyring } from '../../config/credential-keys';

// The keyring is configuration (CREDENTIAL_KEYS, parsed and checked at start-up in config/).
export { DEV_CREDENTIAL_KEYS, parseKeyring, type CredentialKeyring } from '../../config/credential-keys';

export interface SealedCredentials {
  /** base64 of iv (12 bytes) | auth tag (16 bytes) | ciphertext */
  sealed: string;
  keyVersion: number;
}

/** Seals a JSON-serialisable credentials object under the current key version. */
export function sealCredentials(keyring: CredentialKeyring, credentials: unknown): SealedCredentials {
  const key = keyring.keys.get(keyring.currentVersion)!;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
  return { sealed: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64'), keyVersion: keyring.currentVersion };
}

/** Opens sealed credentials; throws (without key material or plaintext) when the key or data is wrong. */
export function openCredentials<T = unknown>(keyring: CredentialKeyring, { sealed, keyVersion }: SealedCredentials): T {
  const key = keyring.keys.get(keyVersion);
  if (!key) throw new Error(`credentials sealed with key version ${keyVersion}, which CREDENTIAL_KEYS no longer holds`);
  const raw = Buffer.from(sealed, 'base64');
  if (raw.length < 28) throw new Error('sealed credentials are truncated');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  try {
    const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    return JSON.parse(plain) as T;
  } catch {
    throw new Error('sealed credentials failed authentication (wrong key or altered data)');
  }
}

/** True when a row sealed with `keyVersion` should be re-sealed under the current key. */
export function isSealedWithOldKey(keyring: CredentialKeyring, keyVersion: number): boolean {
  return keyVersion !== keyring.currentVersion;
}
