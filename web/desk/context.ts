// What every part of the front desk reads: the language and Intl locale, the salon (its zone,
// currency, slot grid), the signed-in user, and the salon's staff, rooms and services.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Lang } from '../shared/format';
import type { Resource, Service, Tenant } from './api';
import { tr, type DeskKey } from './i18n';

export interface Me {
  id: string;
  name: string | null;
  email: string | null;
  role: 'ADMIN' | 'OWNER' | 'STAFF';
  /** the staff member's own column; null for an owner without one */
  resourceId: string | null;
}

export interface Desk {
  lang: Lang;
  locale: string;
  salon: Tenant;
  tz: string;
  currency: string;
  me: Me;
  staff: Resource[];
  rooms: Resource[];
  services: Service[];
  /** the grid of offered starts and of keyboard moves, minutes */
  slot: number;
  t(key: DeskKey, values?: Record<string, string | number>): string;
}

export const DeskContext = createContext<Desk | null>(null);

export function useDesk(): Desk {
  return useContext(DeskContext)!;
}

export function deskOf(lang: Lang, locale: string, salon: Tenant, me: Me, resources: Resource[], services: Service[]): Desk {
  const active = resources.filter((r) => r.isActive);
  return {
    lang,
    locale,
    salon,
    tz: salon.settings.timezone,
    currency: salon.settings.currency,
    me,
    staff: active.filter((r) => r.type === 'staff'),
    rooms: active.filter((r) => r.type !== 'staff'),
    services: services.filter((s) => s.isActive),
    slot: salon.settings.slotIntervalMinutes || 15,
    t: (key, values) => tr(lang, key, values),
  };
}
