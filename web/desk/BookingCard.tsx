// A booking's card (docs/rules/front-desk.md#a-bookings-card): the customer (phone, notes, visits),
// the services, the price, the deposit and payment, who did what; a button for exactly each status
// the booking may move to now (its nextStatuses), cancelling with the refund preview and a reason,
// the customer's confirmation by phone, self-pick of an unassigned booking, and moving it with a
// time picker fed by the free times (its own time counts as free). Refusals say why in words.
import { useEffect, useState } from 'preact/hooks';
import { formatDayTime, formatLongDay, formatMoney, formatTime, localDateOf } from '../shared/format';
import { api, call, type Booking, type BookingStatus, type Schemas } from './api';
import { useDesk } from './context';
import { Dialog } from './Dialog';
import { deskError, sentence, type DeskKey } from './i18n';
import { depositText } from './Grid';

type Audit = Schemas['BookingAuditEntry'];
type TenantCustomer = Schemas['TenantCustomer'];
type Payment = Schemas['Payment'];
type Preview = Schemas['BookingCancelPreview'];

interface Loaded {
  booking: Booking;
  audit: Audit[];
  customer: { phone: string | null; email: string | null } | null;
  tenantCustomer: TenantCustomer | null;
  payments: Payment[];
}

export function BookingCard({
  bookingId,
  live,
  onClose,
  onChanged,
}: {
  bookingId: string;
  live: { tick: number; bookingIds: string[] };
  onClose(): void;
  onChanged(text: string): void;
}) {
  const desk = useDesk();
  const { t, tz, locale, currency } = desk;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [panel, setPanel] = useState<'cancel' | 'move' | null>(null);

  const load = async () => {
    const [booking, audit] = await Promise.all([
      call(() => api.GET('/bookings/{id}', { params: { path: { id: bookingId } } })),
      call(() => api.GET('/bookings/{id}/audit-log', { params: { path: { id: bookingId }, query: { limit: 100 } } })),
    ]);
    if (!booking.ok) return setProblem(sentence(deskError(desk.lang, booking.problem.code)));
    const b = booking.data.data;
    // the salon's record of the customer carries their contact too: one call less
    const [tenantCustomer, payments] = await Promise.all([
      b.customerId ? call(() => api.GET('/tenant-customers', { params: { query: { customerId: b.customerId!, limit: 1 } } })) : null,
      b.paymentMode === 'ONLINE' || b.depositStatus ? call(() => api.GET('/admin/payments/by-booking/{bookingId}', { params: { path: { bookingId } } })) : null,
    ]);
    const record = tenantCustomer?.ok ? (tenantCustomer.data.data[0] ?? null) : null;
    setLoaded({
      booking: b,
      audit: audit.ok ? audit.data.data : [],
      customer: b.contact ? { phone: b.contact.phone, email: b.contact.email } : record ? { phone: record.customer.phone, email: record.customer.email } : null,
      tenantCustomer: record,
      payments: payments?.ok ? payments.data.data : [],
    });
  };

  useEffect(() => {
    void load();
  }, [bookingId]);
  // another desk, or the customer, changed it
  useEffect(() => {
    if (live.tick && (live.bookingIds.includes(bookingId) || live.bookingIds.length === 0)) void load();
  }, [live.tick]);

  const act = async (run: () => Promise<{ ok: boolean; problem?: { code: string } }>, done: string) => {
    setBusy(true);
    setProblem(null);
    const answer = await run();
    setBusy(false);
    if (!answer.ok) {
      setProblem(sentence(deskError(desk.lang, answer.problem?.code)));
      return;
    }
    setPanel(null);
    onChanged(done);
    await load();
  };

  const b = loaded?.booking;
  const title = b ? t('cardHeading', { time: formatDayTime(b.startTime, tz, desk.lang, locale) }) : t('loading');
  const staffName = (id: string | null) => (id ? (desk.staff.find((s) => s.id === id)?.name ?? '') : t('unassigned'));
  // STAFF move only their own bookings (docs/rules/auth.md#staff-scoping); the owner any
  const mayMove = b && (desk.me.role !== 'STAFF' || b.items.some((i) => i.resourceId === desk.me.resourceId));
  const upcoming = b && Date.parse(b.startTime) > Date.now() && (b.status === 'PENDING' || b.status === 'CONFIRMED');

  return (
    <Dialog title={title} closeLabel={t('close')} onClose={onClose} wide>
      <p class="error-slot" role="alert">
        {problem}
      </p>
      {!b && !problem && <p>{t('loading')}</p>}
      {b && loaded && (
        <div class="card">
          <dl class="facts">
            <dt>{t('status')}</dt>
            <dd>
              {t(`status${b.status}` as DeskKey)}
              {b.waitingFor && `, ${t(`waiting${b.waitingFor}` as DeskKey)}`}
              {upcoming && `, ${b.promisedAt ? t('customerPromised') : t('customerNotPromised')}`}
            </dd>
            <dt>{t('customer')}</dt>
            <dd>
              {b.contact?.name ?? loaded.tenantCustomer?.customer.name ?? t('noCustomer')}
              {loaded.customer?.phone && (
                <>
                  {', '}
                  <a href={`tel:${loaded.customer.phone}`}>{loaded.customer.phone}</a>
                </>
              )}
              {loaded.customer?.email && `, ${loaded.customer.email}`}
            </dd>
            {loaded.tenantCustomer && (
              <>
                <dt>{t('visits')}</dt>
                <dd>
                  {loaded.tenantCustomer.visitCount}
                  {loaded.tenantCustomer.lastVisit && ` (${t('lastVisit')}: ${formatLongDay(loaded.tenantCustomer.lastVisit, tz, locale)})`}
                </dd>
              </>
            )}
            {(loaded.tenantCustomer?.notes || b.notes) && (
              <>
                <dt>{t('notes')}</dt>
                <dd>{[b.notes, loaded.tenantCustomer?.notes].filter(Boolean).join(' · ')}</dd>
              </>
            )}
            <dt>{t('source')}</dt>
            <dd>{t(`source${b.source}` as DeskKey)}</dd>
          </dl>
          <h3>{t('services')}</h3>
          <table>
            <tbody>
              {b.items.map((i) => (
                <tr key={i.id}>
                  <th scope="row">{i.serviceName}</th>
                  <td>{`${formatTime(i.startTime, tz, locale)}–${formatTime(i.endTime, tz, locale)}`}</td>
                  <td>{staffName(i.resourceId)}</td>
                  <td class="num">{formatMoney(i.price, currency, locale)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              {b.discountAmount > 0 && (
                <tr>
                  <th scope="row" colSpan={3}>
                    {t('discount')}
                  </th>
                  <td class="num">−{formatMoney(b.discountAmount, currency, locale)}</td>
                </tr>
              )}
              <tr>
                <th scope="row" colSpan={3}>
                  {t('total')}
                </th>
                <td class="num">{formatMoney(b.totalAmount - b.discountAmount, currency, locale)}</td>
              </tr>
            </tfoot>
          </table>
          <h3>{t('payment')}</h3>
          {b.depositStatus && (
            <p>
              {t('deposit')}: {depositText(t, b.depositStatus)}
            </p>
          )}
          {loaded.payments.length ? (
            <ul>
              {loaded.payments.map((p) => (
                <li key={p.id}>{t('paymentStatus', { amount: formatMoney(p.amount, p.currency, locale), status: p.status })}</li>
              ))}
            </ul>
          ) : (
            <p>{t('noPayment')}</p>
          )}
          {(b.nextStatuses.length > 0 || upcoming) && <h3>{t('actions')}</h3>}
          <div class="buttons">
            {b.nextStatuses
              .filter((s) => s !== 'CANCELLED')
              .map((s) => (
                <button
                  key={s}
                  type="button"
                  disabled={busy}
                  onClick={() =>
                    void act(
                      () => call(() => api.POST('/bookings/{id}/status/{status}', { params: { path: { id: b.id, status: s as BookingStatus } } })),
                      t('done'),
                    )
                  }
                >
                  {t(`to${s}` as DeskKey)}
                </button>
              ))}
            {upcoming && !b.promisedAt && (
              <button
                type="button"
                class="secondary"
                disabled={busy}
                onClick={() => void act(() => call(() => api.POST('/bookings/{id}/promise', { params: { path: { id: b.id } } })), t('done'))}
              >
                {t('recordPromise')}
              </button>
            )}
            {desk.me.resourceId && b.resourceId === null && b.items.every((i) => i.resourceId === null) && b.nextStatuses.length > 0 && (
              <button
                type="button"
                disabled={busy}
                onClick={() => void act(() => call(() => api.POST('/bookings/{id}/self-pick', { params: { path: { id: b.id } } })), t('done'))}
              >
                {t('selfPick')}
              </button>
            )}
            {(b.status === 'PENDING' || b.status === 'CONFIRMED' || b.status === 'ARRIVED') && mayMove && (
              <button type="button" class="secondary" aria-expanded={panel === 'move'} onClick={() => setPanel(panel === 'move' ? null : 'move')}>
                {t('move')}
              </button>
            )}
            {b.nextStatuses.includes('CANCELLED') && (
              <button type="button" class="danger" aria-expanded={panel === 'cancel'} onClick={() => setPanel(panel === 'cancel' ? null : 'cancel')}>
                {t('cancel')}
              </button>
            )}
          </div>
          {panel === 'cancel' && (
            <CancelPanel
              booking={b}
              busy={busy}
              onCancel={(body) => void act(() => call(() => api.POST('/bookings/{id}/cancel', { params: { path: { id: b.id } }, body })), t('done'))}
              onKeep={() => setPanel(null)}
            />
          )}
          {panel === 'move' && (
            <MovePanel
              booking={b}
              busy={busy}
              onMove={(startTime, resourceId) =>
                void act(
                  () =>
                    call(() =>
                      api.PATCH('/bookings/{id}', {
                        params: { path: { id: b.id } },
                        body: resourceId === undefined ? { startTime } : { startTime, resourceId },
                      }),
                    ),
                  t('moved', { time: formatDayTime(startTime, tz, desk.lang, locale), staff: staffName(resourceId === undefined ? b.resourceId : resourceId) }),
                )
              }
            />
          )}
          <h3>{t('history')}</h3>
          <ol class="history">
            {loaded.audit.map((a) => (
              <li key={a.id}>{t('historyEntry', { when: formatDayTime(a.createdAt, tz, desk.lang, locale), who: actorName(a), what: actionText(a) })}</li>
            ))}
          </ol>
        </div>
      )}
    </Dialog>
  );

  function actorName(a: Audit): string {
    const staff = desk.staff.find((s) => s.userId && s.userId === a.actorUserId);
    if (staff) return staff.name;
    if (a.actorUserId === desk.me.id && desk.me.name) return desk.me.name;
    return t(`actor${a.actorRole}` as DeskKey);
  }

  function actionText(a: Audit): string {
    if (a.action === 'STATUS_CHANGED')
      return t('actionSTATUS_CHANGED', {
        from: a.fromStatus ? t(`status${a.fromStatus}` as DeskKey) : '',
        to: a.toStatus ? t(`status${a.toStatus}` as DeskKey) : '',
      });
    return t(`action${a.action}` as DeskKey) + (a.reason ? ` (${a.reason})` : '');
  }
}

function CancelPanel({
  booking,
  busy,
  onCancel,
  onKeep,
}: {
  booking: Booking;
  busy: boolean;
  onCancel(body: { bySalon: boolean; reason?: string }): void;
  onKeep(): void;
}) {
  const desk = useDesk();
  const { t, tz, locale } = desk;
  const [bySalon, setBySalon] = useState(true);
  const [reason, setReason] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  useEffect(() => {
    setPreview(null);
    void call(() => api.GET('/bookings/{id}/cancel-preview', { params: { path: { id: booking.id }, query: { bySalon } } })).then(
      (a) => a.ok && setPreview(a.data.data),
    );
  }, [bySalon]);
  const money = (minor: number) => formatMoney(minor, desk.currency, locale);
  const previewText = !preview
    ? t('loading')
    : preview.action === 'REFUND_FULL'
      ? t('cancelPreviewRefund', { amount: money(preview.refundAmount) })
      : preview.action === 'VOID'
        ? t('cancelPreviewVoid', { amount: money(preview.depositAmount) })
        : preview.action === 'FORFEIT'
          ? t('cancelPreviewForfeit', { amount: money(preview.cancellationFee), until: formatDayTime(preview.freeCancellationUntil, tz, desk.lang, locale) })
          : t('cancelPreviewNone');
  return (
    <form
      class="panel"
      aria-labelledby="cancel-heading"
      onSubmit={(e) => {
        e.preventDefault();
        onCancel({ bySalon, ...(reason.trim() ? { reason: reason.trim() } : {}) });
      }}
    >
      <h4 id="cancel-heading">{t('cancelHeading')}</h4>
      <fieldset>
        <legend>{t('cancelWho')}</legend>
        <label class="check">
          <input type="radio" name="by" checked={bySalon} onChange={() => setBySalon(true)} />
          <span>{t('cancelBySalon')}</span>
        </label>
        <label class="check">
          <input type="radio" name="by" checked={!bySalon} onChange={() => setBySalon(false)} />
          <span>{t('cancelByCustomer')}</span>
        </label>
      </fieldset>
      <p role="status" id="cancel-preview">
        {previewText}
      </p>
      <label for="cancel-reason">{t('cancelReason')}</label>
      <textarea id="cancel-reason" maxLength={500} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
      <div class="buttons">
        <button type="submit" class="danger" disabled={busy || !preview} aria-describedby="cancel-preview">
          {t('confirmCancel')}
        </button>
        <button type="button" class="secondary" onClick={onKeep}>
          {t('keepBooking')}
        </button>
      </div>
    </form>
  );
}

type Slot = Schemas['AvailabilitySlot'];

function MovePanel({ booking, busy, onMove }: { booking: Booking; busy: boolean; onMove(startTime: string, resourceId?: string | null): void }) {
  const desk = useDesk();
  const { t, tz, locale } = desk;
  const [date, setDate] = useState(localDateOf(booking.startTime, tz));
  const same = booking.items.every((i) => i.resourceId === booking.items[0].resourceId) ? (booking.items[0].resourceId ?? '') : '';
  const [staff, setStaff] = useState<string>(same);
  const [slots, setSlots] = useState<Slot[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const services = booking.items.map((i) => i.serviceId);
  const qualified = desk.staff.filter((s) => services.every((id) => s.skills.includes(id)) && (desk.me.role !== 'STAFF' || s.id === desk.me.resourceId));

  useEffect(() => {
    setSlots(null);
    setProblem(null);
    const resourceId = staff ? staff : booking.items.map((i) => i.resourceId ?? 'any').join(',');
    void call(() => api.GET('/availability', { params: { query: { serviceId: services.join(','), resourceId, date, excludeBookingId: booking.id } } })).then(
      (answer) => {
        if (answer.ok) setSlots(answer.data.data.slots.filter((s) => s.start !== booking.startTime));
        else {
          setSlots([]);
          setProblem(sentence(deskError(desk.lang, answer.problem.code)));
        }
      },
    );
  }, [date, staff]);

  const day = formatLongDay(`${date}T12:00:00Z`, 'UTC', locale);
  return (
    <section class="panel" aria-labelledby="move-heading">
      <h4 id="move-heading">{t('moveHeading')}</h4>
      <div class="row">
        <label>
          {t('moveDate')} <input type="date" value={date} onChange={(e) => e.currentTarget.value && setDate(e.currentTarget.value)} />
        </label>
        <label>
          {t('moveStaff')}{' '}
          <select value={staff} onChange={(e) => setStaff(e.currentTarget.value)}>
            {same === '' && <option value="">{t('anyStaff')}</option>}
            {qualified.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <h5 id="move-times">{t('freeTimes', { day })}</h5>
      <p class="error-slot" role="alert">
        {problem}
      </p>
      {slots === null ? (
        <p role="status">{t('loadingTimes')}</p>
      ) : slots.length === 0 ? (
        <p role="status">{t('noFreeTimes')}</p>
      ) : (
        <ul class="times" aria-labelledby="move-times">
          {slots.map((slot) => (
            <li key={slot.start}>
              <button
                type="button"
                disabled={busy}
                onClick={() => onMove(slot.start, staff && staff !== (booking.resourceId ?? '') ? staff : undefined)}
                aria-label={`${t('moveTo')}: ${formatDayTime(slot.start, tz, desk.lang, locale)}`}
              >
                {formatTime(slot.start, tz, locale)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
