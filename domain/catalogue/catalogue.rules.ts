// Pure rules of the service catalogue (spec 2.3, 8).

/** The admin form limits a service description to 200 words (spec 8); enforced on the server too. */
export const SERVICE_DESCRIPTION_MAX_WORDS = 200;

export function wordCount(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}
