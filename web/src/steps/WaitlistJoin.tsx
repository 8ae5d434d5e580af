// Joining the waitlist from a full day, or from a staff member with nothing free ahead
// (docs/rules/booking-page.md#the-waitlist): name, phone and e-mail, POST
// /public/tenants/{slug}/waitlist, then the entry's own page, where the customer sees and leaves it
// (the same page the link in the confirming message opens).
import { useState } from 'preact/hooks';
import { errorMessage, t, type MessageKey } from '../../shared/i18n';
import { formatLocalDate } from '../../shared/format';
import { contactBody, contactProblems } from '../../shared/contact';
import { WAITLIST_MAX_DAYS } from '../../shared/days';
import { api, call, type ApiProblem } from '../api';
import type { Draft } from '../draft';
import type { PageContext } from '../page-context';

type Field = 'name' | 'phone' | 'email';

export function WaitlistJoin({ ctx, draft, fromDate, toDate }: { ctx: PageContext; draft: Draft; fromDate: string; toDate: string }) {
  const { boot, lang, locale } = ctx;
  const [values, setValues] = useState<Record<Field, string>>(() => ({
    name: draft.contact.name || boot.customer?.name || '',
    phone: draft.contact.phone || boot.customer?.phone || '',
    email: draft.contact.email || boot.customer?.email || '',
  }));
  const [errors, setErrors] = useState<Partial<Record<Field, MessageKey>>>({});
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const when = fromDate === toDate ? formatLocalDate(fromDate, locale) : t(lang, 'waitlistNextDays', { days: WAITLIST_MAX_DAYS });

  const submit = async (e: Event) => {
    e.preventDefault();
    const found = contactProblems({ ...values, notes: '' });
    setErrors(found);
    setProblem(null);
    if (Object.keys(found).length) return document.getElementById(`waitlist-${Object.keys(found)[0]}`)?.focus();
    setBusy(true);
    const contact = contactBody({ ...values, notes: '' });
    const joined = await call(() =>
      api.POST('/public/tenants/{slug}/waitlist', {
        params: { path: { slug: boot.slug } },
        body: {
          serviceIds: draft.services,
          resourceId: draft.staff === 'any' ? null : draft.staff,
          fromDate,
          toDate,
          customer: { name: contact.name, phone: contact.phone, email: contact.email },
          language: lang,
        },
      }),
    );
    if (!joined.ok) {
      setBusy(false);
      const named: Partial<Record<Field, MessageKey>> = {};
      for (const d of joined.problem.details) {
        const f = (['name', 'phone', 'email'] as Field[]).find((x) => d.field.endsWith(x));
        if (f) named[f] = f === 'phone' ? 'invalidPhone' : f === 'email' ? 'invalidEmail' : 'required';
      }
      setErrors(named);
      return setProblem(joined.problem);
    }
    const entry = joined.data.data;
    location.assign(`/${encodeURIComponent(boot.slug)}/waitlist/${entry.id}?token=${encodeURIComponent(entry.token)}${lang === 'en' ? '&lang=en' : ''}&new=1`);
  };

  const field = (name: Field, label: MessageKey, attrs: Record<string, string | number | boolean>, hint?: string) => {
    const error = errors[name];
    const describedBy = [hint ? `waitlist-${name}-hint` : null, error ? `waitlist-${name}-error` : null].filter(Boolean).join(' ') || undefined;
    const onInput = (e: Event) => {
      const value = (e.currentTarget as HTMLInputElement).value;
      setValues((v) => ({ ...v, [name]: value }));
      setErrors((x) => ({ ...x, [name]: undefined }));
    };
    const common = { id: `waitlist-${name}`, name, value: values[name], onInput, 'aria-invalid': !!error, 'aria-describedby': describedBy, ...attrs };
    return (
      <div class="field">
        <label for={`waitlist-${name}`}>{t(lang, label)}</label>
        <input {...common} />
        {hint && (
          <p class="hint" id={`waitlist-${name}-hint`}>
            {hint}
          </p>
        )}
        {error && (
          <p class="field-error" id={`waitlist-${name}-error`}>
            {t(lang, error)}
          </p>
        )}
      </div>
    );
  };

  return (
    <section class="waitlist card" aria-labelledby="waitlist-heading">
      <h3 id="waitlist-heading">{t(lang, 'waitlistHeading')}</h3>
      <p>{t(lang, 'waitlistIntro', { when })}</p>
      <form noValidate onSubmit={(e) => void submit(e)}>
        {field('name', 'name', { type: 'text', autocomplete: 'name', required: true, maxLength: 200 })}
        {field(
          'phone',
          'phone',
          { type: 'tel', autocomplete: 'tel', inputMode: 'tel', required: true, maxLength: 32 },
          t(lang, 'phoneHint', { code: boot.salon.phoneCode }),
        )}
        {field('email', 'email', { type: 'email', autocomplete: 'email', maxLength: 254 })}
        <div class="error-slot" role="alert">
          {problem && <p class="error">{errorMessage(lang, problem.code)}</p>}
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy} aria-disabled={busy}>
            {busy ? t(lang, 'waitlistJoining') : t(lang, 'waitlistJoin')}
          </button>
        </div>
      </form>
    </section>
  );
}
