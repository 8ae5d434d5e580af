// Demo data for `npm start`: when the database has no tenant at all, one demo salon is created so a
// new user can try the API at once. Idempotent: with any tenant present it does nothing, and a
// transaction-scoped advisory lock keeps two processes starting at once from both seeding.
//
//   const result = await seedDemoSalon(knex);           // knex with knexSnakeCaseMappers (db/knex.ts)
//   if (result.created) console.log(`Demo owner: ${result.owner.email} / ${result.owner.password}`);
//
// Everything is written with the given knex (no global Objection binding), in one transaction.
import type { Knex } from 'knex';
import { hashPassword } from '../auth/passwords';
import { completeSettings, defaultBusinessHours } from '../tenant/tenant-settings.rules';
import { seedTenantDefaults } from '../tenant/tenant-defaults.service';

export const DEMO_SLUG = 'salong-nordlys';
export const DEMO_PASSWORD = 'demo1234';
export const DEMO_OWNER_EMAIL = 'eier@salong-nordlys.no';

export interface DemoLogin {
  name: string;
  email: string;
  password: string;
  role: 'OWNER' | 'STAFF';
}

export type DemoSeedResult =
  | { created: false }
  | { created: true; tenantId: string; slug: string; owner: DemoLogin; staff: DemoLogin[] };

const SEED_LOCK_KEY = 4_220_011; // any constant shared by every process that seeds

interface DemoService {
  name: string;
  description: string;
  duration: number;
  price: number;
}

const CATALOGUE: { category: string; services: DemoService[] }[] = [
  {
    category: 'Hår',
    services: [
      { name: 'Dameklipp', description: 'Vask, klipp og føn.', duration: 60, price: 69900 },
      { name: 'Herreklipp', description: 'Klipp med maskin og saks, inkludert vask.', duration: 30, price: 44900 },
      { name: 'Farge og striper', description: 'Helfarge eller striper, inkludert klipp og styling.', duration: 120, price: 149900 },
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
    hours: [['09:00', '12:00'], ['12:30', '17:00']],
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

export async function seedDemoSalon(knex: Knex, options: { passwordHashRounds?: number } = {}): Promise<DemoSeedResult> {
  const rounds = options.passwordHashRounds ?? 10;
  return knex.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(?)', [SEED_LOCK_KEY]);
    const anyTenant = await trx('tenants').first('id');
    if (anyTenant) return { created: false } as const;

    const passwordHash = await hashPassword(DEMO_PASSWORD, rounds);
    // deposits are off, but set to 20 %: switching them on is one PATCH (npm start gives the salon a sandbox payment config)
    const settings = completeSettings('beauty', { organizationName: 'Salong Nordlys AS', depositType: 'percentage', depositValue: 20 });
    const [tenant] = await trx('tenants')
      .insert({
        name: 'Salong Nordlys',
        slug: DEMO_SLUG,
        industryType: 'beauty',
        settings: JSON.stringify(settings),
        branding: JSON.stringify({ primaryColor: '#5E35B1', secondaryColor: '#FFB300' }),
        description: '<p>Frisør, negler og vipper midt i Oslo. Demosalong.</p>',
        address: JSON.stringify({ street: 'Karl Johans gate 1', city: 'Oslo', postalCode: '0154', country: 'NO', latitude: 59.9111, longitude: 10.7503 }),
        onboardedAt: new Date(),
      })
      .returning(['id', 'industryType']);
    await seedTenantDefaults(trx, { id: tenant.id, industryType: tenant.industryType });

    await trx('users').insert({ tenantId: tenant.id, role: 'OWNER', email: DEMO_OWNER_EMAIL, phone: '+4791000000', name: 'Eva Nordlys', passwordHash });

    const serviceIds = new Map<string, string>();
    for (const [i, group] of CATALOGUE.entries()) {
      const [category] = await trx('serviceCategories').insert({ tenantId: tenant.id, name: group.category, sortOrder: i + 1 }).returning('id');
      for (const [j, svc] of group.services.entries()) {
        const [row] = await trx('services')
          .insert({ tenantId: tenant.id, ...svc, currency: settings.currency, categoryId: category.id, sortOrder: j + 1, metadata: JSON.stringify({}) })
          .returning('id');
        serviceIds.set(svc.name, row.id);
      }
    }

    for (const [i, member] of STAFF.entries()) {
      const [user] = await trx('users')
        .insert({ tenantId: tenant.id, role: 'STAFF', email: member.email, phone: member.phone, name: member.name, passwordHash })
        .returning('id');
      const [resource] = await trx('resources')
        .insert({
          tenantId: tenant.id,
          type: 'staff',
          name: member.name,
          color: member.color,
          sortOrder: i + 1,
          metadata: JSON.stringify({ jobTitle: member.jobTitle, phone: member.phone, email: member.email, commission: 40 }),
          userId: user.id,
        })
        .returning('id');
      await trx('resourceSkills').insert(member.skills.map((name) => ({ resourceId: resource.id, serviceId: serviceIds.get(name)!, tenantId: tenant.id })));
      const slots = member.days.flatMap((dayOfWeek) =>
        member.hours.map((h) => clip(dayOfWeek, h)).filter((h): h is [string, string] => h !== null).map(([startTime, endTime]) => ({ dayOfWeek, startTime, endTime })),
      );
      await trx('resourceSchedules').insert(slots.map((slot) => ({ resourceId: resource.id, tenantId: tenant.id, ...slot, isActive: true })));
    }
    await trx('resources').insert({ tenantId: tenant.id, type: 'room', name: 'Behandlingsrom', sortOrder: 10, isBookableOnline: false, metadata: JSON.stringify({}) });

    return {
      created: true,
      tenantId: tenant.id,
      slug: DEMO_SLUG,
      owner: { name: 'Eva Nordlys', email: DEMO_OWNER_EMAIL, password: DEMO_PASSWORD, role: 'OWNER' },
      staff: STAFF.map((m) => ({ name: m.name, email: m.email, password: DEMO_PASSWORD, role: 'STAFF' as const })),
    } as const;
  });
}
