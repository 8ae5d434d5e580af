// The front desk (docs/rules/front-desk.md): signs in (or finds the session in its cookies), loads
// the salon, its staff, rooms and services, and shows the day, a staff member's week, the customers
// or the owner's notices. The view, the date and the staff member are in the address, so a reload
// and the browser's Back come back to them. Every change committed anywhere reaches the open view
// (live.ts). When the session ends, a dialog asks for the password over whatever is open.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { intlLocale } from '../shared/format';
import type { DeskBoot } from '../shared/desk-boot';
import { api, call, onSessionLost, plainCall, refreshSession, stopRefreshing, type Resource, type Service, type Tenant } from './api';
import { DeskContext, deskOf, type Desk, type Me } from './context';
import { SignInForm } from './SignIn';
import { Dialog } from './Dialog';
import { tr } from './i18n';
import { DayView } from './DayView';
import { WeekView } from './WeekView';
import { Customers } from './Customers';
import { Notices } from './Notices';
import { followChanges, type LiveChange } from './live';
import { todayIn } from './time';

export type View = 'day' | 'week' | 'customers' | 'notices';

export interface Place {
  view: View;
  date: string;
  staff: string | null;
}

function placeOfUrl(today: string): Place {
  const q = new URLSearchParams(location.search);
  const view = (['day', 'week', 'customers', 'notices'] as const).find((v) => v === q.get('view')) ?? 'day';
  const date = /^\d{4}-\d{2}-\d{2}$/.test(q.get('date') ?? '') ? q.get('date')! : today;
  return { view, date, staff: q.get('staff') };
}

function urlOfPlace(place: Place): string {
  const q = new URLSearchParams(location.search);
  q.set('view', place.view);
  q.set('date', place.date);
  if (place.staff) q.set('staff', place.staff);
  else q.delete('staff');
  q.delete('lang');
  return `${location.pathname}?${q.toString()}`;
}

type Loaded = { salon: Tenant; me: Me; resources: Resource[]; services: Service[] };

async function loadDesk(): Promise<Loaded | 'signed-out' | string> {
  let me = await plainCall(() => api.GET('/auth/me'));
  if (!me.ok && me.status === 401 && (await refreshSession())) me = await plainCall(() => api.GET('/auth/me'));
  if (!me.ok) return me.status === 401 ? 'signed-out' : me.problem.code;
  const [salon, resources, services] = await Promise.all([
    call(() => api.GET('/tenants/me')),
    call(() => api.GET('/resources', { params: { query: { limit: 100, sort: 'sortOrder', order: 'asc' } } })),
    call(() => api.GET('/services', { params: { query: { limit: 100, sort: 'sortOrder', order: 'asc', isActive: true } } })),
  ]);
  if (!salon.ok) return salon.problem.code;
  if (!resources.ok) return resources.problem.code;
  if (!services.ok) return services.problem.code;
  const user = me.data.data;
  return {
    salon: salon.data.data,
    me: { id: user.id, name: user.name, email: user.email, role: user.role, resourceId: user.resourceId },
    resources: resources.data.data,
    services: services.data.data,
  };
}

export function App({ boot }: { boot: DeskBoot }) {
  const { lang } = boot;
  const [state, setState] = useState<'loading' | 'signed-out' | Loaded | { failed: string }>('loading');
  const [reauth, setReauth] = useState<(() => void)[]>([]);

  const load = async () => {
    const loaded = await loadDesk();
    setState(typeof loaded === 'string' ? (loaded === 'signed-out' ? 'signed-out' : { failed: loaded }) : loaded);
  };

  useEffect(() => {
    void load();
    // a call that met the end of the session waits here until the user signed in again
    onSessionLost((retry) => setReauth((waiting) => [...waiting, retry]));
  }, []);

  if (state === 'loading') return <p class="loading">{tr(lang, 'loading')}</p>;
  if (state === 'signed-out')
    return (
      <main id="main" class="signin-page">
        <h1>{boot.salon ? `${boot.salon.name} – ${tr(lang, 'appName')}` : tr(lang, 'appName')}</h1>
        <SignInForm lang={lang} salonSlug={boot.salon?.slug ?? null} onSignedIn={() => void load()} />
        <LanguageSwitch lang={lang} />
      </main>
    );
  if ('failed' in state)
    return (
      <main id="main">
        <h1>{tr(lang, 'appName')}</h1>
        <p role="alert">{state.failed}</p>
      </main>
    );
  return (
    <>
      <Shell boot={boot} loaded={state} onSignedOut={() => setState('signed-out')} />
      {reauth.length > 0 && (
        <Dialog title={tr(lang, 'sessionEnded')} onClose={() => undefined}>
          <p>{tr(lang, 'sessionEndedText')}</p>
          <SignInForm
            lang={lang}
            salonSlug={state.salon.slug}
            fixedLogin={state.me.email}
            headingLevel={3}
            onSignedIn={({ user }) => {
              if (user.id !== state.me.id) return location.reload();
              const waiting = reauth;
              setReauth([]);
              waiting.forEach((retry) => retry());
            }}
          />
        </Dialog>
      )}
    </>
  );
}

function LanguageSwitch({ lang }: { lang: 'nb' | 'en' }) {
  const other = lang === 'nb' ? 'en' : 'nb';
  const href = () => {
    const q = new URLSearchParams(location.search);
    q.set('lang', other);
    return `${location.pathname}?${q.toString()}`;
  };
  return (
    <a class="lang" href={href()} hreflang={other} lang={other} aria-label={tr(lang, 'otherLanguageLabel')}>
      {tr(lang, 'otherLanguage')}
    </a>
  );
}

function Shell({ boot, loaded, onSignedOut }: { boot: DeskBoot; loaded: Loaded; onSignedOut(): void }) {
  const { lang } = boot;
  const desk = useMemo<Desk>(() => deskOf(lang, intlLocale(lang, 'nb-NO'), loaded.salon, loaded.me, loaded.resources, loaded.services), [lang, loaded]);
  const { t } = desk;
  const today = todayIn(desk.tz);
  const [place, setPlace] = useState<Place>(() => placeOfUrl(today));
  const [live, setLive] = useState<{ tick: number; bookingIds: string[] }>({ tick: 0, bookingIds: [] });
  const [liveUp, setLiveUp] = useState(true);
  const [unread, setUnread] = useState(0);
  const mainRef = useRef<HTMLElement>(null);
  const isOwner = desk.me.role !== 'STAFF';

  const go = (next: Partial<Place>) => {
    const to = { ...place, ...next };
    history.pushState(null, '', urlOfPlace(to));
    setPlace(to);
  };

  useEffect(() => {
    history.replaceState(null, '', urlOfPlace(place));
    const onPop = () => setPlace(placeOfUrl(todayIn(desk.tz)));
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);

  const countUnread = async () => {
    if (!isOwner) return;
    const answer = await call(() => api.GET('/salon-notices', { params: { query: { unread: true, limit: 1 } } }));
    if (answer.ok) setUnread(answer.data.meta.total);
  };

  useEffect(() => {
    void countUnread();
    return followChanges((change: LiveChange) => {
      setLive((l) => ({ tick: l.tick + 1, bookingIds: change.bookingIds }));
      if (change.notices || change.others) void countUnread();
    }, setLiveUp);
  }, []);

  const signOut = async () => {
    stopRefreshing();
    await plainCall(() => api.POST('/auth/logout'));
    onSignedOut();
  };

  const browserZone = (() => {
    try {
      const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      return zone && zone !== desk.tz ? zone : null;
    } catch {
      return null;
    }
  })();

  const views: { view: View; label: string }[] = [
    { view: 'day', label: t('navDay') },
    { view: 'week', label: t('navWeek') },
    { view: 'customers', label: t('navCustomers') },
    ...(isOwner ? [{ view: 'notices' as View, label: t('navNotices') }] : []),
  ];

  return (
    <DeskContext.Provider value={desk}>
      <a class="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      <header class="bar">
        <h1>
          {desk.salon.name} <span class="app">{t('appName')}</span>
        </h1>
        <nav aria-label={t('mainNav')}>
          <ul>
            {views.map((v) => (
              <li key={v.view}>
                <a
                  href={urlOfPlace({ ...place, view: v.view })}
                  aria-current={place.view === v.view ? 'page' : undefined}
                  onClick={(e) => {
                    e.preventDefault();
                    go({ view: v.view });
                  }}
                >
                  {v.label}
                  {v.view === 'notices' && unread > 0 && (
                    <span class="badge" aria-label={t('unreadNotices', { n: unread })}>
                      {unread}
                    </span>
                  )}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="account">
          <span>{t('signedInAs', { name: desk.me.name ?? desk.me.email ?? '', role: t(`role${desk.me.role}`) })}</span>
          <LanguageSwitch lang={lang} />
          <button type="button" class="secondary" onClick={() => void signOut()}>
            {t('signOut')}
          </button>
        </div>
      </header>
      <main id="main" ref={mainRef} tabIndex={-1}>
        <p class="zone">
          {t('timeZoneNote', { zone: desk.tz })}
          {browserZone && ` ${t('timeZoneDiffers', { zone: desk.tz, browserZone })}`}{' '}
          <span class={liveUp ? 'live' : 'live down'} role="status">
            {liveUp ? t('live') : t('liveLost')}
          </span>
        </p>
        {place.view === 'day' && <DayView date={place.date} live={live} onDate={(date) => go({ date })} onWeek={(staff) => go({ view: 'week', staff })} />}
        {place.view === 'week' && (
          <WeekView
            date={place.date}
            staffId={place.staff ?? desk.me.resourceId ?? desk.staff[0]?.id ?? null}
            live={live}
            onDate={(date) => go({ date })}
            onStaff={(staff) => go({ staff })}
            onDay={(date) => go({ view: 'day', date })}
          />
        )}
        {place.view === 'customers' && <Customers />}
        {place.view === 'notices' && isOwner && <Notices live={live} onRead={() => void countUnread()} />}
      </main>
    </DeskContext.Provider>
  );
}
