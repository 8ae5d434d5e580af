// The customer's choices so far, beside the steps, each with a way back to change it.
import { t } from '../shared/i18n';
import { formatDuration, formatLocalDate, formatMoney, formatTime, localDateOf } from '../shared/format';
import type { Draft, Step } from './draft';
import type { PageContext } from './page-context';
import { chosenServices, depositOf, totalOf } from './selection';

export function Summary({ ctx, draft, onEdit }: { ctx: PageContext; draft: Draft; onEdit: (step: Step) => void }) {
  const { boot, lang, locale } = ctx;
  const services = chosenServices(boot, draft.services);
  if (draft.step === 'services' || services.length === 0) return null;
  const currency = boot.salon.currency;
  const staff = draft.staff === 'any' ? t(lang, 'anyStaff') : boot.staff.find((s) => s.id === draft.staff)?.name ?? '';
  const deposit = depositOf(boot, draft.services);
  const zone = ctx.browserZone ? ` (${boot.salon.timezone})` : '';
  return (
    <aside class="summary" aria-labelledby="summary-heading">
      <h2 id="summary-heading">{t(lang, 'summary')}</h2>
      <dl>
        <div>
          <dt>{t(lang, 'services')}</dt>
          <dd>
            <ul role="list">
              {services.map((s) => (
                <li key={s.id}>
                  {s.name} <span class="meta">({formatDuration(s.duration, lang)}, {formatMoney(s.price, currency, locale)})</span>
                </li>
              ))}
            </ul>
            <button type="button" class="link" onClick={() => onEdit('services')}>
              {t(lang, 'change')}
              <span class="visually-hidden"> {t(lang, 'services').toLowerCase()}</span>
            </button>
          </dd>
        </div>
        {draft.step !== 'staff' && (
          <div>
            <dt>{t(lang, 'stepStaff')}</dt>
            <dd>
              {staff}{' '}
              <button type="button" class="link" onClick={() => onEdit('staff')}>
                {t(lang, 'change')}
                <span class="visually-hidden"> {t(lang, 'stepStaff').toLowerCase()}</span>
              </button>
            </dd>
          </div>
        )}
        {draft.slot && (
          <div>
            <dt>{t(lang, 'when')}</dt>
            <dd>
              {t(lang, 'at', { day: formatLocalDate(localDateOf(draft.slot.start, boot.salon.timezone), locale), time: formatTime(draft.slot.start, boot.salon.timezone, locale) })}
              {zone}{' '}
              <button type="button" class="link" onClick={() => onEdit('time')}>
                {t(lang, 'change')}
                <span class="visually-hidden"> {t(lang, 'when').toLowerCase()}</span>
              </button>
            </dd>
          </div>
        )}
        <div>
          <dt>{t(lang, 'total')}</dt>
          <dd>{formatMoney(totalOf(services), currency, locale)}</dd>
        </div>
        {!!deposit && (
          <div>
            <dt>{t(lang, 'deposit')}</dt>
            <dd>{formatMoney(deposit, currency, locale)}</dd>
          </div>
        )}
      </dl>
    </aside>
  );
}
