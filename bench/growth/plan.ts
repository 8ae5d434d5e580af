// The shape of the platform bench:growth builds, decided in TypeScript from the seed before a row is
// written: how many salons, how big each is, and the catalogue every salon offers. The loader
// (bench/growth/database.ts) turns it into rows in Postgres; every id is md5(seed, table, number) so the
// same seed gives the same rows, and the routes part finds its salon, staff and customers by number.
import crypto from 'node:crypto';

export interface Scale {
  salons: number;
  customers: number;
  bookings: number;
  /** the measured salon's own size, when it is not its share of the platform (the same salon on a small platform) */
  measured?: { bookings: number; customers: number };
}

export const ISSUE_SCALE: Scale = { salons: 1_000, customers: 1_000_000, bookings: 5_000_000 };

/** Days of history before today, and days ahead of it, the bookings cover. */
export const DAYS_PAST = 3 * 365;
export const DAYS_AHEAD = 31;
/** Hour-long slots per staff member and day (09:00-17:00, salon-local), every day of the week. */
export const SLOTS_PER_DAY = 8;
export const FIRST_HOUR = 9;
export const ROOMS = 2;
export const TIMEZONE = 'Europe/Oslo';
/** The salon the routes are measured on: the biggest (this share of every booking and customer, or a fair share when the salons are few). */
export const MEASURED_SHARE = 0.015;
export const MEASURED_STAFF = 15;

export interface PlannedService {
  no: number;
  name: string;
  price: number;
  phases: { kind: 'WORK' | 'PROCESSING'; minutes: number }[];
  /** needs a room for the whole service */
  room: boolean;
}

/** Services 0-3 last 30 minutes (two of them make a two-item booking); 4, 5 and 7 have a processing phase; 6 needs a room. */
export const SERVICES: PlannedService[] = [
  { no: 0, name: 'Klipp', price: 59900, phases: [{ kind: 'WORK', minutes: 30 }], room: false },
  { no: 1, name: 'Vask og føn', price: 39900, phases: [{ kind: 'WORK', minutes: 30 }], room: false },
  { no: 2, name: 'Skjeggstell', price: 29900, phases: [{ kind: 'WORK', minutes: 30 }], room: false },
  { no: 3, name: 'Barneklipp', price: 34900, phases: [{ kind: 'WORK', minutes: 30 }], room: false },
  {
    no: 4,
    name: 'Farge',
    price: 109900,
    phases: [
      { kind: 'WORK', minutes: 20 },
      { kind: 'PROCESSING', minutes: 25 },
      { kind: 'WORK', minutes: 15 },
    ],
    room: false,
  },
  {
    no: 5,
    name: 'Striper',
    price: 129900,
    phases: [
      { kind: 'WORK', minutes: 30 },
      { kind: 'PROCESSING', minutes: 20 },
      { kind: 'WORK', minutes: 10 },
    ],
    room: false,
  },
  { no: 6, name: 'Ansiktsbehandling', price: 89900, phases: [{ kind: 'WORK', minutes: 45 }], room: true },
  {
    no: 7,
    name: 'Permanent',
    price: 149900,
    phases: [
      { kind: 'WORK', minutes: 25 },
      { kind: 'PROCESSING', minutes: 25 },
      { kind: 'WORK', minutes: 10 },
    ],
    room: false,
  },
];

export interface PlannedSalon {
  no: number;
  staff: number;
  bookings: number;
  bookingOffset: number;
  customers: number;
  customerOffset: number;
}

/** A small deterministic generator (mulberry32): the plan's choices from the seed. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Splits `total` by `weights` into integers that add up to `total`, each at least `min`. */
function split(total: number, weights: number[], min: number): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const parts = weights.map((w) => Math.max(min, Math.floor((total * w) / sum)));
  let rest = total - parts.reduce((a, b) => a + b, 0);
  for (let i = 0; rest > 0; i = (i + 1) % parts.length, rest--) parts[i]++;
  return parts;
}

/**
 * Salon 1 is the measured one (MEASURED_STAFF staff, MEASURED_SHARE of the bookings and customers);
 * the others have 3-10 staff and their bookings and customers in proportion to their staff.
 */
export function planSalons(scale: Scale, seed: number): PlannedSalon[] {
  const random = generator(seed);
  const staff = Array.from({ length: scale.salons }, (_, i) => (i === 0 ? MEASURED_STAFF : 3 + Math.floor(random() * 8)));
  const measuredShare = Math.max(MEASURED_SHARE, 1 / scale.salons);
  const otherStaff = staff.slice(1).reduce((a, b) => a + b, 0);
  const weights = staff.map((s, i) => (i === 0 ? (otherStaff * measuredShare) / (1 - measuredShare) || 1 : s));
  const { measured } = scale;
  const bookings = measured ? [measured.bookings, ...split(scale.bookings - measured.bookings, weights.slice(1), 1)] : split(scale.bookings, weights, 1);
  const customers = measured ? [measured.customers, ...split(scale.customers - measured.customers, weights.slice(1), 1)] : split(scale.customers, weights, 1);
  let bookingOffset = 0;
  let customerOffset = 0;
  return staff.map((s, i) => {
    const salon = { no: i + 1, staff: s, bookings: bookings[i], bookingOffset, customers: customers[i], customerOffset };
    bookingOffset += bookings[i];
    customerOffset += customers[i];
    const capacity = s * (DAYS_PAST + DAYS_AHEAD) * SLOTS_PER_DAY;
    if (salon.bookings > capacity)
      throw new Error(`salon ${salon.no}: ${salon.bookings} bookings do not fit ${capacity} slots (fewer --bookings or more --salons)`);
    return salon;
  });
}

/** The SQL of a stable id: md5 of the seed, the kind of row and its number(s). */
export function idSql(seed: number, kind: string, ...numbers: string[]): string {
  return `md5('${seed}:${kind}:' || ${numbers.join(` || ':' || `)})::uuid`;
}

/** The same id computed in TypeScript, for the routes part (it finds rows by number). */
export function idOf(seed: number, kind: string, ...numbers: number[]): string {
  const hex = crypto
    .createHash('md5')
    .update(`${seed}:${kind}:${numbers.join(':')}`)
    .digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const slugOf = (salonNo: number) => `growth-${String(salonNo).padStart(4, '0')}`;
export const phoneOf = (customerNo: number) => `+479${String(customerNo).padStart(7, '0')}`;
export const FIRST_NAMES = [
  'Ola',
  'Kari',
  'Nora',
  'Emma',
  'Jakob',
  'Sofie',
  'Lukas',
  'Ingrid',
  'Filip',
  'Sara',
  'Henrik',
  'Maja',
  'Emil',
  'Ella',
  'Noah',
  'Leah',
];
export const LAST_NAMES = [
  'Hansen',
  'Johansen',
  'Olsen',
  'Larsen',
  'Andersen',
  'Pedersen',
  'Nilsen',
  'Kristiansen',
  'Jensen',
  'Karlsen',
  'Johnsen',
  'Pettersen',
];
/** The customer's name: first and last from the lists by number, and the number, so a name search finds a few. */
export const nameOf = (customerNo: number) =>
  `${FIRST_NAMES[customerNo % FIRST_NAMES.length]} ${LAST_NAMES[Math.floor(customerNo / FIRST_NAMES.length) % LAST_NAMES.length]} ${customerNo}`;
