// Reads an API query string as a form does (docs/rules/errors.md#request-bodies): a `+` is a space
// (`?search=salong+nordlys`), and an optional filter sent empty (`?search=`) is the filter left out.
// The contract's validator reads the raw query string and refuses a `+` as an unencoded reserved
// character and an empty value as a value, so the query is rewritten here, before it looks: `+`
// as `%20`, and empty pairs dropped. Webhooks keep their query as sent (a provider's callback signs
// its values, empty ones included).
import type { RequestHandler } from 'express';

const UNTOUCHED = /^\/api\/webhooks(\/|$)/;

/** The query string with `+` written as `%20` and the pairs without a value left out. */
export function formQuery(query: string): string {
  return query
    .split('&')
    .filter((pair) => pair !== '' && !pair.endsWith('=') && pair.includes('='))
    .map((pair) => pair.replace(/\+/g, '%20'))
    .join('&');
}

export function queryAsText(basePath: string): RequestHandler {
  return (req, _res, next) => {
    const at = req.url.indexOf('?');
    if (at < 0 || !(req.url.startsWith(`${basePath}/`) || req.url.startsWith(`${basePath}?`)) || UNTOUCHED.test(req.url)) return next();
    const query = req.url.slice(at + 1);
    const rewritten = formQuery(query);
    if (rewritten !== query) {
      const path = req.url.slice(0, at);
      req.url = rewritten ? `${path}?${rewritten}` : path;
      req.originalUrl = req.url;
    }
    next();
  };
}
