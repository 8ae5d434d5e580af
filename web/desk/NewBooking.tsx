// A booking by phone (the customer found or added, the services, a staff member or anyone, a day and
// one of its free times) and a walk-in in one step (the customer if any, one service, the staff
// member: STAFF themselves), through the staff side's own routes; refusals say why in words.
import { useEffect, useState } from 'preact/hooks';
import { formatDayTime, formatDuration, formatLongDay, formatMoney, formatTime } from '../shared/format';
import { api, call, type Schemas } from './api';
import { useDesk } from './context';
import { Dialog } from './Dialog';
import { CustomerPicker, type ChosenCustomer } from './CustomerPicker';
import { deskError, sentence } from './i18n';

type Slot = Schemas['AvailabilitySlot'];

export function NewBooking({ kind, date, onClose, onBooked }: { kind: 'phone' | 'walk-in'; date: string; onClose(): void; onBooked(text: string): void }) {
  const desk = useDesk();
  const { t, tz, locale } = desk;
  const staffOnly = desk.me.role === 'STAFF';
  const [customer, setCustomer] = useState<ChosenCustomer>(null);
  const [services, setServices] = useState<string[]>([]);
  const [staff, setStaff] = useState<string>(staffOnly ? (desk.me.resourceId ?? '') : '');
  const [day, setDay] = useState(date);
  const [slots, setSlots] = useState<Slot[] | 'loading' | null>(null);
  const [slot, setSlot] = useState<Slot | null>(null);
  const [notes, setNotes] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const walkIn = kind === 'walk-in';

  const qualified = desk.staff.filter((s) => services.every((id) => s.skills.includes(id)) && (!staffOnly || s.id === desk.me.resourceId));
  useEffect(() => {
    if (staff && !qualified.some((s) => s.id === staff) && !staffOnly) setStaff('');
  }, [services.join(',')]);

  useEffect(() => {
    setSlot(null);
    if (walkIn || services.length === 0) return setSlots(null);
    setSlots('loading');
    let current = true;
    void call(() =>
      api.GET('/availability', { params: { query: { serviceId: services.join(','), ...(staff ? { resourceId: staff } : {}), date: day } } }),
    ).then((answer) => {
      if (!current) return;
      if (answer.ok) setSlots(answer.data.data.slots);
      else {
        setSlots([]);
        setProblem(sentence(deskError(desk.lang, answer.problem.code)));
      }
    });
    return () => {
      current = false;
    };
  }, [services.join(','), staff, day]);

  const toggle = (id: string, on: boolean) => setServices((list) => (walkIn ? (on ? [id] : []) : on ? [...list, id] : list.filter((s) => s !== id)));

  const book = async (event: Event) => {
    event.preventDefault();
    setProblem(null);
    if (services.length === 0) return setProblem(t('chooseAtLeastOne'));
    const who = customer ? ('customerId' in customer ? { customerId: customer.customerId } : { customer: customer.customer }) : {};
    const note = notes.trim() ? { notes: notes.trim() } : {};
    setBusy(true);
    if (walkIn) {
      const answer = await call(() =>
        api.POST('/bookings/walk-in', { body: { serviceId: services[0], ...(staff ? { resourceId: staff } : {}), ...who, ...note } }),
      );
      setBusy(false);
      if (!answer.ok) return setProblem(sentence(deskError(desk.lang, answer.problem.code)));
      return onBooked(t('walkInStarted'));
    }
    if (!slot) {
      setBusy(false);
      return setProblem(t('chooseATime'));
    }
    // "anyone" books unassigned, unless the salon books only with a named staff member (as the booking page does)
    const assigned = !staff && desk.salon.settings.bookingMode === 'assigned_only';
    const items = services.map((serviceId, i) => ({ serviceId, resourceId: staff || (assigned ? slot.items[i].resourceId : null) }));
    const answer = await call(() => api.POST('/bookings', { body: { startTime: slot.start, items, source: 'PHONE', ...who, ...note } }));
    setBusy(false);
    if (!answer.ok) return setProblem(sentence(deskError(desk.lang, answer.problem.code)));
    onBooked(t('booked', { time: formatDayTime(answer.data.data.startTime, tz, desk.lang, locale) }));
  };

  return (
    <Dialog title={walkIn ? t('walkInHeading') : t('newHeading')} closeLabel={t('close')} onClose={onClose} wide>
      <form class="new-booking" onSubmit={book} noValidate>
        <CustomerPicker value={customer} onChange={setCustomer} optional={walkIn} />
        <fieldset>
          <legend>{walkIn ? t('chooseService') : t('chooseServices')}</legend>
          <ul class="choices services">
            {desk.services.map((s) => (
              <li key={s.id}>
                <label class="check">
                  <input
                    type={walkIn ? 'radio' : 'checkbox'}
                    name="service"
                    checked={services.includes(s.id)}
                    onChange={(e) => toggle(s.id, e.currentTarget.checked)}
                  />
                  <span>{s.name}</span>
                  <span class="hint">
                    {formatDuration(s.duration, desk.lang)}, {formatMoney(s.price, desk.currency, locale)}
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <div class="row">
          <label>
            {t('chooseStaff')}{' '}
            <select value={staff} onChange={(e) => setStaff(e.currentTarget.value)} disabled={staffOnly}>
              {!staffOnly && <option value="">{t('anyStaff')}</option>}
              {qualified.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
          {!walkIn && (
            <label>
              {t('date')} <input type="date" value={day} onChange={(e) => e.currentTarget.value && setDay(e.currentTarget.value)} />
            </label>
          )}
        </div>
        {!walkIn && services.length > 0 && (
          <fieldset>
            <legend>{t('freeTimes', { day: formatLongDay(`${day}T12:00:00Z`, 'UTC', locale) })}</legend>
            {slots === 'loading' || slots === null ? (
              <p role="status">{t('loadingTimes')}</p>
            ) : slots.length === 0 ? (
              <p role="status">{t('noFreeTimes')}</p>
            ) : (
              <ul class="times">
                {slots.map((s) => (
                  <li key={s.start}>
                    <label class={slot?.start === s.start ? 'time chosen' : 'time'}>
                      <input type="radio" name="time" checked={slot?.start === s.start} onChange={() => setSlot(s)} />
                      <span>{formatTime(s.start, tz, locale)}</span>
                    </label>
                  </li>
                ))}
              </ul>
            )}
          </fieldset>
        )}
        <label for="booking-notes">{t('bookingNotes')}</label>
        <textarea id="booking-notes" maxLength={2000} value={notes} onInput={(e) => setNotes(e.currentTarget.value)} />
        <p class="error-slot" role="alert">
          {problem}
        </p>
        <div class="buttons">
          <button type="submit" disabled={busy}>
            {walkIn ? t('startWalkIn') : t('book')}
          </button>
          <button type="button" class="secondary" onClick={onClose}>
            {t('close')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
