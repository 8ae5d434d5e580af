// Step 3: a week of days and the free times of the chosen day. Each day button says its weekday,
// date and what the day is (free times, full, closed, past); a full day can be chosen to join its
// waitlist, as can the coming weeks when nothing is free ahead. The page opens on the first day with
// a free time (next-available-date); another week shows no day chosen until one is. The days are one
// Tab stop and so are the times: the arrow keys move within them (a roving tabindex). Loading and
// results are announced politely.
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorMessage, t } from '../../shared/i18n';
import { addDays, formatLocalDate, formatTime, mondayOf, weekOf } from '../../shared/format';
import { dayBadge, daySentence, dayState, dayStateText, isChoosable, WAITLIST_MAX_DAYS, type DayState } from '../../shared/days';
import { api, call, type ApiProblem } from '../api';
import type { Draft, Slot } from '../draft';
import type { PageContext } from '../page-context';
import { WaitlistJoin } from './WaitlistJoin';

type Loaded = { status: 'loading' } | { status: 'ok'; slots: Slot[]; working: boolean } | { status: 'error'; problem: ApiProblem };

/** The next-available scan covers the whole booking window (the endpoint looks at most 90 days ahead). */
const MAX_SCAN_DAYS = 90;

/** Where an arrow key moves within a list of `count` (a grid of `columns`), or null for other keys. */
function moveBy(key: string, index: number, count: number, columns: number): number | null {
  const next = { ArrowRight: index + 1, ArrowLeft: index - 1, ArrowDown: index + columns, ArrowUp: index - columns, Home: 0, End: count - 1 }[key];
  return next === undefined ? null : Math.max(0, Math.min(count - 1, next));
}

/** Arrow keys move the focus between the buttons of `list` (those not disabled); returns whether the key was taken. */
function rove(event: KeyboardEvent, list: HTMLElement | null, columns: number): boolean {
  if (!list) return false;
  const buttons = [...list.querySelectorAll<HTMLButtonElement>('button:not([disabled])')];
  const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
  if (index < 0) return false;
  const next = moveBy(event.key, index, buttons.length, columns);
  if (next === null) return false;
  event.preventDefault();
  buttons[next].focus();
  return true;
}

/** How many time buttons stand on one row (for ArrowUp and ArrowDown). */
function columnsOf(list: HTMLElement | null): number {
  const items = list ? ([...list.children] as HTMLElement[]) : [];
  if (items.length < 2) return 1;
  const top = items[0].offsetTop;
  const row = items.findIndex((item) => item.offsetTop !== top);
  return row < 0 ? items.length : row;
}

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
  const [days, setDays] = useState<Record<string, Loaded>>({});
  const [nothingAhead, setNothingAhead] = useState(false);
  const [failure, setFailure] = useState<ApiProblem | null>(null);
  const daysRef = useRef<HTMLUListElement>(null);
  const timesRef = useRef<HTMLUListElement>(null);
  const serviceId = draft.services.join(',');
  const resourceId = draft.staff === 'any' ? undefined : draft.staff;
  const slug = boot.slug;

  // Opens on the first day with a free time (not when a week was chosen: it shows no day until one is).
  useEffect(() => {
    if (draft.date || draft.week) return;
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
  }, [draft.date, draft.week]);

  const week = draft.week ?? (draft.date ? mondayOf(draft.date) : null);

  // Loads the free times of every bookable day of the shown week.
  useEffect(() => {
    if (!week) return;
    let live = true;
    const wanted = weekOf(week).filter((d) => d >= today && d <= last && !days[d]);
    if (wanted.length === 0) return;
    setDays((now) => ({ ...now, ...Object.fromEntries(wanted.map((d) => [d, { status: 'loading' } as Loaded])) }));
    for (const date of wanted) {
      void call(() =>
        api.GET('/public/tenants/{slug}/availability', { params: { path: { slug }, query: { serviceIds: serviceId, resourceIds: resourceId, date } } }),
      ).then((result) => {
        if (!live) return;
        setDays((now) => ({
          ...now,
          [date]: result.ok ? { status: 'ok', slots: result.data.data.slots, working: result.data.data.working } : { status: 'error', problem: result.problem },
        }));
      });
    }
    return () => {
      live = false;
    };
  }, [week]);

  const stateOf = (date: string): { state: DayState | 'loading'; free: number } => {
    const loaded = days[date];
    const free = loaded?.status === 'ok' ? loaded.slots.length : 0;
    const state = dayState(date, today, last, loaded?.status === 'ok' && loaded.working, free);
    // a day of the window whose answer has not come yet is loading, not closed
    if (date >= today && date <= last && (!loaded || loaded.status === 'loading')) return { state: 'loading', free: 0 };
    return { state, free };
  };

  const chosen = draft.date ? days[draft.date] : undefined;
  const chosenState = draft.date ? stateOf(draft.date).state : null;
  const chosenLabel = draft.date ? formatLocalDate(draft.date, locale) : '';
  const announcement = !draft.date
    ? nothingAhead || failure || draft.week
      ? ''
      : t(lang, 'loadingTimes')
    : !chosen || chosen.status === 'loading'
      ? t(lang, 'loadingTimes')
      : chosen.status === 'ok'
        ? t(lang, 'timesLoaded', {
            free: dayStateText(lang, chosenState === 'loading' || !chosenState ? 'free' : chosenState, chosen.slots.length),
            day: chosenLabel,
          })
        : '';
  const dayError = Object.values(days).find((d): d is Extract<Loaded, { status: 'error' }> => d.status === 'error');
  const problem = failure ?? dayError?.problem ?? null;
  // the one day button in the Tab order: the chosen day, else the first that can be chosen
  const weekDays = week ? weekOf(week) : [];
  const tabDay = weekDays.find((d) => d === draft.date) ?? weekDays.find((d) => isChoosable(stateOf(d).state as DayState));
  const tabTime = chosen?.status === 'ok' ? (chosen.slots.find((s) => s.start === draft.slot?.start) ?? chosen.slots[0])?.start : undefined;

  return (
    <div class="when">
      <p class="tz-note">
        {ctx.browserZone
          ? t(lang, 'timeZoneDiffers', { zone: boot.salon.timezone, browserZone: ctx.browserZone })
          : t(lang, 'timeZoneNote', { zone: boot.salon.timezone })}
      </p>
      <div class="notice-slot" role="alert">
        {notice && <p class="notice">{notice}</p>}
        {problem && <p class="error">{errorMessage(lang, problem.code)}</p>}
      </div>
      <p class="visually-hidden" aria-live="polite" id="times-status">
        {announcement}
      </p>
      {nothingAhead && (
        <>
          <p class="hint">{t(lang, 'noTimesAhead', { days: boot.salon.maxBookingDaysInAdvance })}</p>
          <WaitlistJoin ctx={ctx} draft={draft} fromDate={today} toDate={addDays(today, Math.min(WAITLIST_MAX_DAYS, boot.salon.maxBookingDaysInAdvance))} />
        </>
      )}
      {week && (
        <div class="week">
          <div class="week-nav">
            <button type="button" disabled={week <= mondayOf(today)} onClick={() => onChange({ week: addDays(week, -7), date: null, slot: null })}>
              <span aria-hidden="true">‹ </span>
              {t(lang, 'previousWeek')}
            </button>
            <p class="week-label">
              {t(lang, 'weekOf', {
                from: formatLocalDate(week, locale, { day: 'numeric', month: 'long' }),
                to: formatLocalDate(addDays(week, 6), locale, { day: 'numeric', month: 'long' }),
              })}
            </p>
            <button type="button" disabled={addDays(week, 7) > last} onClick={() => onChange({ week: addDays(week, 7), date: null, slot: null })}>
              {t(lang, 'nextWeek')}
              <span aria-hidden="true"> ›</span>
            </button>
          </div>
          <ul class="days" role="list" ref={daysRef} onKeyDown={(e) => rove(e, daysRef.current, 1)}>
            {weekDays.map((date) => {
              const { state, free } = stateOf(date);
              const day = formatLocalDate(date, locale);
              return (
                <li key={date}>
                  {/* the visible abbreviations are the name; the description says the weekday, date and what the day is in full */}
                  <span id={`day-${date}`} hidden>
                    {state === 'loading' ? t(lang, 'dayButton', { day, free: t(lang, 'loading') }) : daySentence(lang, day, state, free)}
                  </span>
                  <button
                    type="button"
                    class={`day ${state}`}
                    aria-pressed={date === draft.date}
                    aria-describedby={`day-${date}`}
                    disabled={state !== 'free' && state !== 'full'}
                    tabIndex={date === tabDay ? 0 : -1}
                    onClick={() => onChange({ date, slot: null })}
                  >
                    <span class="dow">{formatLocalDate(date, locale, { weekday: 'short' })}</span>
                    <span class="dom">{formatLocalDate(date, locale, { day: 'numeric' })}</span>
                    <span class="count">{state === 'loading' ? '…' : dayBadge(lang, state, free)}</span>
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
          {chosen?.status === 'ok' && chosen.slots.length === 0 && <p>{t(lang, chosenState === 'full' ? 'noTimesDayFull' : 'noTimesDay')}</p>}
          {chosen?.status === 'ok' && chosen.slots.length > 0 && (
            <ul role="list" ref={timesRef} onKeyDown={(e) => rove(e, timesRef.current, columnsOf(timesRef.current))}>
              {chosen.slots.map((slot) => (
                <li key={slot.start}>
                  <button
                    type="button"
                    class="time"
                    aria-pressed={draft.slot?.start === slot.start}
                    tabIndex={slot.start === tabTime ? 0 : -1}
                    onClick={() => onSlot(slot)}
                  >
                    {formatTime(slot.start, boot.salon.timezone, locale)}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {chosen?.status === 'ok' && chosen.slots.length === 0 && chosenState === 'full' && (
            <WaitlistJoin ctx={ctx} draft={draft} fromDate={draft.date} toDate={draft.date} />
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
