// What the salon's owner is told (docs/rules/front-desk.md#the-salon-is-told): bookings waiting for
// approval and customers' own cancellations, newest first; a notice opens its booking (where a
// waiting one is approved) and is marked read.
import { useEffect, useState } from 'preact/hooks';
import { formatDayTime } from '../shared/format';
import { api, call, type Schemas } from './api';
import { useDesk } from './context';
import { BookingCard } from './BookingCard';
import type { DeskKey } from './i18n';

type Notice = Schemas['SalonNotice'];

export function Notices({ live, onRead }: { live: { tick: number; bookingIds: string[] }; onRead(): void }) {
  const desk = useDesk();
  const { t, tz, locale } = desk;
  const [notices, setNotices] = useState<Notice[] | null>(null);
  const [open, setOpen] = useState<string | null>(null);

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

  return (
    <section aria-labelledby="notices-heading" class="notices">
      <h2 id="notices-heading">{t('noticesHeading')}</h2>
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
