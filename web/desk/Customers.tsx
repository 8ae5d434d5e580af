// The salon's customers (docs/rules/front-desk.md): search by name, phone or e-mail; a customer's card
// with visits, spend, last visit, notes, tags, stamps and vouchers. Notes and tags are what STAFF may
// change (docs/rules/customers.md#tenant-customers); the platform refuses anything else.
import { useEffect, useRef, useState } from 'preact/hooks';
import { formatLongDay, formatMoney } from '../shared/format';
import { api, call, type Schemas } from './api';
import { useDesk } from './context';
import { deskError, sentence } from './i18n';

type TenantCustomer = Schemas['TenantCustomer'];
type Loyalty = Schemas['LoyaltyCustomerOne']['data'];

export function Customers() {
  const { t } = useDesk();
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<TenantCustomer[] | null>(null);
  const [open, setOpen] = useState<TenantCustomer | null>(null);
  const asked = useRef(0);

  useEffect(() => {
    const n = ++asked.current;
    const timer = setTimeout(async () => {
      const q = query.trim();
      const answer = await call(() =>
        api.GET('/tenant-customers', { params: { query: { ...(q ? { search: q } : {}), limit: 20, sort: 'lastVisit', order: 'desc' } } }),
      );
      if (n === asked.current) setFound(answer.ok ? answer.data.data : []);
    }, 250);
    return () => clearTimeout(timer);
  }, [query]);

  return (
    <section aria-labelledby="customers-heading" class="customers">
      <h2 id="customers-heading">{t('customersHeading')}</h2>
      <label for="customers-search">{t('searchCustomers')}</label>
      <input id="customers-search" type="search" autocomplete="off" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
      <div role="status">{found && found.length === 0 && <p>{t('noMatches')}</p>}</div>
      <div class="split">
        {found && found.length > 0 && (
          <ul class="choices">
            {found.map((c) => (
              <li key={c.id}>
                <button type="button" class="choice" aria-pressed={open?.id === c.id} onClick={() => setOpen(c)}>
                  {c.customer.name}
                  {c.customer.phone ? `, ${c.customer.phone}` : ''}
                </button>
              </li>
            ))}
          </ul>
        )}
        {open && <CustomerCard key={open.id} customer={open} onSaved={(c) => setOpen(c)} />}
      </div>
    </section>
  );
}

function CustomerCard({ customer, onSaved }: { customer: TenantCustomer; onSaved(c: TenantCustomer): void }) {
  const desk = useDesk();
  const { t, tz, locale } = desk;
  const [notes, setNotes] = useState(customer.notes ?? '');
  const [tags, setTags] = useState(customer.tags.join(', '));
  const [loyalty, setLoyalty] = useState<Loyalty | null>(null);
  const [said, setSaid] = useState<{ text: string; alert: boolean } | null>(null);

  useEffect(() => {
    void call(() => api.GET('/customers/{tenantCustomerId}/loyalty', { params: { path: { tenantCustomerId: customer.id } } })).then(
      (a) => a.ok && setLoyalty(a.data.data),
    );
  }, [customer.id]);

  const save = async (event: Event) => {
    event.preventDefault();
    const body = {
      notes: notes.trim() || null,
      tags: tags
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    };
    const answer = await call(() => api.PATCH('/tenant-customers/{id}', { params: { path: { id: customer.id } }, body }));
    if (!answer.ok) return setSaid({ text: sentence(deskError(desk.lang, answer.problem.code)), alert: true });
    setSaid({ text: t('saved'), alert: false });
    onSaved(answer.data.data);
  };

  return (
    <article class="customer-card" aria-labelledby="customer-card-heading">
      <h3 id="customer-card-heading">{t('customerCard', { name: customer.customer.name })}</h3>
      <dl class="facts">
        <dt>{t('phone')}</dt>
        <dd>{customer.customer.phone ? <a href={`tel:${customer.customer.phone}`}>{customer.customer.phone}</a> : '–'}</dd>
        <dt>{t('email')}</dt>
        <dd>{customer.customer.email ?? '–'}</dd>
        <dt>{t('visits')}</dt>
        <dd>{customer.visitCount}</dd>
        <dt>{t('spent')}</dt>
        <dd>{formatMoney(customer.totalSpent, desk.currency, locale)}</dd>
        <dt>{t('lastVisit')}</dt>
        <dd>{customer.lastVisit ? formatLongDay(customer.lastVisit, tz, locale) : '–'}</dd>
      </dl>
      <h4>{t('loyalty')}</h4>
      {loyalty && loyalty.cards.length + loyalty.vouchers.length === 0 && <p>{t('noLoyalty')}</p>}
      {loyalty && (
        <ul>
          {loyalty.cards.map((c) => (
            <li key={c.card.id}>
              {c.requiredStamps !== null
                ? t('stamps', { card: c.card.name, stamps: c.stampsInCycle ?? 0, required: c.requiredStamps })
                : t('points', { card: c.card.name, points: c.pointsBalance?.balance ?? 0 })}
            </li>
          ))}
          {loyalty.vouchers.map((v) => (
            <li key={v.id}>{t('voucher', { code: v.code, status: v.status })}</li>
          ))}
        </ul>
      )}
      <form onSubmit={save}>
        <label for="customer-notes">{t('notes')}</label>
        <textarea id="customer-notes" maxLength={2000} value={notes} onInput={(e) => setNotes(e.currentTarget.value)} />
        <label for="customer-tags">{t('tags')}</label>
        <input id="customer-tags" type="text" value={tags} onInput={(e) => setTags(e.currentTarget.value)} />
        <button type="submit">{t('save')}</button>
        <p class={said?.alert ? 'error-slot' : 'said'} role={said?.alert ? 'alert' : 'status'}>
          {said?.text}
        </p>
      </form>
    </article>
  );
}
