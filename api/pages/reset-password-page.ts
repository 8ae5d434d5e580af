// GET /reset-password?token=...: the page the password-reset e-mail links to. A minimal form (no
// build step, no framework) that posts the new password to POST /api/auth/reset-password.
import type { RequestHandler } from 'express';
import { inlinePageCsp } from './inline-page-csp';

const PAGE = `<!doctype html>
<html lang="nb">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Nytt passord</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 26rem; margin: 4rem auto; padding: 0 1rem; }
  label, input, button { display: block; width: 100%; box-sizing: border-box; }
  input { margin: .3rem 0 1rem; padding: .5rem; font-size: 1rem; }
  button { padding: .6rem; font-size: 1rem; }
  #status { margin-top: 1rem; }
</style>
</head>
<body>
<h1>Velg nytt passord</h1>
<form id="reset">
  <label for="password">Nytt passord (minst 12 tegn)</label>
  <input id="password" name="password" type="password" minlength="12" required autocomplete="new-password">
  <label for="repeat">Gjenta passordet</label>
  <input id="repeat" name="repeat" type="password" minlength="12" required autocomplete="new-password">
  <button type="submit">Lagre passord</button>
</form>
<p id="status" role="status"></p>
<script>
  const token = new URLSearchParams(location.search).get('token') || '';
  const status = document.getElementById('status');
  if (!token) status.textContent = 'Lenken mangler kode. Be om en ny e-post for tilbakestilling.';
  document.getElementById('reset').addEventListener('submit', async (event) => {
    event.preventDefault();
    const password = document.getElementById('password').value;
    if (password !== document.getElementById('repeat').value) { status.textContent = 'Passordene er ikke like.'; return; }
    const res = await fetch('/api/auth/reset-password', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password }),
    });
    const body = await res.json().catch(() => ({}));
    status.textContent = res.ok ? 'Passordet er endret. Du kan nå logge inn.' : 'Det gikk ikke: ' + ((body.error && body.error.message) || res.status);
  });
</script>
</body>
</html>
`;

export function resetPasswordPage(): RequestHandler {
  // the reset token is in this page's address: only its own script runs, and nothing is loaded from elsewhere
  const csp = inlinePageCsp(PAGE);
  return (_req, res) => {
    res.set({ 'content-security-policy': csp, 'cache-control': 'no-store' }).type('html').send(PAGE);
  };
}
