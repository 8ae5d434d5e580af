// The v2 booking page: services -> staff -> day and time -> contact, on one page, each step a
// section whose heading takes the focus when the step opens (keyboard and screen-reader users land
// where the new content is) and a history entry of its own (the browser's Back goes to the previous
// step; a reload keeps the step and the choices: draft.ts). All texts come from shared/i18n, all
// dates and money from shared/format in the salon's zone and currency.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { BootData } from '../shared/boot';
import { t } from '../shared/i18n';
import { intlLocale } from '../shared/format';
import { emptyDraft, markTrip, reachable, restoredDraft, saveDraft, stepOfUrl, urlOfStep, type Draft, type Step } from './draft';
import { Services } from './steps/Services';
import { Staff } from './steps/Staff';
import { When } from './steps/When';
import { ContactStep } from './steps/Contact';
import { Summary } from './Summary';
import { Account } from './Account';
import { startSignIn } from './signin';
import { browserZoneIfDifferent, type PageContext } from './page-context';

const STEPS: Step[] = ['services', 'staff', 'time', 'contact'];
const HEADINGS: Record<Step, 'stepServices' | 'stepStaff' | 'stepTime' | 'stepContact'> = {
  services: 'stepServices',
  staff: 'stepStaff',
  time: 'stepTime',
  contact: 'stepContact',
};

export function App({ boot }: { boot: BootData }) {
  const ctx = useMemo<PageContext>(
    () => ({ boot, lang: boot.lang, locale: intlLocale(boot.lang, boot.salon.locale), browserZone: browserZoneIfDifferent(boot.salon.timezone) }),
    [boot],
  );
  const [draft, setDraft] = useState<Draft>(() => restoredDraft(boot.slug) ?? emptyDraft(boot.chosenServices, boot.chosenStaff));
  const [notice, setNotice] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  const update = (changes: Partial<Draft>) => setDraft((d) => ({ ...d, ...changes }));
  /** Opens a step as a new history entry. */
  const go = (step: Step, changes: Partial<Draft> = {}) => {
    moved.current = true;
    if (step !== draft.step) history.pushState({ step, from: draft.step }, '', urlOfStep(step));
    setDraft((d) => ({ ...d, ...changes, step }));
  };
  /** A step's Back button: the browser's Back when the previous entry is that step, else a new entry. */
  const back = (step: Step) => {
    if ((history.state as { from?: Step } | null)?.from === step) history.back();
    else go(step);
  };

  // Every change is kept, so a reload or a Back comes back to it.
  useEffect(() => saveDraft(boot.slug, draft), [draft, boot.slug]);

  // The entry the page was opened on names its step; Back and Forward move between the steps.
  useEffect(() => {
    history.replaceState({ ...(history.state as object | null), step: draft.step }, '', urlOfStep(draft.step));
    const onPop = () => {
      const step = stepOfUrl() ?? 'services';
      moved.current = true;
      setDraft((d) => (reachable(d, step) ? { ...d, step } : d));
    };
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);

  // The page is interactive from here (npm run bench:page reads this mark).
  useEffect(() => {
    performance.mark('booking-ready');
  }, []);

  // The new step's heading takes the focus (not on the first render: the page just loaded).
  useEffect(() => {
    if (moved.current) headingRef.current?.focus();
  }, [draft.step]);

  // Trips away from the page keep the choices: the language switch (a plain link in the header).
  useEffect(() => {
    const keep = (event: Event) => {
      if ((event.target as Element | null)?.closest?.('[data-lang-switch]')) markTrip(boot.slug);
    };
    document.addEventListener('click', keep);
    return () => document.removeEventListener('click', keep);
  }, [draft, boot.slug]);

  const signIn = () => {
    if (!boot.signIn) return;
    markTrip(boot.slug);
    void startSignIn(boot.signIn, location.pathname + location.search);
  };

  const index = STEPS.indexOf(draft.step);
  const heading = (
    <header class="step-head">
      <p class="step-count">{t(ctx.lang, 'stepOf', { n: index + 1, total: STEPS.length })}</p>
      <h2 id="step-heading" ref={headingRef} tabIndex={-1}>
        {t(ctx.lang, HEADINGS[draft.step])}
      </h2>
    </header>
  );

  return (
    <div class="booking">
      <Account ctx={ctx} onSignIn={signIn} />
      <section class="step" aria-labelledby="step-heading">
        {heading}
        {draft.step === 'services' && (
          <Services
            ctx={ctx}
            chosen={draft.services}
            onChange={(services) => update({ services, slot: null })}
            onNext={(services) => go('staff', { services, slot: null })}
          />
        )}
        {draft.step === 'staff' && (
          <Staff
            ctx={ctx}
            services={draft.services}
            chosen={draft.staff}
            onBack={() => back('services')}
            onNext={(staff) =>
              go('time', { staff, slot: null, date: staff === draft.staff ? draft.date : null, week: staff === draft.staff ? draft.week : null })
            }
          />
        )}
        {draft.step === 'time' && (
          <When
            ctx={ctx}
            draft={draft}
            notice={notice}
            onChange={(changes) => {
              setNotice(null);
              update(changes);
            }}
            onBack={() => back('staff')}
            onSlot={(slot) => {
              setNotice(null);
              go('contact', { slot });
            }}
          />
        )}
        {draft.step === 'contact' && draft.slot && (
          <ContactStep
            ctx={ctx}
            draft={draft}
            onChange={update}
            onBack={() => back('time')}
            onConflict={(message) => {
              setNotice(message);
              go('time', { slot: null });
            }}
          />
        )}
      </section>
      <Summary ctx={ctx} draft={draft} onEdit={(step) => go(step)} />
    </div>
  );
}
