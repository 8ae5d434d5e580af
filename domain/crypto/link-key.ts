// The key of one kind of signed link (docs/rules/security.md#keys): `key` signs new links and
// verifies; `legacyKey`, the key such links were signed with before each purpose got its own key,
// only verifies, so links already sent keep working until they expire.

export interface LinkKey {
  key: string;
  legacyKey?: string;
}

/** The keys a presented link is checked against, the current one first. */
export function verifyingKeys(linkKey: LinkKey): string[] {
  return linkKey.legacyKey && linkKey.legacyKey !== linkKey.key ? [linkKey.key, linkKey.legacyKey] : [linkKey.key];
}
