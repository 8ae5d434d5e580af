// The one redaction of a request's address for the logs (docs/rules/security.md#secrets-in-logs-and-messages),
// shared by the api's error handler and the customer pages': a manage link's token never reaches a log.
/**
 * Query parameters whose values are secrets (a manage link's token, a reset token, a signature, a
 * code): a failed request's log line keeps their names, never their values
 * (docs/rules/security.md#secrets-in-logs-and-messages).
 */
const SECRET_PARAMS = /token|code|sig|secret|password|nonce|key/i;
/** ... and those that may hold a name, a phone or an e-mail (a search, a guest's proof): ids only in logs (docs/rules/personal-data.md#what-is-kept). */
const PERSONAL_PARAMS = /search|phone|email|name|number|msg|text|q$/i;

/** The URL with the value of every secret-looking or personal query parameter replaced by `[redacted]`. */
export function redactedUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const params = new URLSearchParams(url.slice(at + 1));
  for (const name of new Set(params.keys())) if (SECRET_PARAMS.test(name) || PERSONAL_PARAMS.test(name)) params.set(name, '[redacted]');
  return `${url.slice(0, at)}?${params.toString().replace(/%5Bredacted%5D/g, '[redacted]')}`;
}
