// Finding the customer by phone or name, or adding one (the booking creates them, found by phone
// when they exist): what a phone booking and a walk-in start with.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call, type Schemas } from './api';
import { useDesk } from './context';

type Customer = Schemas['Customer'];

export type ChosenCustomer = { customerId: string; name: string } | { customer: { name: string; phone: string; email?: string } } | null;

export function CustomerPicker({ value, onChange, optional }: { value: ChosenCustomer; onChange(value: ChosenCustomer): void; optional?: boolean }) {
  const { t } = useDesk();
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<Customer[] | null>(null);
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [email, setEmail] = useState('');
  const asked = useRef(0);

  useEffect(() => {
    const q = query.trim();
    if (q.length < 2) return setFound(null);
    const n = ++asked.current;
    const timer = setTimeout(async () => {
      const answer = await call(() => api.GET('/customers', { params: { query: { search: q, limit: 8, sort: 'name' } } }));
      if (n === asked.current) setFound(answer.ok ? answer.data.data : []);
    }, 250);
    return () => clearTimeout(timer);
  }, [query]);

  useEffect(() => {
    if (adding)
      onChange(name.trim() && phone.trim() ? { customer: { name: name.trim(), phone: phone.trim(), ...(email.trim() ? { email: email.trim() } : {}) } } : null);
  }, [adding, name, phone, email]);

  if (value && 'customerId' in value)
    return (
      <fieldset>
        <legend>{t('customer')}</legend>
        <p>
          {t('existingCustomer', { name: value.name })}{' '}
          <button type="button" class="link" onClick={() => onChange(null)}>
            {t('changeCustomer')}
          </button>
        </p>
      </fieldset>
    );

  return (
    <fieldset>
      <legend>{t('customer')}</legend>
      {!adding && (
        <>
          <label for="customer-search">{t('findCustomer')}</label>
          <input
            id="customer-search"
            type="search"
            autocomplete="off"
            value={query}
            onInput={(e) => setQuery(e.currentTarget.value)}
            aria-describedby="customer-found"
          />
          <div id="customer-found" role="status">
            {found && found.length === 0 && <p>{t('noMatches')}</p>}
          </div>
          {found && found.length > 0 && (
            <ul class="choices">
              {found.map((c) => (
                <li key={c.id}>
                  <button type="button" class="choice" onClick={() => onChange({ customerId: c.id, name: c.name })}>
                    {c.name}
                    {c.phone ? `, ${c.phone}` : ''}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      <label class="check">
        <input type="checkbox" checked={adding} onChange={(e) => setAdding(e.currentTarget.checked)} />
        <span>{t('newCustomer')}</span>
      </label>
      {adding && (
        <div class="row">
          <label>
            {t('customerName')} <input type="text" autocomplete="off" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <label>
            {t('customerPhone')} <input type="tel" autocomplete="off" required value={phone} onInput={(e) => setPhone(e.currentTarget.value)} />
          </label>
          <label>
            {t('customerEmail')} <input type="email" autocomplete="off" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          </label>
        </div>
      )}
      {optional && !adding && !value && <p class="hint">{t('withoutCustomer')}</p>}
    </fieldset>
  );
}
