/**
 * Time freed up (docs/rules/waitlist.md#when-time-frees-up): inside the transaction of the change
 * that freed it, an offer round is opened and its workflow `waitlist-offer:<id>` signalled before
 * commit, like any entity change. A salon with nobody waiting over those dates opens no round.
 * Booking, tenant and resource sit below the waitlist: they call these through their ports
 * (BookingHooks.timeFreed, TenantHooks and ResourceHooks.workingTimeGrew), which the composition
 * root fills with them.
 */
import type { Transaction } from '../../db/db-handle';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { changeEntity } from '../workflow-signals/entity-change';
import { addDays, dayOfWeek, localDayBoundsUtcMs, utcToLocalDate, type LocalDate } from '../time/salon-time.rules';
import { tenantById } from '../tenant/tenant-context';
import type { GrownWorkingTime, WorkingTimeCause } from '../tenant/tenant-hooks';
import type { BookingFreedCause, FreedTime } from '../booking/booking-hooks';
import { lastBookableLocalDate } from '../availability/booking-window.rules';
import { waitlistOfferContract } from './waitlist-events.rules';
import { anyoneWaiting, insertRound, waitingEntriesBetween } from './waitlist.repository';

/** The cause a round records. */
type FreedCause = BookingFreedCause | WorkingTimeCause;

/** A round's window: time a booking gave up, or a salon-local day on which working time grew. */
type FreedInterval = Omit<FreedTime, 'cause'> & { cause: FreedCause };

export async function offerFreedTime(signaller: EntitySignaller, trx: Transaction, freed: FreedTime): Promise<void> {
  // UTC dates a day wider on each side: the salon-local dates lie inside, whatever the time zone
  const first = addDays(utcToLocalDate(freed.start, 'UTC'), -1);
  const last = addDays(utcToLocalDate(freed.end, 'UTC'), 1);
  if (!(await anyoneWaiting(trx, freed.tenantId, first, last))) return;
  await openRound(signaller, trx, freed);
}

async function openRound(signaller: EntitySignaller, trx: Transaction, freed: FreedInterval): Promise<void> {
  await changeEntity(signaller, waitlistOfferContract, {
    write: () =>
      insertRound(trx, { tenantId: freed.tenantId, cause: freed.cause, resourceId: freed.resourceId, windowStart: freed.start, windowEnd: freed.end }),
    event: 'WaitlistTimeFreed',
  });
}

/**
 * A schedule, an override, business hours or time-off changed, so a staff member may work at times
 * they did not before. Each affected date inside the booking window on which someone waits (for
 * that staff member or any) gets a round over the whole salon-local day; what is really free, and
 * suits whom, is decided when the offer is made.
 */
export async function offerGrownWorkingTime(signaller: EntitySignaller, trx: Transaction, grown: GrownWorkingTime, now: Date): Promise<void> {
  const tenant = await tenantById(trx, grown.tenantId);
  const tz = tenant.settings.timezone;
  const today = utcToLocalDate(now, tz);
  const horizon = lastBookableLocalDate(now, tz, tenant.settings.maxBookingDaysInAdvance) ?? addDays(today, 365);
  const from = grown.from && grown.from > today ? grown.from : today;
  const to = grown.to && grown.to < horizon ? grown.to : horizon;
  if (to < from) return;
  const waiting = (await waitingEntriesBetween(trx, grown.tenantId, from, to)).filter(
    (e) => !grown.resourceId || !e.resourceId || e.resourceId === grown.resourceId,
  );
  for (let date = from; date <= to; date = addDays(date, 1)) {
    if (grown.weekdays && !grown.weekdays.includes(dayOfWeek(date))) continue;
    if (!waiting.some((e) => e.fromDate <= date && date <= e.toDate)) continue;
    const day = localDayBoundsUtcMs(date, tz);
    await openRound(signaller, trx, {
      tenantId: grown.tenantId,
      resourceId: grown.resourceId,
      start: new Date(day.start),
      end: new Date(day.end),
      cause: grown.cause,
    });
  }
}
