// The day (docs/rules/front-desk.md#the-day): a column per staff member (STAFF: their own), the
// unassigned bookings, and a column per room or piece of equipment; from here the receptionist
// opens a booking, moves it, books by phone or registers a walk-in. Read again on every committed
// change (live.ts). `desk-day-data` and `desk-day-drawn` (performance marks) bracket the drawing of
// the day once its data is there (npm run bench:desk).
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { addDays, formatLongDay } from '../shared/format';
import { api, call, type DaySchedule } from './api';
import { useDesk } from './context';
import { deskError, sentence } from './i18n';
import { Grid, gridRange, type Column, type MoveRequest } from './Grid';
import { BookingCard } from './BookingCard';
import { NewBooking } from './NewBooking';
import { moveBooking, movableFor } from './moves';
import { minutesOfDay, todayIn } from './time';

export function DayView({
  date,
  live,
  onDate,
  onWeek,
}: {
  date: string;
  live: { tick: number; bookingIds: string[] };
  onDate(date: string): void;
  onWeek(staffId: string): void;
}) {
  const desk = useDesk();
  const { t, tz, locale } = desk;
  const [day, setDay] = useState<DaySchedule | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [creating, setCreating] = useState<'phone' | 'walk-in' | null>(null);
  const [said, setSaid] = useState<{ text: string; alert: boolean } | null>(null);
  const [now, setNow] = useState(() => new Date());
  const loaded = useRef(0);

  const load = async () => {
    const asked = ++loaded.current;
    const answer = await call(() => api.GET('/schedule', { params: { query: { date } } }));
    if (asked !== loaded.current) return;
    if (!answer.ok) return setProblem(sentence(deskError(desk.lang, answer.problem.code)));
    performance.mark('desk-day-data');
    setProblem(null);
    setDay(answer.data.data);
  };

  useEffect(() => {
    setDay(null);
    void load();
  }, [date]);
  // changes that come together (a booking and the notice it caused) read the day once
  useEffect(() => {
    if (!live.tick) return;
    const timer = setTimeout(() => void load(), 150);
    return () => clearTimeout(timer);
  }, [live.tick]);
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  useLayoutEffect(() => {
    if (!day) return;
    requestAnimationFrame(() => {
      performance.mark('desk-day-drawn');
      document.documentElement.dataset.dayDrawn = day.date;
    });
  }, [day]);

  const announce = (text: string, alert = false) => setSaid({ text, alert });

  const onMove = async (request: MoveRequest) => {
    const outcome = await moveBooking(desk, request);
    announce(outcome.text, !outcome.ok);
    void load();
  };

  const columns: Column[] = day
    ? [
        ...day.staff.map((r): Column => ({
          key: r.resourceId,
          title: r.name,
          date,
          resourceId: r.resourceId,
          kind: 'staff',
          working: r.working,
          timeOff: r.timeOff,
          blocks: r.blocks,
        })),
        ...(day.unassigned.length
          ? [
              {
                key: 'unassigned',
                title: t('unassigned'),
                date,
                resourceId: null,
                kind: 'unassigned' as const,
                working: [],
                timeOff: [],
                blocks: day.unassigned,
              },
            ]
          : []),
        ...day.resources.map((r): Column => ({
          key: r.resourceId,
          title: r.name,
          date,
          resourceId: r.resourceId,
          kind: r.type === 'room' ? 'room' : 'equipment',
          working: r.working,
          timeOff: r.timeOff,
          blocks: r.blocks,
        })),
      ]
    : [];
  const today = todayIn(tz);
  const heading = formatLongDay(`${date}T12:00:00Z`, 'UTC', locale);

  return (
    <section aria-labelledby="day-heading" class="day">
      <div class="toolbar">
        <h2 id="day-heading">{t('dayHeading', { day: heading })}</h2>
        <div class="nav-days">
          <button type="button" class="secondary" onClick={() => onDate(addDays(date, -1))}>
            <span aria-hidden="true">‹ </span>
            {t('previousDay')}
          </button>
          <button type="button" class="secondary" onClick={() => onDate(today)} aria-current={date === today ? 'date' : undefined}>
            {t('today')}
          </button>
          <button type="button" class="secondary" onClick={() => onDate(addDays(date, 1))}>
            {t('nextDay')}
            <span aria-hidden="true"> ›</span>
          </button>
          <label class="inline">
            {t('chooseDate')} <input type="date" value={date} onChange={(e) => e.currentTarget.value && onDate(e.currentTarget.value)} />
          </label>
        </div>
        <div class="actions">
          <button type="button" onClick={() => setCreating('phone')}>
            {t('newBooking')}
          </button>
          {desk.salon.settings.walkInEnabled && (
            <button type="button" onClick={() => setCreating('walk-in')}>
              {t('walkIn')}
            </button>
          )}
        </div>
      </div>
      <p class="help">{t('keyboardHelp')}</p>
      <div class={said?.alert ? 'said error' : 'said'} role={said?.alert ? 'alert' : 'status'} aria-live={said?.alert ? 'assertive' : 'polite'}>
        {said?.text}
      </div>
      {problem && <p role="alert">{problem}</p>}
      {!day && !problem && <p>{t('loading')}</p>}
      {day && day.open.length === 0 && <p>{t('closedDay')}</p>}
      {day && (
        <Grid
          label={t('dayHeading', { day: heading })}
          columns={columns}
          range={gridRange(columns, day.open, tz)}
          now={{ date: today, minutes: minutesOfDay(now, tz) }}
          movable={movableFor(desk)}
          onOpen={setOpen}
          onMove={(request) => void onMove(request)}
          announce={(text) => announce(text)}
        />
      )}
      {day && desk.me.role !== 'STAFF' && desk.staff.length > 0 && (
        <p class="week-links">
          {t('navWeek')}:{' '}
          {desk.staff.map((s, i) => (
            <span key={s.id}>
              {i > 0 && ' · '}
              <a
                href={`?view=week&date=${date}&staff=${s.id}`}
                onClick={(e) => {
                  e.preventDefault();
                  onWeek(s.id);
                }}
              >
                {s.name}
              </a>
            </span>
          ))}
        </p>
      )}
      {open && (
        <BookingCard
          bookingId={open}
          live={live}
          onClose={() => setOpen(null)}
          onChanged={(text) => {
            announce(text);
            void load();
          }}
        />
      )}
      {creating && (
        <NewBooking
          kind={creating}
          date={date}
          onClose={() => setCreating(null)}
          onBooked={(text) => {
            setCreating(null);
            announce(text);
            void load();
          }}
        />
      )}
    </section>
  );
}
