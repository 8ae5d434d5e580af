// CREDENTIAL_KEYS: the versioned master keys that seal provider credentials at rest
// (docs/rules/auth.md#provider-credentials-at-rest; domain/crypto/credential-cipher.ts seals and opens).
// Parsed and checked once at start-up like every other variable.

export interface CredentialKeyring {
  /** the highest version: new seals use it */
  currentVersion: number;
  keys: ReadonlyMap<number, Buffer>;
}

/** Development keyring (version 1): refused with NODE_ENV=production (config/index.ts). */
export const DEV_CREDENTIAL_KEYS = '1:ZGV2LW9ubHktY3JlZGVudGlhbC1rZXktMzItYnl0ZSE=';

/**
 * Parses `CREDENTIAL_KEYS`: comma-separated `<version>:<base64 of 32 bytes>`, e.g.
 * `1:...,2:...`. Throws a message naming the bad entry (never the key material).
 */
export function parseKeyring(spec: string): CredentialKeyring {
  const keys = new Map<number, Buffer>();
  for (const entry of spec
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
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
