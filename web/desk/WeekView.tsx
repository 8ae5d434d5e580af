// A staff member's week (docs/rules/front-desk.md#the-day): seven days of the day's schedule, a
// column each, the same blocks, shading and moves as the day (a block dragged to another day moves
// to that day).
import { useEffect, useState } from 'preact/hooks';
import { addDays, formatLocalDate, mondayOf, weekOf } from '../shared/format';
import { api, call, type DaySchedule } from './api';
import { useDesk } from './context';
import { deskError, sentence } from './i18n';
import { Grid, gridRange, type Column, type MoveRequest } from './Grid';
import { BookingCard } from './BookingCard';
import { moveBooking, movableFor } from './moves';
import { minutesOfDay, todayIn } from './time';

export function WeekView({
  date,
  staffId,
  live,
  onDate,
  onStaff,
  onDay,
}: {
  date: string;
  staffId: string | null;
  live: { tick: number; bookingIds: string[] };
  onDate(date: string): void;
  onStaff(staffId: string): void;
  onDay(date: string): void;
}) {
  const desk = useDesk();
  const { t, tz, locale } = desk;
  const days = weekOf(mondayOf(date));
  const [week, setWeek] = useState<DaySchedule[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [said, setSaid] = useState<{ text: string; alert: boolean } | null>(null);

  const load = async () => {
    const answers = await Promise.all(days.map((d) => call(() => api.GET('/schedule', { params: { query: { date: d } } }))));
    const failed = answers.find((a) => !a.ok);
    if (failed && !failed.ok) return setProblem(sentence(deskError(desk.lang, failed.problem.code)));
    setProblem(null);
    setWeek(answers.map((a) => (a.ok ? a.data.data : null)).filter((d): d is DaySchedule => d !== null));
  };
  useEffect(() => {
    setWeek(null);
    void load();
  }, [days[0], staffId]);
  // changes that come together read the week once (seven days of the schedule)
  useEffect(() => {
    if (!live.tick) return;
    const timer = setTimeout(() => void load(), 150);
    return () => clearTimeout(timer);
  }, [live.tick]);

  const staff = desk.staff.find((s) => s.id === staffId);
  const columns: Column[] = (week ?? []).map((d) => {
    const row = d.staff.find((r) => r.resourceId === staffId);
    return {
      key: d.date,
      title: formatLocalDate(d.date, locale, { weekday: 'short', day: 'numeric', month: 'short' }),
      date: d.date,
      resourceId: staffId,
      kind: 'day',
      working: row?.working ?? [],
      timeOff: row?.timeOff ?? [],
      blocks: row?.blocks ?? [],
    };
  });
  const onMove = async (request: MoveRequest) => {
    const outcome = await moveBooking(desk, request);
    setSaid({ text: outcome.text, alert: !outcome.ok });
    void load();
  };
  const heading = t('weekHeading', {
    staff: staff?.name ?? '',
    from: formatLocalDate(days[0], locale, { day: 'numeric', month: 'long' }),
    to: formatLocalDate(days[6], locale, { day: 'numeric', month: 'long' }),
  });

  return (
    <section aria-labelledby="week-heading" class="week">
      <div class="toolbar">
        <h2 id="week-heading">{heading}</h2>
        <div class="nav-days">
          <button type="button" class="secondary" onClick={() => onDate(addDays(days[0], -7))}>
            <span aria-hidden="true">‹ </span>
            {t('previousWeek')}
          </button>
          <button type="button" class="secondary" onClick={() => onDate(todayIn(tz))}>
            {t('today')}
          </button>
          <button type="button" class="secondary" onClick={() => onDate(addDays(days[0], 7))}>
            {t('nextWeek')}
            <span aria-hidden="true"> ›</span>
          </button>
          {desk.me.role !== 'STAFF' && (
            <label class="inline">
              {t('weekOf')}{' '}
              <select value={staffId ?? ''} onChange={(e) => onStaff(e.currentTarget.value)}>
                {desk.staff.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
      </div>
      <p class="help">{t('keyboardHelp')}</p>
      <div class={said?.alert ? 'said error' : 'said'} role={said?.alert ? 'alert' : 'status'}>
        {said?.text}
      </div>
      {problem && <p role="alert">{problem}</p>}
      {!week && !problem && <p>{t('loading')}</p>}
      {week && (
        <Grid
          label={heading}
          columns={columns}
          range={gridRange(columns, [], tz)}
          now={{ date: todayIn(tz), minutes: minutesOfDay(new Date(), tz) }}
          movable={movableFor(desk)}
          onOpen={setOpen}
          onMove={(request) => void onMove(request)}
          announce={(text) => setSaid({ text, alert: false })}
        />
      )}
      <p class="week-links">
        {days.map((d, i) => (
          <span key={d}>
            {i > 0 && ' · '}
            <a
              href={`?view=day&date=${d}`}
              onClick={(e) => {
                e.preventDefault();
                onDay(d);
              }}
            >
              {formatLocalDate(d, locale, { weekday: 'long', day: 'numeric' })}
            </a>
          </span>
        ))}
      </p>
      {open && <BookingCard bookingId={open} live={live} onClose={() => setOpen(null)} onChanged={() => void load()} />}
    </section>
  );
}
