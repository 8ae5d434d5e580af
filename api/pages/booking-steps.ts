// The server-rendered booking steps (the v1 page, and the v2 page's first view and its fallback
// without JavaScript): plain GET forms from step to step, the contact form posting to
// `/<slug>/book`. Every control has a label; each step is one h2; errors are in role=alert regions.
import { html, type Html } from './html';
import type { SalonView } from './salon';
import type { Catalogue } from './catalogue';
import { stateQuery, type BookingState } from './booking-state';
import { errorMessage, t, type MessageKey } from '../../web/shared/i18n';
import { addDays, formatDuration, formatLocalDate, formatMoney, formatTime, localDateOf, mondayOf, weekOf } from '../../web/shared/format';
import { depositAsksLater, depositFor } from '../../web/shared/deposit';
import { dayBadge, daySentence, dayState, isChoosable, WAITLIST_MAX_DAYS } from '../../web/shared/days';
import { cancellationTerms } from '../../web/shared/terms';
import type { BootData, BootService } from '../../web/shared/boot';

/** Per salon-local date: its free times, and whether someone who does the services works that day. */
export type DayCounts = Map<string, { free: number; working: boolean }>;

export interface Slot {
  start: string;
}

const STEP_COUNT = 4;

function stepHead(view: SalonView, n: number, key: MessageKey): Html {
  return html`<header class="step-head">
    <p class="step-count">${t(view.lang, 'stepOf', { n, total: STEP_COUNT })}</p>
    <h2 id="step-heading">${t(view.lang, key)}</h2>
  </header>`;
}

function hidden(name: string, value: string | null | undefined): Html {
  return value ? html`<input type="hidden" name="${name}" value="${value}" />` : html``;
}

function langField(view: SalonView): Html {
  return html`<input type="hidden" name="lang" value="${view.lang}" />`;
}

function chosen(catalogue: Catalogue, ids: string[]): BootService[] {
  const all = catalogue.services.flatMap((g) => g.services);
  return ids.map((id) => all.find((s) => s.id === id)).filter((s): s is BootService => !!s);
}

/** Step 1: services by category, several allowed. */
export function servicesStep(view: SalonView, catalogue: Catalogue, state: BookingState, error?: boolean): Html {
  const { lang, locale } = view;
  return html`<section class="step" aria-labelledby="step-heading">
    ${stepHead(view, 1, 'stepServices')}
    <form class="services" method="get" action="${view.pagePath}">
      ${langField(view)}<input type="hidden" name="from" value="services" />
      <p class="hint" id="services-hint">${t(lang, 'servicesHint')}</p>
      ${catalogue.services.map(
        (group) =>
          html`<fieldset class="category">
            <legend>${group.category?.name ?? t(lang, 'otherServices')}</legend>
            <ul role="list">
              ${group.services.map(
                (s) =>
                  html`<li class="service">
                    <input
                      type="checkbox"
                      id="svc-${s.id}"
                      name="services"
                      value="${s.id}"
                      ${state.services.includes(s.id) ? html` checked` : ''}${s.description ? html` aria-describedby="svc-${s.id}-d"` : ''}
                    /><label for="svc-${s.id}"
                      ><span class="name">${s.name}</span
                      ><span class="meta">${formatDuration(s.duration, lang)} · ${formatMoney(s.price, s.currency, locale)}</span></label
                    >${s.description ? html`<p class="description" id="svc-${s.id}-d">${s.description}</p>` : ''}
                  </li>`,
              )}
            </ul>
          </fieldset>`,
      )}
      <div class="error-slot" role="alert">${error ? html`<p class="error">${t(lang, 'chooseAtLeastOne')}</p>` : ''}</div>
      <div class="actions"><button type="submit" class="primary">${t(lang, 'next')}</button></div>
    </form>
  </section>`;
}

/** Step 2: anyone, or one person who does every chosen service. */
export function staffStep(view: SalonView, catalogue: Catalogue, state: BookingState): Html {
  const { lang } = view;
  const qualified = catalogue.staff.filter((s) => state.services.every((id) => s.serviceIds.includes(id)));
  const choice = (id: string, name: string, meta: string | null, checked: boolean) =>
    html`<li>
      <input type="radio" id="staff-${id}" name="staff" value="${id}" ${checked ? html` checked` : ''} /><label for="staff-${id}"
        ><span class="name">${name}</span>${meta ? html`<span class="meta">${meta}</span>` : ''}</label
      >
    </li>`;
  return html`<section class="step" aria-labelledby="step-heading">
    ${stepHead(view, 2, 'stepStaff')}
    <form class="staff" method="get" action="${view.pagePath}">
      ${langField(view)}${hidden('services', state.services.join(','))}
      <fieldset>
        <legend class="visually-hidden">${t(lang, 'stepStaff')}</legend>
        <ul role="list" class="choices">
          ${choice('any', t(lang, 'anyStaff'), t(lang, 'anyStaffHint'), !state.staff || state.staff === 'any')}
          ${qualified.map((s) => choice(s.id, s.name, s.jobTitle, state.staff === s.id))}
        </ul>
      </fieldset>
      ${qualified.length === 0 ? html`<p class="hint">${t(lang, 'noStaffForAll')}</p>` : ''}
      <div class="actions">
        <a class="button" href="${view.pagePath}${stateQuery({ services: state.services, step: 'services' })}">${t(lang, 'back')}</a
        ><button type="submit" class="primary">${t(lang, 'next')}</button>
      </div>
    </form>
  </section>`;
}

/** Step 3: a week of days (links: days with free times, and full days, whose waitlist can be joined) and the chosen day's times. */
export function timeStep(
  view: SalonView,
  salon: BootData['salon'],
  today: string,
  state: BookingState & { date: string | null; week: string },
  counts: DayCounts,
  slots: Slot[] | null,
  chosenWorking = false,
): Html {
  const { lang, locale } = view;
  const last = addDays(today, salon.maxBookingDaysInAdvance);
  const base = { services: state.services, staff: state.staff };
  const week = state.week;
  const dayLabel = (date: string) => formatLocalDate(date, locale);
  const days = weekOf(week).map((date) => {
    const { free: count, working } = counts.get(date) ?? { free: 0, working: false };
    const kind = dayState(date, today, last, working, count);
    const label = daySentence(lang, dayLabel(date), kind, count);
    const inner = html`<span class="dow">${formatLocalDate(date, locale, { weekday: 'short' })}</span
      ><span class="dom">${formatLocalDate(date, locale, { day: 'numeric' })}</span><span class="count">${dayBadge(lang, kind, count)}</span>`;
    // the visible abbreviations are the name; the description says the weekday, date and free times in full
    const description = html`<span id="day-${date}" hidden>${label}</span>`;
    if (!isChoosable(kind))
      return html`<li>${description}<span class="day ${kind}" role="link" aria-disabled="true" aria-describedby="day-${date}">${inner}</span></li>`;
    const current = date === state.date;
    return html`<li>
      ${description}<a
        class="day ${kind}${current ? ' chosen' : ''}"
        href="${view.pagePath}${stateQuery({ ...base, week, date })}"
        aria-describedby="day-${date}"
        ${current ? html` aria-current="date"` : ''}
        >${inner}</a
      >
    </li>`;
  });
  const prev = addDays(week, -7);
  const next = addDays(week, 7);
  const nav = (target: string, enabled: boolean, key: MessageKey, arrowFirst: boolean) => {
    const text = arrowFirst ? html`<span aria-hidden="true">‹ </span>${t(lang, key)}` : html`${t(lang, key)}<span aria-hidden="true"> ›</span>`;
    return enabled ? html`<a class="button" href="${view.pagePath}${stateQuery({ ...base, week: target })}">${text}</a>` : html``;
  };
  // the chosen day has no free time though someone works: it is full, and its waitlist can be joined
  const chosenFull = !!state.date && dayState(state.date, today, last, counts.get(state.date)?.working ?? chosenWorking, 0) === 'full';
  const notice = state.notice === 'conflict' && state.date ? html`<p class="notice">${t(lang, 'conflictNotice', { day: dayLabel(state.date) })}</p>` : '';
  const times =
    state.date && slots
      ? html`<form class="times-form" method="get" action="${view.pagePath}">
            ${langField(view)}${hidden('services', state.services.join(','))}${hidden('staff', state.staff)}${hidden('week', week)}${hidden('date', state.date)}
            <fieldset>
              <legend><h3 id="times-heading">${t(lang, 'timesHeading', { day: dayLabel(state.date) })}</h3></legend>
              ${
                slots.length === 0
                  ? html`<p>${t(lang, chosenFull ? 'noTimesDayFull' : 'noTimesDay')}</p>`
                  : html`<ul role="list" class="choices">
                      ${slots.map((s, i) => html`<li><input type="radio" id="time-${i}" name="time" value="${s.start}" ${state.time === s.start ? html` checked` : ''}${i === 0 ? html` required` : ''} /><label for="time-${i}">${formatTime(s.start, salon.timezone, locale)}</label></li>`)}
                    </ul>`
              }
            </fieldset>
            ${slots.length ? html`<div class="actions"><button type="submit" class="primary">${t(lang, 'next')}</button></div>` : ''}
          </form>
          ${slots.length === 0 && chosenFull ? waitlistForm(view, state, { fromDate: state.date, toDate: state.date }) : ''}`
      : html`<p class="hint">${t(lang, 'chooseDay')}</p>`;
  return html`<section class="step" aria-labelledby="step-heading">
    ${stepHead(view, 3, 'stepTime')}
    <p class="tz-note">${t(lang, 'timeZoneNote', { zone: salon.timezone })}</p>
    <div class="notice-slot" role="alert">${notice}</div>
    <div class="week">
      <div class="week-nav">
        ${nav(prev, week > mondayOf(today), 'previousWeek', true)}
        <p class="week-label">
          ${t(lang, 'weekOf', { from: formatLocalDate(week, locale, { day: 'numeric', month: 'long' }), to: formatLocalDate(addDays(week, 6), locale, { day: 'numeric', month: 'long' }) })}
        </p>
        ${nav(next, next <= last, 'nextWeek', false)}
      </div>
      <ul class="days" role="list">
        ${days}
      </ul>
    </div>
    ${times}
    <div class="actions">
      <a class="button" href="${view.pagePath}${stateQuery({ services: state.services, staff: state.staff, step: 'staff' })}">${t(lang, 'back')}</a>
    </div>
  </section>`;
}

export interface ContactValues {
  name: string;
  phone: string;
  email: string;
  notes: string;
}

export interface ContactErrors {
  fields: Partial<Record<keyof ContactValues, string>>;
  /** an API error code to show above the button */
  code?: string;
}

export interface WaitlistWish {
  fromDate: string;
  toDate: string;
}

/**
 * Joining the waitlist from a full day, or from a staff member with nothing free ahead
 * (docs/rules/booking-page.md#the-waitlist): name, phone and e-mail, posted to /<slug>/waitlist.
 */
export function waitlistForm(
  view: SalonView,
  state: Pick<BookingState, 'services' | 'staff'>,
  wish: WaitlistWish,
  values: ContactValues = { name: '', phone: '', email: '', notes: '' },
  errors: ContactErrors = { fields: {} },
): Html {
  const { lang, locale } = view;
  const when = wish.fromDate === wish.toDate ? formatLocalDate(wish.fromDate, locale) : t(lang, 'waitlistNextDays', { days: WAITLIST_MAX_DAYS });
  const field = (name: 'name' | 'phone' | 'email', label: MessageKey, type: string, autocomplete: string, hint?: string) => {
    const error = errors.fields[name];
    const ids = [hint ? `waitlist-${name}-hint` : null, error ? `waitlist-${name}-error` : null].filter(Boolean).join(' ');
    return html`<div class="field">
      <label for="waitlist-${name}">${t(lang, label)}</label
      ><input
        id="waitlist-${name}"
        name="${name}"
        type="${type}"
        autocomplete="${autocomplete}"
        ${name === 'phone' ? html` inputmode="tel"` : ''}${name === 'email' ? '' : html` required`}
        maxlength="${name === 'email' ? 254 : name === 'phone' ? 32 : 200}"
        value="${values[name]}"
        ${error ? html` aria-invalid="true"` : ''}${ids ? html` aria-describedby="${ids}"` : ''}
      />${hint ? html`<p class="hint" id="waitlist-${name}-hint">${hint}</p>` : ''}${error ? html`<p class="field-error" id="waitlist-${name}-error">${error}</p>` : ''}
    </div>`;
  };
  return html`<section class="waitlist card" aria-labelledby="waitlist-heading">
    <h3 id="waitlist-heading">${t(lang, 'waitlistHeading')}</h3>
    <p>${t(lang, 'waitlistIntro', { when })}</p>
    <form method="post" action="/${view.tenant.slug}/waitlist" novalidate>
      ${langField(view)}${hidden('services', state.services.join(','))}${hidden('staff', state.staff)}${hidden('fromDate', wish.fromDate)}${hidden('toDate', wish.toDate)}${hidden('pagePath', view.pagePath)}
      ${field('name', 'name', 'text', 'name')} ${field('phone', 'phone', 'tel', 'tel', t(lang, 'phoneHint', { code: view.phoneCode }))}
      ${field('email', 'email', 'email', 'email')}
      <div class="error-slot" role="alert">${errors.code ? html`<p class="error">${errorMessage(lang, errors.code)}</p>` : ''}</div>
      <div class="actions"><button type="submit" class="primary">${t(lang, 'waitlistJoin')}</button></div>
    </form>
  </section>`;
}

/**
 * Step 4: the contact form, posted to /<slug>/book; the cancellation terms stand above the button. The
 * marketing checkbox starts unticked (docs/rules/personal-data.md#consent); `consent` keeps it ticked on a re-render.
 */
export function contactStep(
  view: SalonView,
  catalogue: Catalogue,
  salon: BootData['salon'],
  state: BookingState,
  values: ContactValues,
  errors: ContactErrors = { fields: {} },
  now = new Date(),
  consent = false,
): Html {
  const { lang, locale } = view;
  const field = (name: keyof ContactValues, label: MessageKey, input: Html, hint?: MessageKey) => {
    const error = errors.fields[name];
    return html`<div class="field">
      <label for="contact-${name}">${t(lang, label)}</label
      >${input}${hint ? html`<p class="hint" id="contact-${name}-hint">${t(lang, hint, { code: view.phoneCode })}</p>` : ''}${error ? html`<p class="field-error" id="contact-${name}-error">${error}</p>` : ''}
    </div>`;
  };
  const described = (name: keyof ContactValues, hint: boolean) => {
    const ids = [hint ? `contact-${name}-hint` : null, errors.fields[name] ? `contact-${name}-error` : null].filter(Boolean).join(' ');
    return ids ? html` aria-describedby="${ids}"` : html``;
  };
  const invalid = (name: keyof ContactValues) => (errors.fields[name] ? html` aria-invalid="true"` : html``);
  const total = chosen(catalogue, state.services).reduce((sum, s) => sum + s.price, 0);
  const deposit = salon.deposit ? depositFor(total, salon.deposit) : 0;
  // a visit further ahead than a reservation lasts: the deposit is asked for later (docs/rules/payments.md#deposits-at-any-distance)
  const later = deposit > 0 && depositAsksLater(salon.deposit, state.time, now);
  const depositText = later
    ? t(lang, 'depositLaterNote', { amount: formatMoney(deposit, salon.currency, locale), hours: salon.deposit?.deadlineHours ?? 48 })
    : t(lang, 'depositNote', { amount: formatMoney(deposit, salon.currency, locale) });
  const slug = view.tenant.slug;
  return html`<section class="step" aria-labelledby="step-heading">
    ${stepHead(view, 4, 'stepContact')}
    <form class="contact" method="post" action="/${slug}/book" novalidate>
      ${langField(view)}${hidden('services', state.services.join(','))}${hidden('staff', state.staff)}${hidden('time', state.time)}${hidden('pagePath', view.pagePath)}
      ${field('name', 'name', html`<input id="contact-name" name="name" type="text" autocomplete="name" required maxlength="200" value="${values.name}" ${invalid('name')}${described('name', false)} />`)}
      ${field('phone', 'phone', html`<input id="contact-phone" name="phone" type="tel" autocomplete="tel" inputmode="tel" required maxlength="32" value="${values.phone}" ${invalid('phone')}${described('phone', true)} />`, 'phoneHint')}
      ${field('email', 'email', html`<input id="contact-email" name="email" type="email" autocomplete="email" maxlength="254" value="${values.email}" ${invalid('email')}${described('email', true)} />`, 'emailHint')}
      ${field('notes', 'notes', html`<textarea id="contact-notes" name="notes" rows="3" maxlength="1000" ${invalid('notes')}${described('notes', false)}>${values.notes}</textarea>`)}
      <div class="field check">
        <input
          id="contact-marketing"
          name="marketingConsent"
          type="checkbox"
          value="yes"
          ${consent ? html` checked` : ''}
          aria-describedby="contact-marketing-hint"
        /><label for="contact-marketing">${t(lang, 'marketingConsent')}</label>
        <p class="hint" id="contact-marketing-hint">${t(lang, 'marketingConsentHint')}</p>
      </div>
      ${deposit ? html`<p class="hint deposit-note">${depositText}</p>` : ''}
      ${state.time ? html`<div class="terms" id="booking-terms">${cancellationTerms({ lang, start: state.time, now, cancellationHours: salon.cancellationHours, deposit, currency: salon.currency, timezone: salon.timezone, locale }).map((line) => html`<p>${line}</p>`)}</div>` : ''}
      <div class="error-slot" role="alert">${errors.code ? html`<p class="error">${errorMessage(lang, errors.code)}</p>` : ''}</div>
      <div class="actions">
        <a
          class="button"
          href="${view.pagePath}${stateQuery({ services: state.services, staff: state.staff, date: state.date ?? (state.time ? localDateOf(state.time, salon.timezone) : null) })}"
          >${t(lang, 'back')}</a
        ><button type="submit" class="primary" ${state.time ? html` aria-describedby="booking-terms"` : ''}>
          ${deposit && !later ? t(lang, 'bookAndPay') : t(lang, 'book')}
        </button>
      </div>
    </form>
  </section>`;
}

/** The choices so far, beside the steps. */
export function summary(view: SalonView, catalogue: Catalogue, salon: BootData['salon'], state: BookingState): Html {
  const services = chosen(catalogue, state.services);
  if (!services.length || !state.staff) return html``;
  const { lang, locale } = view;
  const staff = state.staff === 'any' ? t(lang, 'anyStaff') : (catalogue.staff.find((s) => s.id === state.staff)?.name ?? '');
  const total = services.reduce((sum, s) => sum + s.price, 0);
  // the whole appointment: the services back to back, each to the end of its last phase (processing included)
  const length = services.reduce((sum, s) => sum + s.duration, 0);
  const deposit = salon.deposit ? depositFor(total, salon.deposit) : 0;
  return html`<aside class="summary" aria-labelledby="summary-heading">
    <h2 id="summary-heading">${t(lang, 'summary')}</h2>
    <dl>
      <div>
        <dt>${t(lang, 'services')}</dt>
        <dd>
          <ul role="list">
            ${services.map((s) => html`<li>${s.name} <span class="meta">(${formatDuration(s.duration, lang)}, ${formatMoney(s.price, salon.currency, locale)})</span></li>`)}
          </ul>
        </dd>
      </div>
      <div>
        <dt>${t(lang, 'staffLabel')}</dt>
        <dd>${staff}</dd>
      </div>
      ${
        state.time
          ? html`<div>
              <dt>${t(lang, 'when')}</dt>
              <dd>
                ${t(lang, 'atUntil', { day: formatLocalDate(localDateOf(state.time, salon.timezone), locale), time: formatTime(state.time, salon.timezone, locale), end: formatTime(new Date(new Date(state.time).getTime() + length * 60_000), salon.timezone, locale) })}
              </dd>
            </div>`
          : ''
      }
      ${
        services.length > 1
          ? html`<div>
              <dt>${t(lang, 'duration')}</dt>
              <dd>${formatDuration(length, lang)}</dd>
            </div>`
          : ''
      }
      <div>
        <dt>${t(lang, 'total')}</dt>
        <dd>${formatMoney(total, salon.currency, locale)}</dd>
      </div>
      ${
        deposit
          ? html`<div>
              <dt>${t(lang, 'deposit')}</dt>
              <dd>${formatMoney(deposit, salon.currency, locale)}</dd>
            </div>`
          : ''
      }
    </dl>
  </aside>`;
}
