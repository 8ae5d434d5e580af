// Step 1: services grouped by category, several allowed (done one after the other, in page order).
import { useState } from 'preact/hooks';
import { t } from '../../shared/i18n';
import { formatDuration, formatMoney } from '../../shared/format';
import type { PageContext } from '../page-context';

export function Services({
  ctx,
  chosen,
  onChange,
  onNext,
}: {
  ctx: PageContext;
  chosen: string[];
  onChange: (services: string[]) => void;
  onNext: (services: string[]) => void;
}) {
  const selected = chosen;
  const [error, setError] = useState(false);
  const order = ctx.boot.services.flatMap((g) => g.services.map((s) => s.id));
  const toggle = (id: string, on: boolean) => {
    setError(false);
    onChange(order.filter((x) => (x === id ? on : selected.includes(x))));
  };
  return (
    <form
      class="services"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (selected.length === 0) setError(true);
        else onNext(selected);
      }}
    >
      <p class="hint" id="services-hint">
        {t(ctx.lang, 'servicesHint')}
      </p>
      {ctx.boot.services.map((group) => (
        <fieldset key={group.category?.id ?? 'other'} class="category">
          <legend>{group.category?.name ?? t(ctx.lang, 'otherServices')}</legend>
          <ul role="list">
            {group.services.map((s) => (
              <li key={s.id} class="service">
                <input
                  type="checkbox"
                  id={`svc-${s.id}`}
                  name="services"
                  value={s.id}
                  checked={selected.includes(s.id)}
                  aria-describedby={s.description ? `svc-${s.id}-d` : undefined}
                  onChange={(e) => toggle(s.id, (e.currentTarget as HTMLInputElement).checked)}
                />
                <label for={`svc-${s.id}`}>
                  <span class="name">{s.name}</span>
                  <span class="meta">
                    {formatDuration(s.duration, ctx.lang)} · {formatMoney(s.price, s.currency, ctx.locale)}
                  </span>
                </label>
                {s.description && (
                  <p class="description" id={`svc-${s.id}-d`}>
                    {s.description}
                  </p>
                )}
              </li>
            ))}
          </ul>
        </fieldset>
      ))}
      <div class="error-slot" role="alert">
        {error && <p class="error">{t(ctx.lang, 'chooseAtLeastOne')}</p>}
      </div>
      <div class="actions">
        <button type="submit" class="primary">
          {t(ctx.lang, 'next')}
        </button>
      </div>
    </form>
  );
}
