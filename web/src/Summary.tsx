// The customer's choices so far, beside the steps, each with a way back to change it.
import type { ComponentChildren } from 'preact';
import { t, type MessageKey } from '../shared/i18n';
import { formatDuration, formatLocalDate, formatMoney, formatTime, localDateOf } from '../shared/format';
import type { Draft, Step } from './draft';
import type { PageContext } from './page-context';
import { chosenServices, depositOf, totalOf } from './selection';

export function Summary({ ctx, draft, onEdit }: { ctx: PageContext; draft: Draft; onEdit: (step: Step) => void }) {
  const { boot, lang, locale } = ctx;
  const services = chosenServices(boot, draft.services);
  if (draft.step === 'services' || services.length === 0) return null;
  const currency = boot.salon.currency;
  const staff = draft.staff === 'any' ? t(lang, 'anyStaff') : (boot.staff.find((s) => s.id === draft.staff)?.name ?? '');
  const deposit = depositOf(boot, draft.services);
  const zone = ctx.browserZone ? ` (${boot.salon.timezone})` : '';
  /** One line of the summary: a term, what was chosen, and a way back to that step. */
  const row = (term: MessageKey, value: ComponentChildren, edit?: Step) => (
    <div>
      <dt>{t(lang, term)}</dt>
      <dd>
        {value}
        {edit && (
          <>
            {' '}
            <button type="button" class="link" onClick={() => onEdit(edit)}>
              {t(lang, 'change')}
              <span class="visually-hidden"> {t(lang, term).toLowerCase()}</span>
            </button>
          </>
        )}
      </dd>
    </div>
  );
  // the whole appointment: from the start to the end of its last phase (processing included)
  const zoneOf = boot.salon.timezone;
  const when = draft.slot
    ? t(lang, 'atUntil', {
        day: formatLocalDate(localDateOf(draft.slot.start, zoneOf), locale),
        time: formatTime(draft.slot.start, zoneOf, locale),
        end: formatTime(draft.slot.end, zoneOf, locale),
      }) + zone
    : null;
  const length = services.reduce((sum, s) => sum + s.duration, 0);
  return (
    <aside class="summary" aria-labelledby="summary-heading">
      <h2 id="summary-heading">{t(lang, 'summary')}</h2>
      <dl>
        {row(
          'services',
          <ul role="list">
            {services.map((s) => (
              <li key={s.id}>
                {s.name}{' '}
                <span class="meta">
                  ({formatDuration(s.duration, lang)}, {formatMoney(s.price, currency, locale)})
                </span>
              </li>
            ))}
          </ul>,
          'services',
        )}
        {draft.step !== 'staff' && row('staffLabel', staff, 'staff')}
        {when && row('when', when, 'time')}
        {services.length > 1 && row('duration', formatDuration(length, lang))}
        {row('total', formatMoney(totalOf(services), currency, locale))}
        {!!deposit && row('deposit', formatMoney(deposit, currency, locale))}
      </dl>
    </aside>
  );
}
