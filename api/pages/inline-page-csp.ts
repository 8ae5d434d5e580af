// The Content-Security-Policy of the small self-contained pages (/reset-password,
// /customer-sign-in; docs/rules/security.md#browsers): nothing loads or runs but the page's own inline
// script and style, allowed by their SHA-256, and it talks to the api (and to `connect`) only. An
// injected script, style or form has no hash and runs nowhere.
import crypto from 'node:crypto';

function hashOf(source: string): string {
  return `'sha256-${crypto.createHash('sha256').update(source, 'utf8').digest('base64')}'`;
}

/** The inline `<script>` and `<style>` bodies of `html`, exactly as a browser hashes them. */
function inlineBodies(html: string, tag: 'script' | 'style'): string[] {
  return [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => m[1]);
}

/** The policy for `html` (computed once per page text), connecting to `connect` besides 'self'. */
export function inlinePageCsp(html: string, connect: string[] = []): string {
  const scripts = inlineBodies(html, 'script').map(hashOf).join(' ');
  const styles = inlineBodies(html, 'style').map(hashOf).join(' ');
  return [
    "default-src 'none'",
    `script-src ${scripts || "'none'"}`,
    `style-src ${styles || "'none'"}`,
    `connect-src ${["'self'", ...connect].join(' ')}`,
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}
