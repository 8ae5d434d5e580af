// Pure rules of the service catalogue (docs/rules/catalogue.md#services, docs/rules/limits.md).

/** The admin form limits a service description to 200 words (docs/rules/limits.md); enforced on the server too. */
export const SERVICE_DESCRIPTION_MAX_WORDS = 200;

export function wordCount(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}
