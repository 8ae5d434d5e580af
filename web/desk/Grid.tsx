// The calendar grid of the day and the week (docs/rules/front-desk.md#the-day): a column per staff
// member, room or day; hours down the side in the salon's zone; closed time shaded, time-off marked;
// each booking one block (its phases inside: processing drawn open, buffers hatched), a line at the
// current time. A block is a button: click or Enter opens the booking; drag it, or press M and use
// the arrow keys, to move it to another time or column (Enter saves, Esc cancels).
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ScheduleBlock } from './api';
import { useDesk } from './context';
import { clock, hhmm, minutesOn, timeRange } from './time';
import type { DeskKey } from './i18n';

export interface Column {
  key: string;
  title: string;
  /** the salon-local date the column shows */
  date: string;
  /** the staff member, room or piece of equipment; null: the unassigned bookings */
  resourceId: string | null;
  kind: 'staff' | 'room' | 'equipment' | 'unassigned' | 'day';
  working: { start: string; end: string }[];
  timeOff: { start: string; end: string }[];
  blocks: ScheduleBlock[];
}

/** One booking (or hold) in one column: its blocks drawn as one. */
export interface Item {
  key: string;
  bookingId: string | null;
  start: number;
  end: number;
  startIso: string;
  endIso: string;
  segments: { kind: string; start: number; end: number; startIso: string; endIso: string }[];
  block: ScheduleBlock;
  services: string[];
  lane: number;
}

export interface MoveRequest {
  item: Item;
  from: Column;
  to: Column;
  /** minutes the booking moves on the clock (and whole days between the columns' dates) */
  minutes: number;
}

interface Moving {
  item: Item;
  from: number;
  to: number;
  minutes: number;
  by: 'pointer' | 'keys';
}

/** Pixels per minute of the grid. */
const PPM = 1.4;

function itemsOf(column: Column, tz: string): { items: Item[]; lanes: number } {
  const groups = new Map<string, ScheduleBlock[]>();
  for (const b of column.blocks) {
    const key = b.bookingId ?? `hold-${b.waitlistRoundId}`;
    groups.set(key, [...(groups.get(key) ?? []), b]);
  }
  const items: Item[] = [...groups.entries()].map(([key, blocks]) => {
    const sorted = [...blocks].sort((a, b) => a.startTime.localeCompare(b.startTime));
    const segments = sorted.map((b) => ({
      kind: b.kind,
      start: minutesOn(b.startTime, column.date, tz),
      end: minutesOn(b.endTime, column.date, tz),
      startIso: b.startTime,
      endIso: b.endTime,
    }));
    const endIso = sorted.reduce((latest, b) => (b.endTime > latest ? b.endTime : latest), sorted[0].endTime);
    return {
      key,
      bookingId: sorted[0].bookingId,
      start: Math.min(...segments.map((s) => s.start)),
      end: Math.max(...segments.map((s) => s.end)),
      startIso: sorted[0].startTime,
      endIso,
      segments,
      block: sorted.find((b) => b.kind === 'WORK') ?? sorted[0],
      services: [...new Set(sorted.map((b) => b.serviceName).filter((n): n is string => !!n))],
      lane: 0,
    };
  });
  items.sort((a, b) => a.start - b.start || b.end - a.end);
  // side by side where they overlap (a booking inside another's processing time)
  const laneEnds: number[] = [];
  for (const item of items) {
    let lane = laneEnds.findIndex((end) => end <= item.start);
    if (lane < 0) lane = laneEnds.length;
    laneEnds[lane] = item.end;
    item.lane = lane;
  }
  return { items, lanes: Math.max(1, laneEnds.length) };
}

/** The hours the grid spans: the salon's hours, every working time and every booking, in whole hours (08-18 when the day has none). */
export function gridRange(columns: Column[], open: { start: string; end: string }[], tz: string): { from: number; to: number } {
  const marks: number[] = [];
  for (const c of columns) {
    for (const r of [...open, ...c.working]) marks.push(minutesOn(r.start, c.date, tz), minutesOn(r.end, c.date, tz));
    for (const b of c.blocks) marks.push(minutesOn(b.startTime, c.date, tz), minutesOn(b.endTime, c.date, tz));
  }
  if (!marks.length) return { from: 8 * 60, to: 18 * 60 };
  return { from: Math.floor(Math.min(...marks) / 60) * 60, to: Math.min(24 * 60, Math.ceil(Math.max(...marks) / 60) * 60) };
}

export function Grid({
  label,
  columns,
  range,
  now,
  movable,
  onOpen,
  onMove,
  announce,
}: {
  label: string;
  columns: Column[];
  range: { from: number; to: number };
  /** minutes of the current time on `now.date`, when the grid shows that date */
  now: { date: string; minutes: number } | null;
  /** which columns a booking may be moved into from a column */
  movable(from: Column, to: Column): boolean;
  onOpen(bookingId: string): void;
  onMove(request: MoveRequest): void;
  announce(text: string): void;
}) {
  const desk = useDesk();
  const { t, tz, locale, slot } = desk;
  const height = (range.to - range.from) * PPM;
  const hours: number[] = [];
  for (let m = range.from; m < range.to; m += 60) hours.push(m);
  const laid = columns.map((c) => itemsOf(c, tz));

  // a move in progress, by pointer or keyboard: where the block would land
  const [moving, setMovingState] = useState<Moving | null>(null);
  // the move as it is now, for the window's listeners (a state update lands with the next render)
  const movingNow = useRef<Moving | null>(null);
  const setMoving = (m: Moving | null) => {
    movingNow.current = m;
    setMovingState(m);
  };
  const pointer = useRef<{ item: Item; col: number; x: number; y: number; dragged: boolean; id: number } | null>(null);
  const suppressClick = useRef(false);
  const columnsRef = useRef<HTMLDivElement>(null);

  const staffName = (c: Column) => c.title;
  const describeTarget = (item: Item, to: Column, minutes: number) => {
    const start = new Date(
      new Date(item.startIso).getTime() + (minutes + dayShift(columns[laid.findIndex((l) => l.items.includes(item))]?.date, to.date)) * 60_000,
    );
    return t('moveMode', { customer: item.block.customer?.name ?? t('noCustomer'), time: clock(start, tz, locale), staff: staffName(to) });
  };

  const columnAt = (x: number, y: number): number | null => {
    const el = document.elementFromPoint(x, y)?.closest<HTMLElement>('[data-col]');
    return el ? Number(el.dataset.col) : null;
  };

  // the pointer's listeners are the window's, set once; they read the grid as it is now
  const latest = useRef({ columns, movable, onMove, slot });
  latest.current = { columns, movable, onMove, slot };
  useEffect(() => {
    const move = (e: PointerEvent) => {
      const { columns, movable, slot } = latest.current;
      const p = pointer.current;
      if (!p || e.pointerId !== p.id) return;
      const dx = e.clientX - p.x;
      const dy = e.clientY - p.y;
      if (!p.dragged && Math.abs(dx) + Math.abs(dy) < 6) return;
      p.dragged = true;
      const minutes = Math.round(dy / PPM / slot) * slot;
      const target = columnAt(e.clientX, e.clientY);
      const to = target !== null && movable(columns[p.col], columns[target]) ? target : p.col;
      setMoving({ item: p.item, from: p.col, to, minutes, by: 'pointer' });
    };
    const up = (e: PointerEvent) => {
      const { columns, onMove } = latest.current;
      const p = pointer.current;
      if (!p || e.pointerId !== p.id) return;
      pointer.current = null;
      if (!p.dragged) return;
      // the click that follows the drop is no click on the block
      suppressClick.current = true;
      setTimeout(() => (suppressClick.current = false), 0);
      const m = movingNow.current;
      setMoving(null);
      if (m && (m.minutes !== 0 || m.to !== m.from)) onMove({ item: m.item, from: columns[m.from], to: columns[m.to], minutes: m.minutes });
    };
    const cancel = (e: PointerEvent) => {
      if (pointer.current?.id === e.pointerId) {
        pointer.current = null;
        setMoving(null);
      }
    };
    addEventListener('pointermove', move);
    addEventListener('pointerup', up);
    addEventListener('pointercancel', cancel);
    return () => {
      removeEventListener('pointermove', move);
      removeEventListener('pointerup', up);
      removeEventListener('pointercancel', cancel);
    };
  }, []);

  const keyMove = (e: KeyboardEvent, item: Item, col: number) => {
    const current = moving && moving.by === 'keys' && moving.item.key === item.key ? moving : null;
    if (!current) {
      if ((e.key === 'm' || e.key === 'M') && item.bookingId) {
        e.preventDefault();
        const next = { item, from: col, to: col, minutes: 0, by: 'keys' as const };
        setMoving(next);
        announce(describeTarget(item, columns[col], 0));
      }
      return;
    }
    let { to, minutes } = current;
    if (e.key === 'ArrowUp') minutes -= slot;
    else if (e.key === 'ArrowDown') minutes += slot;
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      const step = e.key === 'ArrowLeft' ? -1 : 1;
      for (let c = to + step; c >= 0 && c < columns.length; c += step) {
        if (movable(columns[current.from], columns[c])) {
          to = c;
          break;
        }
      }
    } else if (e.key === 'Enter') {
      e.preventDefault();
      setMoving(null);
      if (minutes !== 0 || to !== current.from) onMove({ item, from: columns[current.from], to: columns[to], minutes });
      else announce(t('moveCancelled'));
      return;
    } else if (e.key === 'Escape' || e.key === 'Tab') {
      if (e.key === 'Escape') e.preventDefault();
      setMoving(null);
      announce(t('moveCancelled'));
      return;
    } else return;
    e.preventDefault();
    setMoving({ ...current, to, minutes });
    announce(describeTarget(item, columns[to], minutes));
  };

  const statusText = (item: Item, staffColumn: boolean): string => {
    const b = item.block;
    if (!b.bookingId) return t('hold');
    const parts = [t(`status${b.status ?? 'CONFIRMED'}` as DeskKey)];
    if (b.booking?.waitingFor) parts.push(t(`waiting${b.booking.waitingFor}` as DeskKey));
    if (b.status === 'PENDING' || b.status === 'CONFIRMED') parts.push(b.promisedAt ? t('customerPromised') : t('customerNotPromised'));
    if (b.booking?.depositStatus) parts.push(t('depositLabel', { status: depositText(t, b.booking.depositStatus) }));
    if (staffColumn)
      for (const s of item.segments)
        if (s.kind === 'PROCESSING') parts.push(t('processingFree', { from: clock(s.startIso, tz, locale), to: clock(s.endIso, tz, locale) }));
    return parts.join(', ');
  };

  return (
    <div class="grid-scroll" role="region" aria-label={label} tabIndex={0}>
      <div class="grid" style={{ '--ppm': String(PPM) } as Record<string, string>}>
        <div class="axis" aria-hidden="true">
          <div class="col-head" />
          <div class="lane" style={{ height: `${height}px` }}>
            {hours.map((m) => (
              <span key={m} class="hour" style={{ top: `${(m - range.from) * PPM}px` }}>
                {hhmm(m)}
              </span>
            ))}
          </div>
        </div>
        <div class="columns" ref={columnsRef}>
          {columns.map((column, ci) => {
            const { items, lanes } = laid[ci];
            const headingId = `col-${column.key}`;
            const ranges = (list: { start: string; end: string }[]) => list.map((r) => timeRange(r.start, r.end, tz, locale)).join(', ');
            const summary = [
              column.working.length ? t('working', { ranges: ranges(column.working) }) : t('notWorking'),
              column.timeOff.length ? t('timeOff', { ranges: ranges(column.timeOff) }) : '',
            ]
              .filter(Boolean)
              .join('; ');
            const target = moving && moving.to === ci ? moving : null;
            return (
              <section key={column.key} class={`col ${column.kind}${target ? ' drop' : ''}`} aria-labelledby={headingId} data-col={ci}>
                <div class="col-head">
                  <h3 id={headingId}>{column.title}</h3>
                  {column.kind !== 'unassigned' && <p class="hours">{summary}</p>}
                </div>
                <div class={column.kind === 'unassigned' ? 'lane open-all' : 'lane'} style={{ height: `${height}px` }}>
                  {column.kind !== 'unassigned' &&
                    column.working.map((r) => (
                      <span
                        key={r.start}
                        class="open"
                        aria-hidden="true"
                        style={{
                          top: `${(minutesOn(r.start, column.date, tz) - range.from) * PPM}px`,
                          height: `${(minutesOn(r.end, column.date, tz) - minutesOn(r.start, column.date, tz)) * PPM}px`,
                        }}
                      />
                    ))}
                  {column.timeOff.map((r) => (
                    <span
                      key={`off-${r.start}`}
                      class="off"
                      aria-hidden="true"
                      style={{
                        top: `${(Math.max(range.from, minutesOn(r.start, column.date, tz)) - range.from) * PPM}px`,
                        height: `${(Math.min(range.to, minutesOn(r.end, column.date, tz)) - Math.max(range.from, minutesOn(r.start, column.date, tz))) * PPM}px`,
                      }}
                    />
                  ))}
                  {now && now.date === column.date && now.minutes >= range.from && now.minutes <= range.to && (
                    <span class="now" style={{ top: `${(now.minutes - range.from) * PPM}px` }} aria-hidden="true" />
                  )}
                  <ul class="blocks">
                    {items.map((item) => {
                      const b = item.block;
                      const lifted = moving?.item.key === item.key && moving.from === ci;
                      // the visible text first (the button's name starts with it), then what the eye reads from the colours
                      const detail = t('blockDetail', {
                        from: clock(item.startIso, tz, locale),
                        to: clock(item.endIso, tz, locale),
                        status: statusText(item, column.kind === 'staff' || column.kind === 'day'),
                      });
                      return (
                        <li
                          key={item.key}
                          class={`block s-${b.status ?? 'HOLD'}${b.booking?.waitingFor ? ` w-${b.booking.waitingFor}` : ''}${lifted ? ' lifted' : ''}`}
                          style={{
                            top: `${(item.start - range.from) * PPM}px`,
                            height: `${Math.max(18, (item.end - item.start) * PPM)}px`,
                            left: `${(item.lane / lanes) * 100}%`,
                            width: `${100 / lanes}%`,
                          }}
                        >
                          {item.segments.map((s, si) => (
                            <span
                              key={si}
                              class={`seg ${s.kind}`}
                              aria-hidden="true"
                              style={{ top: `${(s.start - item.start) * PPM}px`, height: `${(s.end - s.start) * PPM}px` }}
                            />
                          ))}
                          {b.bookingId ? (
                            <button
                              type="button"
                              data-booking={b.bookingId}
                              aria-pressed={lifted && moving?.by === 'keys' ? 'true' : undefined}
                              onPointerDown={(e) => {
                                if (e.button !== 0 || !(e.currentTarget as HTMLElement).isConnected) return;
                                pointer.current = { item, col: ci, x: e.clientX, y: e.clientY, dragged: false, id: e.pointerId };
                              }}
                              onClick={() => {
                                if (suppressClick.current) {
                                  suppressClick.current = false;
                                  return;
                                }
                                if (moving?.by === 'keys') return;
                                onOpen(b.bookingId!);
                              }}
                              onKeyDown={(e) => keyMove(e, item, ci)}
                            >
                              <span class="time">{`${clock(item.startIso, tz, locale)} `}</span>
                              <span class="who">{`${b.customer?.name ?? t('noCustomer')} `}</span>
                              <span class="what">{item.services.join(', ')}</span>
                              {b.booking?.waitingFor && (
                                <span class="flag" aria-hidden="true">
                                  {t(`flag${b.booking.waitingFor}` as DeskKey)}
                                </span>
                              )}
                              {(b.booking?.depositStatus && !b.booking.waitingFor) || unpromised(b) ? (
                                <span class="marks" aria-hidden="true">
                                  {unpromised(b) && <span class="mark">{t('markUnpromised')}</span>}
                                  {b.booking?.depositStatus && !b.booking.waitingFor && (
                                    <span class="mark">{t('markDeposit', { status: depositText(t, b.booking.depositStatus) })}</span>
                                  )}
                                </span>
                              ) : null}
                              <span class="sr-only">{detail}</span>
                            </button>
                          ) : (
                            <span class="hold-label">{t('hold')}</span>
                          )}
                        </li>
                      );
                    })}
                  </ul>
                  {target && (
                    <span
                      class="ghost"
                      aria-hidden="true"
                      style={{
                        top: `${(target.item.start + target.minutes - range.from) * PPM}px`,
                        height: `${(target.item.end - target.item.start) * PPM}px`,
                      }}
                    >
                      {hhmm(target.item.start + target.minutes)}
                    </span>
                  )}
                </div>
              </section>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** Minutes between the midnights of two salon-local dates (whole days). */
export function dayShift(from: string | undefined, to: string): number {
  if (!from || from === to) return 0;
  return Math.round((Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)) / 60_000);
}

/** A booking still ahead that the customer has not confirmed (docs/rules/reminders.md#confirming). */
function unpromised(b: ScheduleBlock): boolean {
  return (b.status === 'PENDING' || b.status === 'CONFIRMED') && !b.promisedAt && !!b.booking && Date.parse(b.booking.startTime) > Date.now();
}

export function depositText(t: (key: DeskKey) => string, status: string): string {
  return t(`deposit${status}` as DeskKey);
}
