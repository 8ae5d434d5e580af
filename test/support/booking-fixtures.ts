// Test data for availability and bookings: a salon open every day 09:00-17:00 (salon-local), a
// service, and staff resources with a STAFF login, the skill and a weekly schedule matching the
// business hours. Rows are written with knex directly (the catalogue/resource routes are other areas).
import { stack } from './stack';
import { createSalon, createUser, unique, type TestSalon, type TestUser } from './factories';
import type { TenantSettings } from '../../domain/tenant/tenant-settings.rules';
import { addDays, localToUtc, utcToLocalDate } from '../../domain/time/salon-time.rules';

export const ALL_WEEK = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, isOpen: true, slots: [{ startTime: '09:00', endTime: '17:00' }] }));

export interface TestStaff {
  resourceId: string;
  user: TestUser;
}

export interface BookingSalon extends TestSalon {
  serviceId: string;
  /** 60 minutes, 50000 minor units */
  service: { id: string; duration: number; price: number };
  staff: TestStaff[];
  tz: string;
}

export async function knex() {
  return (await stack()).platform.knex;
}

export async function addService(
  tenantId: string,
  fields: Partial<{ name: string; duration: number; price: number; isActive: boolean; categoryId: string | null; sortOrder: number }> = {},
) {
  const db = await knex();
  const [row] = await db('services')
    .insert({
      tenantId,
      name: fields.name ?? unique('Cut'),
      duration: fields.duration ?? 60,
      price: fields.price ?? 50000,
      currency: 'NOK',
      isActive: fields.isActive ?? true,
      categoryId: fields.categoryId ?? null,
      sortOrder: fields.sortOrder ?? 0,
    })
    .returning(['id', 'duration', 'price']);
  return row as { id: string; duration: number; price: number };
}

/** The colour of docs/rules/catalogue.md#phases-buffers-and-rooms: 30 minutes of application, 35 developing at the colour station, 25 of rinse and finish. */
export const COLOUR_PHASES = [
  { kind: 'WORK', minutes: 30 },
  { kind: 'PROCESSING', minutes: 35 },
  { kind: 'WORK', minutes: 25 },
] as const;

/** A service with phases, buffers and rooms or equipment, written as the catalogue stores it (rows, like addService). */
export async function addPhasedService(
  tenantId: string,
  fields: {
    name?: string;
    price?: number;
    phases?: readonly { kind: string; minutes: number }[];
    bufferBeforeMinutes?: number;
    bufferAfterMinutes?: number;
    resourceRequirements?: { resourceType: 'room' | 'equipment'; phases: number[] | null }[];
  } = {},
) {
  const phases = fields.phases ?? COLOUR_PHASES;
  const duration = phases.reduce((sum, p) => sum + p.minutes, 0);
  const [row] = await (
    await knex()
  )('services')
    .insert({
      tenantId,
      name: fields.name ?? unique('Colour'),
      duration,
      price: fields.price ?? 120000,
      currency: 'NOK',
      phases: JSON.stringify(phases),
      bufferBeforeMinutes: fields.bufferBeforeMinutes ?? 0,
      bufferAfterMinutes: fields.bufferAfterMinutes ?? 0,
      resourceRequirements: JSON.stringify(fields.resourceRequirements ?? [{ resourceType: 'equipment', phases: [1] }]),
    })
    .returning(['id', 'duration', 'price']);
  return row as { id: string; duration: number; price: number };
}

/** A room or piece of equipment, suitable for the services given (their skill), there whenever the salon is open. */
export async function addRoom(
  tenantId: string,
  serviceIds: string[],
  fields: Partial<{ type: 'room' | 'equipment'; name: string; sortOrder: number }> = {},
): Promise<string> {
  const db = await knex();
  const [resource] = await db('resources')
    .insert({ tenantId, type: fields.type ?? 'equipment', name: fields.name ?? unique('Station'), isBookableOnline: false, sortOrder: fields.sortOrder ?? 100 })
    .returning('id');
  if (serviceIds.length) await db('resource_skills').insert(serviceIds.map((serviceId) => ({ tenantId, resourceId: resource.id, serviceId })));
  return resource.id as string;
}

export async function addStaff(
  tenantId: string,
  serviceIds: string[],
  fields: Partial<{
    name: string;
    isActive: boolean;
    isBookableOnline: boolean;
    sortOrder: number;
    withLogin: boolean;
    schedule: { startTime: string; endTime: string } | null;
  }> = {},
): Promise<TestStaff> {
  const db = await knex();
  const user = fields.withLogin === false ? null : await createUser(tenantId, 'STAFF');
  const [resource] = await db('resources')
    .insert({
      tenantId,
      name: fields.name ?? unique('Staff'),
      isActive: fields.isActive ?? true,
      isBookableOnline: fields.isBookableOnline ?? true,
      sortOrder: fields.sortOrder ?? 0,
      userId: user?.id ?? null,
    })
    .returning('id');
  if (serviceIds.length) await db('resource_skills').insert(serviceIds.map((serviceId) => ({ tenantId, resourceId: resource.id, serviceId })));
  const schedule = fields.schedule === undefined ? { startTime: '09:00', endTime: '17:00' } : fields.schedule;
  if (schedule) {
    await db('resource_schedules').insert(
      [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ tenantId, resourceId: resource.id, dayOfWeek, ...schedule, isActive: true })),
    );
  }
  return { resourceId: resource.id, user: user as TestUser };
}

export async function bookingSalon(options: { settings?: Partial<TenantSettings>; staff?: number } = {}): Promise<BookingSalon> {
  const salon = await createSalon({ settings: { businessHours: ALL_WEEK, ...options.settings } });
  const service = await addService(salon.tenant.id);
  const staff: TestStaff[] = [];
  for (let i = 0; i < (options.staff ?? 1); i++) staff.push(await addStaff(salon.tenant.id, [service.id], { sortOrder: i }));
  return { ...salon, serviceId: service.id, service, staff, tz: salon.tenant.settings.timezone };
}

/** Salon-local date `days` from today. */
export function localDay(days: number, tz = 'Europe/Oslo'): string {
  return addDays(utcToLocalDate(new Date(), tz), days);
}

/** UTC ISO of a salon-local date and time. */
export function at(date: string, time: string, tz = 'Europe/Oslo'): string {
  return localToUtc(date, time, tz).toISOString();
}

export interface ColourSalon extends BookingSalon {
  /** the colour: 30 minutes of work, 35 processing at the colour station, 25 of work */
  colourId: string;
  /** the salon's one colour station */
  stationId: string;
}

/** A booking salon whose `staff` stylists cut (30 minutes, `serviceId`) and colour, with ONE colour station for the colour's processing. */
export async function colourSalon(staff = 2, options: Parameters<typeof bookingSalon>[0] = {}): Promise<ColourSalon> {
  const s = await bookingSalon({ ...options, staff });
  const db = await knex();
  await db('services').where({ id: s.serviceId }).update({ duration: 30 });
  const colour = await addPhasedService(s.tenant.id);
  await db('resource_skills').insert(s.staff.map((m) => ({ tenantId: s.tenant.id, resourceId: m.resourceId, serviceId: colour.id })));
  const stationId = await addRoom(s.tenant.id, [colour.id], { name: 'Fargestasjon' });
  return { ...s, service: { ...s.service, duration: 30 }, colourId: colour.id, stationId };
}
