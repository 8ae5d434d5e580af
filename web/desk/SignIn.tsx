// Signing in to the front desk with the platform's own accounts (docs/rules/front-desk.md#sessions):
// e-mail or mobile number and password; the session comes back only as HttpOnly cookies. A login that
// exists in several salons chooses one. The forgotten-password form asks for the reset link.
import { useRef, useState } from 'preact/hooks';
import type { Lang } from '../shared/format';
import { api, plainCall, scheduleRefresh, type AuthUser } from './api';
import { deskError, sentence, tr, type DeskKey } from './i18n';

export interface SignedIn {
  user: AuthUser;
}

function credentialsOf(login: string): { email: string } | { phone: string } {
  return login.includes('@') ? { email: login.trim() } : { phone: login.replace(/\s+/g, '') };
}

export function SignInForm({
  lang,
  salonSlug,
  fixedLogin,
  onSignedIn,
  headingLevel = 2,
}: {
  lang: Lang;
  salonSlug: string | null;
  /** signing in again after the session ended: the same login */
  fixedLogin?: string | null;
  onSignedIn(signedIn: SignedIn): void;
  headingLevel?: 2 | 3;
}) {
  const t = (key: DeskKey, values?: Record<string, string | number>) => tr(lang, key, values);
  const [login, setLogin] = useState(fixedLogin ?? '');
  const [password, setPassword] = useState('');
  const [salons, setSalons] = useState<string[] | null>(null);
  const [salon, setSalon] = useState<string>(salonSlug ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [forgot, setForgot] = useState<'closed' | 'open' | 'sent'>('closed');
  const errorRef = useRef<HTMLParagraphElement>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!login.trim() || !password) {
      setError(t('required'));
      return;
    }
    setBusy(true);
    setError(null);
    const body = { ...credentialsOf(login), password, ...(salon ? { tenantSlug: salon } : {}) };
    const answer = await plainCall(() => api.POST('/auth/cookie-session', { body }));
    setBusy(false);
    if (answer.ok) {
      scheduleRefresh(answer.data.data.expiresIn);
      onSignedIn({ user: answer.data.data.user });
      return;
    }
    if (answer.problem.code === 'LOGIN_TENANT_AMBIGUOUS') {
      const slugs = answer.problem.details.map((d) => d.message.replace(/^one of: /, '')).filter(Boolean);
      setSalons(slugs.length ? slugs : null);
      setSalon(slugs[0] ?? '');
    }
    setError(sentence(deskError(lang, answer.problem.code)));
    errorRef.current?.focus();
  };

  const askForLink = async (event: Event) => {
    event.preventDefault();
    if (!login.includes('@')) {
      setError(t('required'));
      return;
    }
    await plainCall(() => api.POST('/auth/forgot-password', { body: { email: login.trim(), ...(salon ? { tenantSlug: salon } : {}) } }));
    setForgot('sent');
  };

  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  if (forgot !== 'closed')
    return (
      <form class="signin" onSubmit={askForLink} noValidate>
        <Heading>{t('forgotHeading')}</Heading>
        {forgot === 'sent' ? (
          <p role="status">{t('forgotSent')}</p>
        ) : (
          <>
            <label for="forgot-email">{t('email')}</label>
            <input id="forgot-email" type="email" autocomplete="username" value={login} onInput={(e) => setLogin(e.currentTarget.value)} required />
            <button type="submit">{t('forgotSend')}</button>
          </>
        )}
        <p>
          <button type="button" class="link" onClick={() => setForgot('closed')}>
            {t('back')}
          </button>
        </p>
      </form>
    );

  return (
    <form class="signin" onSubmit={submit} noValidate>
      <Heading>{t('signInHeading')}</Heading>
      <label for="signin-login">{t('emailOrPhone')}</label>
      <input
        id="signin-login"
        type="text"
        inputMode="email"
        autocomplete="username"
        value={login}
        readOnly={!!fixedLogin}
        onInput={(e) => setLogin(e.currentTarget.value)}
        required
        aria-invalid={error && !login ? 'true' : undefined}
      />
      <label for="signin-password">{t('password')}</label>
      <input
        id="signin-password"
        type="password"
        autocomplete="current-password"
        value={password}
        onInput={(e) => setPassword(e.currentTarget.value)}
        required
        aria-invalid={error && !password ? 'true' : undefined}
      />
      {salons && (
        <>
          <label for="signin-salon">{t('salonSlug')}</label>
          <p id="signin-salon-hint" class="hint">
            {t('chooseSalon')}
          </p>
          <select id="signin-salon" value={salon} onChange={(e) => setSalon(e.currentTarget.value)} aria-describedby="signin-salon-hint">
            {salons.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </>
      )}
      <p class="error-slot" role="alert" ref={errorRef} tabIndex={-1}>
        {error}
      </p>
      <button type="submit" disabled={busy}>
        {busy ? t('signingIn') : t('signIn')}
      </button>
      {!fixedLogin && (
        <p>
          <button type="button" class="link" onClick={() => setForgot('open')}>
            {t('forgotPassword')}
          </button>
        </p>
      )}
    </form>
  );
}
