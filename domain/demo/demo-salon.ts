// Demo data for `npm start`: when the database has no tenant at all, one demo salon is created so a
// new user can try the API at once. Idempotent: with any tenant present it does nothing, and a
// transaction-scoped advisory lock keeps two processes starting at once from both seeding.
//
//   const result = await seedDemoSalon(db);              // the pool (db/knex.ts)
//   if (result.created) console.log(`Demo owner: ${result.owner.email} / ${result.owner.password}`);
//
// Everything is written through the owning modules' repositories, in one transaction.
import type { Db } from '../../db/db-handle';
import { advisoryTransactionLock } from '../../db/advisory-locks';
import { nowOf, type Clock } from '../time/clock';
import { hashPassword } from '../users/passwords';
import { insertUser } from '../users/user.repository';
import { anyTenantExists, insertTenant } from '../tenant/tenant.repository';
import { insertCategory, insertService } from '../catalogue/catalogue.repository';
import { insertResource, insertSkills } from '../resource/resource.repository';
import { writeWeek } from '../resource/schedule.repository';
import { completeSettings, defaultBusinessHours } from '../tenant/tenant-settings.rules';
import { phaseMinutes, storedPhases, type ResourceRequirement, type ServicePhase } from '../catalogue/service-shape.rules';
import { seedTenantDefaults } from '../tenant/tenant-defaults.service';

export const DEMO_SLUG = 'salong-nordlys';
export const DEMO_PASSWORD = 'nordlys-demo';
export const DEMO_OWNER_EMAIL = 'eier@salong-nordlys.no';

export interface DemoLogin {
  name: string;
  email: string;
  password: string;
  role: 'OWNER' | 'STAFF';
}

export type DemoSeedResult = { created: false } | { created: true; tenantId: string; slug: string; owner: DemoLogin; staff: DemoLogin[] };

const SEED_LOCK_KEY = 4_220_011; // any constant shared by every process that seeds

interface DemoService {
  name: string;
  description: string;
  duration: number;
  price: number;
  /** processing time, buffers and equipment (docs/rules/catalogue.md#phases-buffers-and-rooms); unset: one work phase */
  phases?: ServicePhase[];
  bufferAfterMinutes?: number;
  resourceRequirements?: ResourceRequirement[];
}

/**
 * The colour: application, the colour developing while the client sits at the colour station (the
 * stylist is free for another client), then rinse, cut and finish; ten minutes to clean up after.
 */
const COLOUR_PHASES: ServicePhase[] = [
  { kind: 'WORK', minutes: 45 },
  { kind: 'PROCESSING', minutes: 35 },
  { kind: 'WORK', minutes: 40 },
];

const CATALOGUE: { category: string; services: DemoService[] }[] = [
  {
    category: 'Hår',
    services: [
      { name: 'Dameklipp', description: 'Vask, klipp og føn.', duration: 60, price: 69900 },
      { name: 'Herreklipp', description: 'Klipp med maskin og saks, inkludert vask.', duration: 30, price: 44900 },
      {
        name: 'Farge og striper',
        description: 'Helfarge eller striper, inkludert klipp og styling.',
        duration: phaseMinutes(COLOUR_PHASES),
        price: 149900,
        phases: COLOUR_PHASES,
        bufferAfterMinutes: 10,
        resourceRequirements: [{ resourceType: 'equipment', phases: [1] }],
      },
    ],
  },
  {
    category: 'Negler',
    services: [
      { name: 'Manikyr', description: 'Fil, neglebånd og lakk.', duration: 45, price: 59900 },
      { name: 'Gellakk', description: 'Holdbar gellakk på hender.', duration: 60, price: 69900 },
    ],
  },
  {
    category: 'Vipper og bryn',
    services: [
      { name: 'Brynsforming', description: 'Forming med voks og pinsett.', duration: 20, price: 29900 },
      { name: 'Vippefarging', description: 'Farging av vipper.', duration: 20, price: 24900 },
    ],
  },
];

const STAFF: { name: string; email: string; phone: string; jobTitle: string; color: string; skills: string[]; days: number[]; hours: [string, string][] }[] = [
  {
    name: 'Ingrid Hansen',
    email: 'ingrid@salong-nordlys.no',
    phone: '+4791000001',
    jobTitle: 'Frisør',
    color: '#C2185B',
    skills: ['Dameklipp', 'Herreklipp', 'Farge og striper'],
    days: [1, 2, 3, 4, 5],
    hours: [
      ['09:00', '12:00'],
      ['12:30', '17:00'],
    ],
  },
  {
    name: 'Lars Johansen',
    email: 'lars@salong-nordlys.no',
    phone: '+4791000002',
    jobTitle: 'Barber',
    color: '#1565C0',
    skills: ['Herreklipp', 'Dameklipp'],
    days: [2, 3, 4, 5, 6],
    hours: [['09:00', '17:00']],
  },
  {
    name: 'Sofie Berg',
    email: 'sofie@salong-nordlys.no',
    phone: '+4791000003',
    jobTitle: 'Negletekniker',
    color: '#2E7D32',
    skills: ['Manikyr', 'Gellakk', 'Brynsforming', 'Vippefarging'],
    days: [1, 3, 5, 6],
    hours: [['10:00', '17:00']],
  },
];

/** Salon-local slot clipped to the business hours of that day (Saturday closes at 15:00). */
function clip(day: number, [start, end]: [string, string]): [string, string] | null {
  const hours = defaultBusinessHours().find((d) => d.dayOfWeek === day);
  if (!hours?.isOpen || hours.slots.length === 0) return null;
  const open = hours.slots[0];
  const s = start < open.startTime ? open.startTime : start;
  const e = end > open.endTime ? open.endTime : end;
  return e > s ? [s, e] : null;
}

/** What a resource row of the demo starts with (the database's defaults, spelled out for the repository). */
const RESOURCE_DEFAULTS = { imageKey: null, avatarKey: null, description: null, isActive: true, isBookableOnline: true, userId: null } as const;

/** `now` (unset: the system clock) stamps the demo salon's onboarding. */
export async function seedDemoSalon(db: Db, options: { passwordHashRounds?: number; now?: Clock } = {}): Promise<DemoSeedResult> {
  const rounds = options.passwordHashRounds ?? 10;
  return db.transaction(async (trx) => {
    await advisoryTransactionLock(trx, SEED_LOCK_KEY);
    if (await anyTenantExists(trx)) return { created: false } as const;

    const passwordHash = await hashPassword(DEMO_PASSWORD, rounds);
    // deposits are off, but set to 20 %: switching them on is one PATCH (npm start gives the salon a sandbox payment config)
    const settings = completeSettings('beauty', { organizationName: 'Salong Nordlys AS', depositType: 'percentage', depositValue: 20 });
    const tenant = await insertTenant(trx, {
      name: 'Salong Nordlys',
      slug: DEMO_SLUG,
      industryType: 'beauty',
      settings,
      branding: { primaryColor: '#5E35B1', secondaryColor: '#FFB300' },
      description: '<p>Frisør, negler og vipper midt i Oslo. Demosalong.</p>',
      address: { street: 'Karl Johans gate 1', city: 'Oslo', postalCode: '0154', country: 'NO', latitude: 59.9111, longitude: 10.7503 },
      contactPhone: '+4722000000',
      contactEmail: 'post@salong-nordlys.no',
      // seeded ready: services, staff with schedules and skills, business hours (docs/rules/salon.md#launch)
      onboardedAt: nowOf(options),
      launchedAt: nowOf(options),
    });
    await seedTenantDefaults(trx, { id: tenant.id, industryType: tenant.industryType });

    await insertUser(trx, { tenantId: tenant.id, role: 'OWNER', email: DEMO_OWNER_EMAIL, phone: '+4791000000', name: 'Eva Nordlys', passwordHash });

    const serviceIds = new Map<string, string>();
    for (const [i, group] of CATALOGUE.entries()) {
      const category = await insertCategory(trx, { tenantId: tenant.id, name: group.category, sortOrder: i + 1 });
      for (const [j, { phases, bufferAfterMinutes, resourceRequirements, ...svc }] of group.services.entries()) {
        const row = await insertService(trx, {
          tenantId: tenant.id,
          ...svc,
          phases: phases ? storedPhases(phases) : null,
          bufferBeforeMinutes: 0,
          bufferAfterMinutes: bufferAfterMinutes ?? 0,
          resourceRequirements: resourceRequirements ?? [],
          currency: settings.currency,
          categoryId: category.id,
          accountingAccountId: null,
          isActive: true,
          sortOrder: j + 1,
          metadata: {},
          imageKey: null,
        });
        serviceIds.set(svc.name, row.id);
      }
    }

    for (const [i, member] of STAFF.entries()) {
      const userId = await insertUser(trx, { tenantId: tenant.id, role: 'STAFF', email: member.email, phone: member.phone, name: member.name, passwordHash });
      const resource = await insertResource(trx, {
        ...RESOURCE_DEFAULTS,
        tenantId: tenant.id,
        type: 'staff',
        name: member.name,
        color: member.color,
        sortOrder: i + 1,
        metadata: { jobTitle: member.jobTitle, phone: member.phone, email: member.email, commission: 40 },
        userId,
      });
      await insertSkills(
        trx,
        tenant.id,
        resource.id,
        member.skills.map((name) => serviceIds.get(name)!),
      );
      const slots = member.days.flatMap((dayOfWeek) =>
        member.hours
          .map((h) => clip(dayOfWeek, h))
          .filter((h): h is [string, string] => h !== null)
          .map(([startTime, endTime]) => ({ dayOfWeek, startTime, endTime, isActive: true })),
      );
      await writeWeek(trx, tenant.id, resource.id, slots, false);
    }
    await insertResource(trx, {
      ...RESOURCE_DEFAULTS,
      tenantId: tenant.id,
      type: 'room',
      name: 'Behandlingsrom',
      color: null,
      sortOrder: 10,
      isBookableOnline: false,
      metadata: {},
    });
    // the salon's one colour station: a colour's processing phase needs it (docs/rules/catalogue.md#phases-buffers-and-rooms)
    const station = await insertResource(trx, {
      ...RESOURCE_DEFAULTS,
      tenantId: tenant.id,
      type: 'equipment',
      name: 'Fargestasjon',
      color: null,
      sortOrder: 11,
      isBookableOnline: false,
      metadata: {},
    });
    await insertSkills(trx, tenant.id, station.id, [serviceIds.get('Farge og striper')!]);

    return {
      created: true,
      tenantId: tenant.id,
      slug: DEMO_SLUG,
      owner: { name: 'Eva Nordlys', email: DEMO_OWNER_EMAIL, password: DEMO_PASSWORD, role: 'OWNER' },
      staff: STAFF.map((m) => ({ name: m.name, email: m.email, password: DEMO_PASSWORD, role: 'STAFF' as const })),
    } as const;
  });
}
