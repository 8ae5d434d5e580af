// Step 2: who does it. "Anyone" (the first free staff member) or one person who does every chosen
// service (strict skill match).
import { useState } from 'preact/hooks';
import { t } from '../../shared/i18n';
import type { PageContext } from '../page-context';

export function Staff({
  ctx,
  services,
  chosen,
  onBack,
  onNext,
}: {
  ctx: PageContext;
  services: string[];
  chosen: string;
  onBack: () => void;
  onNext: (staff: string) => void;
}) {
  const qualified = ctx.boot.staff.filter((s) => services.every((id) => s.serviceIds.includes(id)));
  const [selected, setSelected] = useState(qualified.some((s) => s.id === chosen) ? chosen : 'any');
  return (
    <form
      class="staff"
      onSubmit={(e) => {
        e.preventDefault();
        onNext(selected);
      }}
    >
      <fieldset>
        <legend class="visually-hidden">{t(ctx.lang, 'stepStaff')}</legend>
        <ul role="list" class="choices">
          <li>
            <input
              type="radio"
              id="staff-any"
              name="staff"
              value="any"
              checked={selected === 'any'}
              aria-describedby="staff-any-d"
              onChange={() => setSelected('any')}
            />
            <label for="staff-any">
              <span class="name">{t(ctx.lang, 'anyStaff')}</span>
              <span class="meta" id="staff-any-d">
                {t(ctx.lang, 'anyStaffHint')}
              </span>
            </label>
          </li>
          {qualified.map((s) => (
            <li key={s.id}>
              <input type="radio" id={`staff-${s.id}`} name="staff" value={s.id} checked={selected === s.id} onChange={() => setSelected(s.id)} />
              <label for={`staff-${s.id}`}>
                <span class="name">{s.name}</span>
                {s.jobTitle && <span class="meta">{s.jobTitle}</span>}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      {qualified.length === 0 && <p class="hint">{t(ctx.lang, 'noStaffForAll')}</p>}
      <div class="actions">
        <button type="button" onClick={onBack}>
          {t(ctx.lang, 'back')}
        </button>
        <button type="submit" class="primary">
          {t(ctx.lang, 'next')}
        </button>
      </div>
    </form>
  );
}
