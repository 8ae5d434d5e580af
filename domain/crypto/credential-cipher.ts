// Provider credentials at rest (docs/rules/auth.md#provider-credentials-at-rest): AES-256-GCM under a versioned master key. Rows keep the
// key version they were sealed with, so a new master key version can be added to CREDENTIAL_KEYS
// while old rows still open; rotation re-seals a row under the current version.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface CredentialKeyring {
  /** the highest version: new seals use it */
  currentVersion: number;
  keys: ReadonlyMap<number, Buffer>;
}

export interface SealedCredentials {
  /** base64 of iv (12 bytes) | auth tag (16 bytes) | ciphertext */
  sealed: string;
  keyVersion: number;
}

/** Development keyring (version 1): refused with NODE_ENV=production (config/index.ts). */
export const DEV_CREDENTIAL_KEYS = '1:ZGV2LW9ubHktY3JlZGVudGlhbC1rZXktMzItYnl0ZSE=';

/**
 * Parses `CREDENTIAL_KEYS`: comma-separated `<version>:<base64 of 32 bytes>`, e.g.
 * `1:...,2:...`. Throws a message naming the bad entry (never the key material).
 */
export function parseKeyring(spec: string): CredentialKeyring {
  const keys = new Map<number, Buffer>();
  for (const entry of spec.split(',').map((e) => e.trim()).filter(Boolean)) {
    const match = /^(\d{1,6}):([A-Za-z0-9+/]+=*)$/.exec(entry);
    if (!match) throw new Error(`CREDENTIAL_KEYS: entry ${keys.size + 1} is not <version>:<base64 key>`);
    const version = Number(match[1]);
    const key = Buffer.from(match[2], 'base64');
    if (version < 1) throw new Error('CREDENTIAL_KEYS: versions start at 1');
    if (key.length !== 32) throw new Error(`CREDENTIAL_KEYS: key version ${version} is ${key.length} bytes, not 32`);
    if (keys.has(version)) throw new Error(`CREDENTIAL_KEYS: key version ${version} appears twice`);
    keys.set(version, key);
  }
  if (keys.size === 0) throw new Error('CREDENTIAL_KEYS: no key');
  return { currentVersion: Math.max(...keys.keys()), keys };
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
