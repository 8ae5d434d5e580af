// Step 3: a week of days (a day without free times is disabled; each day button says its weekday,
// date and how many times are free) and the free times of the chosen day. The page opens on the
// first day with a free time (next-available-date). Loading and results are announced politely.
import { useEffect, useState } from 'preact/hooks';
import { errorMessage, freeTimes, t } from '../../shared/i18n';
import { addDays, formatLocalDate, formatTime, mondayOf, weekOf } from '../../shared/format';
import { api, call, type ApiProblem } from '../api';
import type { Draft, Slot } from '../draft';
import type { PageContext } from '../page-context';

type DayState = { status: 'loading' } | { status: 'ok'; slots: Slot[] } | { status: 'error'; problem: ApiProblem };

/** The next-available scan covers the whole booking window (the endpoint looks at most 90 days ahead). */
const MAX_SCAN_DAYS = 90;

export function When({
  ctx,
  draft,
  notice,
  onChange,
  onBack,
  onSlot,
}: {
  ctx: PageContext;
  draft: Draft;
  notice: string | null;
  onChange: (changes: Partial<Draft>) => void;
  onBack: () => void;
  onSlot: (slot: Slot) => void;
}) {
  const { boot, lang, locale } = ctx;
  const today = boot.today;
  const last = addDays(today, boot.salon.maxBookingDaysInAdvance);
  const [days, setDays] = useState<Record<string, DayState>>({});
  const [nothingAhead, setNothingAhead] = useState(false);
  const [failure, setFailure] = useState<ApiProblem | null>(null);
  const serviceId = draft.services.join(',');
  const resourceId = draft.staff === 'any' ? undefined : draft.staff;
  const slug = boot.slug;

  // Opens on the first day with a free time.
  useEffect(() => {
    if (draft.date) return;
    let live = true;
    void call(() =>
      api.POST('/public/tenants/{slug}/availability/next-available-date', {
        params: { path: { slug } },
        body: {
          items: draft.services.map((id) => ({ serviceId: id, resourceId: resourceId ?? null })),
          fromDate: addDays(today, -1),
          maxDaysAhead: Math.min(MAX_SCAN_DAYS, boot.salon.maxBookingDaysInAdvance + 1),
        },
      }),
    ).then((result) => {
      if (!live) return;
      if (!result.ok) return setFailure(result.problem);
      if (result.data.data.date === null) return setNothingAhead(true);
      onChange({ date: result.data.data.date, week: mondayOf(result.data.data.date) });
    });
    return () => {
      live = false;
    };
  }, [draft.date]);

  const week = draft.week ?? (draft.date ? mondayOf(draft.date) : null);

  // Loads the free times of every bookable day of the shown week.
  useEffect(() => {
    if (!week) return;
    let live = true;
    const wanted = weekOf(week).filter((d) => d >= today && d <= last && !days[d]);
    if (wanted.length === 0) return;
    setDays((now) => ({ ...now, ...Object.fromEntries(wanted.map((d) => [d, { status: 'loading' } as DayState])) }));
    for (const date of wanted) {
      void call(() => api.GET('/public/tenants/{slug}/availability', { params: { path: { slug }, query: { serviceId, resourceId, date } } })).then((result) => {
        if (!live) return;
        setDays((now) => ({ ...now, [date]: result.ok ? { status: 'ok', slots: result.data.data.slots } : { status: 'error', problem: result.problem } }));
      });
    }
    return () => {
      live = false;
    };
  }, [week]);

  const chosen = draft.date ? days[draft.date] : undefined;
  const chosenLabel = draft.date ? formatLocalDate(draft.date, locale) : '';
  const announcement = !draft.date
    ? nothingAhead || failure
      ? ''
      : t(lang, 'loadingTimes')
    : !chosen || chosen.status === 'loading'
      ? t(lang, 'loadingTimes')
      : chosen.status === 'ok'
        ? t(lang, 'timesLoaded', { free: freeTimes(lang, chosen.slots.length), day: chosenLabel })
        : '';
  const dayError = Object.values(days).find((d): d is Extract<DayState, { status: 'error' }> => d.status === 'error');
  const problem = failure ?? dayError?.problem ?? null;

  return (
    <div class="when">
      <p class="tz-note">{ctx.browserZone ? t(lang, 'timeZoneDiffers', { zone: boot.salon.timezone, browserZone: ctx.browserZone }) : t(lang, 'timeZoneNote', { zone: boot.salon.timezone })}</p>
      <div class="notice-slot" role="alert">
        {notice && <p class="notice">{notice}</p>}
        {problem && <p class="error">{errorMessage(lang, problem.code)}</p>}
      </div>
      <p class="visually-hidden" aria-live="polite" id="times-status">
        {announcement}
      </p>
      {nothingAhead && <p class="hint">{t(lang, 'noTimesAhead', { days: boot.salon.maxBookingDaysInAdvance })}</p>}
      {week && (
        <div class="week">
          <div class="week-nav">
            <button type="button" disabled={week <= mondayOf(today)} onClick={() => onChange({ week: addDays(week, -7) })}>
              <span aria-hidden="true">‹ </span>
              {t(lang, 'previousWeek')}
            </button>
            <p class="week-label">
              {t(lang, 'weekOf', { from: formatLocalDate(week, locale, { day: 'numeric', month: 'long' }), to: formatLocalDate(addDays(week, 6), locale, { day: 'numeric', month: 'long' }) })}
            </p>
            <button type="button" disabled={addDays(week, 7) > last} onClick={() => onChange({ week: addDays(week, 7) })}>
              {t(lang, 'nextWeek')}
              <span aria-hidden="true"> ›</span>
            </button>
          </div>
          <ul class="days" role="list">
            {weekOf(week).map((date) => {
              const state = days[date];
              const inWindow = date >= today && date <= last;
              const count = state?.status === 'ok' ? state.slots.length : 0;
              const free = !inWindow || state?.status === 'ok' || state?.status === 'error' ? freeTimes(lang, count) : t(lang, 'loading');
              return (
                <li key={date}>
                  {/* the visible abbreviations are the name; the description says the weekday, date and free times in full */}
                  <span id={`day-${date}`} hidden>
                    {t(lang, 'dayButton', { day: formatLocalDate(date, locale), free })}
                  </span>
                  <button type="button" class="day" aria-pressed={date === draft.date} aria-describedby={`day-${date}`} disabled={count === 0} onClick={() => onChange({ date, slot: null })}>
                    <span class="dow">{formatLocalDate(date, locale, { weekday: 'short' })}</span>
                    <span class="dom">{formatLocalDate(date, locale, { day: 'numeric', month: 'short' })}</span>
                    <span class="count">{state?.status === 'loading' ? '…' : count}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      )}
      {draft.date && (
        <div class="times" role="group" aria-labelledby="times-heading">
          <h3 id="times-heading">{t(lang, 'timesHeading', { day: chosenLabel })}</h3>
          {chosen?.status === 'ok' && chosen.slots.length === 0 && <p>{t(lang, 'noTimesDay')}</p>}
          {chosen?.status === 'ok' && chosen.slots.length > 0 && (
            <ul role="list">
              {chosen.slots.map((slot) => (
                <li key={slot.start}>
                  <button type="button" class="time" aria-pressed={draft.slot?.start === slot.start} onClick={() => onSlot(slot)}>
                    {formatTime(slot.start, boot.salon.timezone, locale)}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {!draft.date && week && <p class="hint">{t(lang, 'chooseDay')}</p>}
      <div class="actions">
        <button type="button" onClick={onBack}>
          {t(lang, 'back')}
        </button>
      </div>
    </div>
  );
}
