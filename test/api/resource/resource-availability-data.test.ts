import { expect } from 'chai';
import { stack } from '../../support/stack';
import { salonWithRoles, type RoleSalon } from '../../support/salon-roles';
import { unique } from '../../support/factories';
import { loadResourceAvailability } from '../../../domain/availability/availability-data.service';
import { computeAvailability } from '../../../domain/availability';
import { defaultBusinessHours } from '../../../domain/tenant/tenant-settings.rules';

describe('loadResourceAvailability (read side for the availability engine)', () => {
  let s: RoleSalon;
  let svc: string;
  let kari: string;
  let ola: string;
  let inactive: string;
  before(async () => {
    s = await salonWithRoles();
    svc = (await s.as('OWNER', 'post', '/services', { name: unique('Klipp'), duration: 60, price: 50000 })).body.data.id;
    const mk = async (fields: Record<string, unknown>) => (await s.as('OWNER', 'post', '/resources', { name: unique('R'), ...fields })).body.data.id as string;
    kari = await mk({ name: 'Kari', sortOrder: 1, serviceIds: [svc] });
    ola = await mk({ name: 'Ola', sortOrder: 2, serviceIds: [svc], isBookableOnline: false });
    inactive = await mk({ name: 'Borte', isActive: false, serviceIds: [svc] });
    await mk({ name: 'Uten ferdighet' });
    for (const id of [kari, ola]) {
      await s.as('OWNER', 'post', `/resources/${id}/schedules/bulk`, {
        schedules: [1, 2, 3, 4, 5].map((d) => ({ dayOfWeek: d, startTime: '09:00', endTime: '17:00' })),
      });
    }
    await s.as('OWNER', 'post', `/resources/${kari}/schedule-overrides`, { date: '2030-03-05', startTime: '12:00', endTime: '14:00' });
    await s.as('OWNER', 'post', `/resources/${kari}/schedule-overrides`, { date: '2030-04-01' });
    await s.as('OWNER', 'post', `/resources/${ola}/time-offs`, { type: 'vacation', startDate: '2030-03-01', endDate: '2030-03-10' });
    await s.as('OWNER', 'post', `/resources/${ola}/time-offs`, { type: 'sick', startDate: '2030-03-05', endDate: '2030-03-05', isApproved: false });
    await s.as('OWNER', 'post', `/resources/${ola}/time-offs`, { type: 'other', startDate: '2030-03-20', endDate: '2030-03-20' });
  });

  it('when asked by service then active qualified resources come in sortOrder with schedule, in-range overrides and approved time-off', async () => {
    const { knex } = (await stack()).platform;
    const data = await loadResourceAvailability(knex, s.tenant.id, { serviceIds: [svc] }, { dateFrom: '2030-03-05', dateTo: '2030-03-06' });
    expect(data.map((r) => r.id)).to.deep.equal([kari, ola]);
    const [k, o] = data;
    expect(k.skills).to.deep.equal([svc]);
    expect(k.weeklySchedule).to.have.length(5);
    expect(k.weeklySchedule[0]).to.deep.equal({ dayOfWeek: 1, startTime: '09:00', endTime: '17:00', isActive: true });
    expect(k.overrides).to.deep.equal([{ date: '2030-03-05', startTime: '12:00', endTime: '14:00' }]);
    expect(o.isBookableOnline).to.equal(false);
    expect(o.timeOff).to.deep.equal([{ startDate: '2030-03-01', endDate: '2030-03-10', startTime: null, endTime: null, isApproved: true }]);
    expect(o.bookings).to.deep.equal([]);
  });

  it('when asked by ids then only those of this tenant come back; inactive ones only on request', async () => {
    const { knex } = (await stack()).platform;
    const other = await salonWithRoles();
    const range = { dateFrom: '2030-03-01', dateTo: '2030-03-31' };
    expect(await loadResourceAvailability(knex, other.tenant.id, { resourceIds: [kari] }, range)).to.deep.equal([]);
    expect(await loadResourceAvailability(knex, s.tenant.id, { resourceIds: [inactive] }, range)).to.deep.equal([]);
    const withInactive = await loadResourceAvailability(knex, s.tenant.id, { resourceIds: [inactive, ola] }, range, { activeOnly: false });
    expect(withInactive.map((r) => r.id).sort()).to.deep.equal([inactive, ola].sort());
    expect(withInactive.find((r) => r.id === ola)!.timeOff).to.have.length(2);
  });

  it('when the result is fed to computeAvailability then the override and the vacation shape the slots', async () => {
    const { knex } = (await stack()).platform;
    const resources = await loadResourceAvailability(knex, s.tenant.id, { serviceIds: [svc] }, { dateFrom: '2030-03-05', dateTo: '2030-03-06' });
    const result = computeAvailability({
      timezone: 'Europe/Oslo',
      now: new Date('2030-03-01T00:00:00Z'),
      date: '2030-03-05',
      businessHours: defaultBusinessHours(),
      maxBookingDaysInAdvance: null,
      slotIntervalMinutes: 60,
      items: [{ serviceId: svc, durationMinutes: 60 }],
      resources,
    });
    expect(result.ok).to.equal(true);
    if (!result.ok) return;
    expect(result.slots.map((slot) => slot.localTime)).to.deep.equal(['12:00', '13:00']);
    expect(result.slots.every((slot) => slot.items[0].freeResourceIds.join() === kari)).to.equal(true);
  });
});
