// What the salon's owner is told (docs/rules/front-desk.md#the-salon-is-told): bookings waiting for
// approval and customers' own cancellations, newest first; a notice opens its booking (where a
// waiting one is approved) and is marked read. The owner turns the e-mail of each notice off and on
// here (the salon's setting notifyOwnerByEmail).
import { useEffect, useState } from 'preact/hooks';
import { formatDayTime } from '../shared/format';
import { api, call, type Schemas } from './api';
import { useDesk } from './context';
import { BookingCard } from './BookingCard';
import { deskError, sentence, type DeskKey } from './i18n';

type Notice = Schemas['SalonNotice'];

export function Notices({ live, onRead }: { live: { tick: number; bookingIds: string[] }; onRead(): void }) {
  const desk = useDesk();
  const { t, tz, locale } = desk;
  const [notices, setNotices] = useState<Notice[] | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [byEmail, setByEmail] = useState(desk.salon.settings.notifyOwnerByEmail);
  const [said, setSaid] = useState<{ text: string; alert: boolean } | null>(null);

  const load = async () => {
    const answer = await call(() => api.GET('/salon-notices', { params: { query: { limit: 50 } } }));
    setNotices(answer.ok ? answer.data.data : []);
  };
  useEffect(() => {
    void load();
  }, [live.tick]);

  const markRead = async (id: string) => {
    await call(() => api.POST('/salon-notices/{id}/read', { params: { path: { id } } }));
    onRead();
    await load();
  };

  const setEmail = async (on: boolean) => {
    setByEmail(on);
    const answer = await call(() => api.PATCH('/tenants/{id}', { params: { path: { id: desk.salon.id } }, body: { settings: { notifyOwnerByEmail: on } } }));
    if (!answer.ok) {
      setByEmail(!on);
      return setSaid({ text: sentence(deskError(desk.lang, answer.problem.code)), alert: true });
    }
    // the desk's copy of the salon, so the box shows the stored setting when the list is opened again
    desk.salon.settings.notifyOwnerByEmail = answer.data.data.settings.notifyOwnerByEmail;
    setSaid({ text: t(on ? 'noticeEmailOn' : 'noticeEmailOff'), alert: false });
  };

  return (
    <section aria-labelledby="notices-heading" class="notices">
      <h2 id="notices-heading">{t('noticesHeading')}</h2>
      <p class="notice-email">
        <label>
          <input type="checkbox" checked={byEmail} onChange={(e) => void setEmail(e.currentTarget.checked)} /> {t('noticeEmail')}
        </label>
      </p>
      <p class={said?.alert ? 'error-slot' : 'said'} role={said?.alert ? 'alert' : 'status'}>
        {said?.text}
      </p>
      {notices && notices.length === 0 && <p>{t('noNotices')}</p>}
      {notices && notices.length > 0 && (
        <ul class="notice-list">
          {notices.map((n) => (
            <li key={n.id} class={n.readAt ? 'read' : 'unread'}>
              <p>
                <strong>{t(`notice${n.kind}` as DeskKey)}</strong> <span class="tag">{n.readAt ? t('read') : t('unread')}</span>
              </p>
              <p>
                {t('noticeLine', {
                  customer: n.booking.customerName ?? t('noCustomer'),
                  services: n.booking.services.join(', '),
                  when: formatDayTime(n.booking.startTime, tz, desk.lang, locale),
                })}{' '}
                ({t(`status${n.booking.status}` as DeskKey)})
              </p>
              <div class="buttons">
                <button type="button" onClick={() => setOpen(n.bookingId)}>
                  {t('open')}
                </button>
                {!n.readAt && (
                  <button type="button" class="secondary" onClick={() => void markRead(n.id)}>
                    {t('markRead')}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {open && <BookingCard bookingId={open} live={live} onClose={() => setOpen(null)} onChanged={() => void load()} />}
    </section>
  );
}
