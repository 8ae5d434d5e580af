// Step 4: name, phone (as typed: the platform reads it in the salon's country and says at the field
// when it is no number), optional e-mail and message; a signed-in customer may apply a voucher. The
// cancellation terms stand above "Bestill" (shared/terms.ts). Booking: POST /public/tenants/{slug}/bookings; with a
// deposit the customer goes on to the provider's hosted checkout, otherwise to the confirmation.
// A time taken meanwhile (BOOKING_CONFLICT) sends the customer back to fresh times of that day.
import { useState } from 'preact/hooks';
import { errorMessage, t, type MessageKey } from '../../shared/i18n';
import { formatLocalDate, formatMoney, localDateOf } from '../../shared/format';
import { cancellationTerms } from '../../shared/terms';
import { contactBody, contactProblems } from '../../shared/contact';
import { BOOKING_PROOF_COOKIE, BOOKING_PROOF_MAX_AGE_S } from '../../shared/boot';
import { api, call, type ApiProblem } from '../api';
import type { Contact, Draft } from '../draft';
import type { PageContext } from '../page-context';
import { depositOf } from '../selection';
import { depositAsksLater } from '../../shared/deposit';

type Field = keyof Contact;

/** Field errors the API named (`customer.phone`, ...), as our fields. */
function fieldOf(detail: { field: string }): Field | undefined {
  return (['name', 'phone', 'email', 'notes'] as Field[]).find((f) => detail.field.endsWith(f));
}

export function ContactStep({
  ctx,
  draft,
  onChange,
  onBack,
  onConflict,
}: {
  ctx: PageContext;
  draft: Draft;
  onChange: (changes: Partial<Draft>) => void;
  onBack: () => void;
  onConflict: (message: string) => void;
}) {
  const { boot, lang, locale } = ctx;
  const customer = boot.customer;
  const [contact, setContact] = useState<Contact>(() => ({
    ...draft.contact,
    name: draft.contact.name || customer?.name || '',
    phone: draft.contact.phone || customer?.phone || '',
    email: draft.contact.email || customer?.email || '',
  }));
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, MessageKey>>>({});
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [busy, setBusy] = useState(false);
  // marketing, separate from the messages about this booking: unticked unless the customer ticks it (docs/rules/personal-data.md#consent)
  const [marketingConsent, setMarketingConsent] = useState(false);
  const [voucher, setVoucher] = useState(draft.voucher);
  const [voucherResult, setVoucherResult] = useState<{ ok: true; text: string } | { ok: false; code: string } | null>(null);
  const slot = draft.slot!;
  const depositAmount = depositOf(boot, draft.services);
  // a visit further ahead than a reservation lasts: the deposit is asked for later (docs/rules/payments.md#deposits-at-any-distance)
  const depositLater = !!depositAmount && depositAsksLater(boot.salon.deposit, slot.start, new Date());

  const set = (field: Field) => (e: Event) => {
    const value = (e.currentTarget as HTMLInputElement).value;
    setContact((c) => ({ ...c, [field]: value }));
    setFieldErrors((f) => ({ ...f, [field]: undefined }));
  };
  // "anyone" is the platform's to decide: unassigned, or at a salon that assigns every booking the
  // staff member the free time was offered with (the placement, docs/rules/availability.md#unassigned-bookings)
  const items = draft.services.map((serviceId) => ({ serviceId, resourceId: draft.staff !== 'any' ? draft.staff : null }));

  const applyVoucher = async () => {
    const code = voucher.trim();
    if (!code) return;
    const result = await call(() => api.POST('/public/tenants/{slug}/vouchers/preview', { params: { path: { slug: boot.slug } }, body: { code, items } }));
    if (!result.ok) return setVoucherResult({ ok: false, code: result.problem.code });
    const v = result.data.data;
    const currency = boot.salon.currency;
    onChange({ voucher: code });
    setVoucherResult({
      ok: true,
      text: t(lang, 'voucherApplied', {
        code: v.code,
        discount: formatMoney(v.discountApplied, currency, locale),
        payable: formatMoney(v.payable, currency, locale),
      }),
    });
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    const found = contactProblems(contact);
    setFieldErrors(found);
    setProblem(null);
    onChange({ contact });
    if (Object.keys(found).length > 0) {
      document.getElementById(`contact-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    setBusy(true);
    const code = voucherResult?.ok ? voucher.trim() : '';
    const created = await call(() =>
      api.POST('/public/tenants/{slug}/bookings', {
        params: { path: { slug: boot.slug } },
        body: {
          startTime: slot.start,
          items,
          customer: contactBody(contact),
          language: lang,
          ...(code ? { voucherCode: code } : {}),
          ...(marketingConsent ? { marketingConsent: true } : {}),
        },
      }),
    );
    if (!created.ok) {
      setBusy(false);
      if (created.problem.code === 'BOOKING_CONFLICT') {
        return onConflict(t(lang, 'conflictNotice', { day: formatLocalDate(localDateOf(slot.start, boot.salon.timezone), locale) }));
      }
      // the platform names the field it refused (customer.phone: no number of the salon's country)
      const named: Partial<Record<Field, MessageKey>> = {};
      for (const d of created.problem.details) {
        const f = fieldOf(d);
        if (f) named[f] = f === 'phone' ? 'invalidPhone' : f === 'email' ? 'invalidEmail' : 'required';
      }
      setFieldErrors(named);
      setProblem(created.problem);
      return;
    }
    const booking = created.data.data;
    const proof = `${BOOKING_PROOF_COOKIE}${booking.id}=${encodeURIComponent(booking.manageToken)}; path=/; max-age=${BOOKING_PROOF_MAX_AGE_S}; samesite=lax`;
    document.cookie = location.protocol === 'https:' ? `${proof}; secure` : proof;
    const manage = `/${boot.slug}/bookings/${booking.id}?token=${encodeURIComponent(booking.manageToken)}&new=1`;
    if (booking.paymentRequired) {
      const payment = await call(() =>
        api.GET('/public/tenants/{slug}/bookings/{id}/payment', {
          params: { path: { slug: boot.slug, id: booking.id }, query: { token: booking.manageToken } },
        }),
      );
      if (payment.ok && payment.data.data.redirectUrl) return location.assign(payment.data.data.redirectUrl);
    }
    location.assign(manage);
  };

  /** One labelled control with its hint and its error, both tied to it (aria-describedby). */
  const field = (name: Field, label: MessageKey, attrs: Record<string, string | number | boolean>, hint?: MessageKey) => {
    const error = fieldErrors[name];
    const errorText = error ? t(lang, error) : null;
    const describedBy = [hint ? `contact-${name}-hint` : null, error ? `contact-${name}-error` : null].filter(Boolean).join(' ') || undefined;
    const common = {
      id: `contact-${name}`,
      name,
      value: contact[name],
      onInput: set(name),
      'aria-invalid': !!error,
      'aria-describedby': describedBy,
      ...attrs,
    };
    return (
      <div class="field">
        <label for={`contact-${name}`}>{t(lang, label)}</label>
        {name === 'notes' ? <textarea rows={3} {...common} /> : <input {...common} />}
        {hint && (
          <p class="hint" id={`contact-${name}-hint`}>
            {t(lang, hint, { code: boot.salon.phoneCode })}
          </p>
        )}
        {errorText && (
          <p class="field-error" id={`contact-${name}-error`}>
            {errorText}
          </p>
        )}
      </div>
    );
  };

  return (
    <form class="contact" noValidate onSubmit={submit}>
      {field('name', 'name', { autocomplete: 'name', required: true, maxLength: 200 })}
      {field('phone', 'phone', { type: 'tel', autocomplete: 'tel', inputMode: 'tel', required: true, maxLength: 32 }, 'phoneHint')}
      {field('email', 'email', { type: 'email', autocomplete: 'email', maxLength: 254 }, 'emailHint')}
      {field('notes', 'notes', { maxLength: 1000 })}
      <div class="field check">
        <input
          id="contact-marketing"
          name="marketingConsent"
          type="checkbox"
          checked={marketingConsent}
          onChange={(e) => setMarketingConsent((e.currentTarget as HTMLInputElement).checked)}
          aria-describedby="contact-marketing-hint"
        />
        <label for="contact-marketing">{t(lang, 'marketingConsent')}</label>
        <p class="hint" id="contact-marketing-hint">
          {t(lang, 'marketingConsentHint')}
        </p>
      </div>
      {customer && (
        <div class="field voucher">
          <label for="contact-voucher">{t(lang, 'voucher')}</label>
          <div class="inline">
            <input
              id="contact-voucher"
              name="voucher"
              autocomplete="off"
              maxLength={40}
              value={voucher}
              onInput={(e) => setVoucher((e.currentTarget as HTMLInputElement).value)}
              aria-describedby="voucher-result"
            />
            <button type="button" onClick={() => void applyVoucher()}>
              {t(lang, 'applyVoucher')}
            </button>
          </div>
          <p id="voucher-result" class={voucherResult?.ok === false ? 'field-error' : 'hint'} aria-live="polite">
            {voucherResult ? (voucherResult.ok ? voucherResult.text : errorMessage(lang, voucherResult.code)) : ''}
          </p>
        </div>
      )}
      {!!depositAmount && (
        <p class="hint deposit-note">
          {depositLater
            ? t(lang, 'depositLaterNote', { amount: formatMoney(depositAmount, boot.salon.currency, locale), hours: boot.salon.deposit?.deadlineHours ?? 48 })
            : t(lang, 'depositNote', { amount: formatMoney(depositAmount, boot.salon.currency, locale) })}
        </p>
      )}
      {/* what cancelling will cost, before the customer books (docs/rules/booking-page.md#the-flow) */}
      <div class="terms" id="booking-terms">
        {cancellationTerms({
          lang,
          start: slot.start,
          now: new Date(),
          cancellationHours: boot.salon.cancellationHours,
          deposit: depositAmount ?? 0,
          currency: boot.salon.currency,
          timezone: boot.salon.timezone,
          locale,
        }).map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
      <div class="error-slot" role="alert">
        {problem && <p class="error">{errorMessage(lang, problem.code)}</p>}
      </div>
      <div class="actions">
        <button type="button" onClick={onBack}>
          {t(lang, 'back')}
        </button>
        <button type="submit" class="primary" disabled={busy} aria-disabled={busy} aria-describedby="booking-terms">
          {busy ? t(lang, 'booking') : depositAmount && !depositLater ? t(lang, 'bookAndPay') : t(lang, 'book')}
        </button>
      </div>
    </form>
  );
}
