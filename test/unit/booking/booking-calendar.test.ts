import { expect } from 'chai';
import { addressLine, bookingCalendar, bookingUid, calendarMethodFor, type BookingCalendarFacts } from '../../../domain/booking/booking-calendar.service';

const facts = (changes: Partial<BookingCalendarFacts> = {}): BookingCalendarFacts => ({
  bookingId: '7f2c1c9e-3f7a-4c55-9c1e-2b7d8f1a0e11',
  sequence: 3,
  status: 'CONFIRMED',
  // 29 March 2026 is the spring DST change in Oslo: 08:00Z is 10:00 CEST
  start: new Date('2026-03-29T08:00:00.000Z'),
  end: new Date('2026-03-29T09:30:00.000Z'),
  timezone: 'Europe/Oslo',
  salonName: 'Salong Nordlys',
  location: 'Storgata 1, 0155 Oslo',
  services: ['Dameklipp', 'Brynsforming'],
  staffName: 'Ingrid',
  manageUrl: 'https://salon.example/salong-nordlys/bookings/7f2c1c9e-3f7a-4c55-9c1e-2b7d8f1a0e11?token=abc',
  uidDomain: 'salon.example',
  organizer: { name: 'Salong Nordlys', email: 'no-reply@salon.example' },
  attendee: { name: 'Kari', email: 'kari@example.com' },
  ...changes,
});

/** Unfolded content lines (RFC 5545 folds at 75 octets). */
const lines = (ics: string) => ics.replace(/\r\n[ \t]/g, '').split('\r\n');

describe('booking calendar file (iCalendar)', () => {
  it('when a booking is written then it has one VEVENT with a stable UID, its SEQUENCE, local times with the salon TZID and that zone as a VTIMEZONE', () => {
    const ics = lines(bookingCalendar(facts(), 'REQUEST'));
    expect(ics).to.include('METHOD:REQUEST');
    expect(ics).to.include(`UID:${bookingUid(facts().bookingId, 'salon.example')}`);
    expect(ics).to.include('SEQUENCE:3');
    expect(ics).to.include('DTSTART;TZID=Europe/Oslo:20260329T100000');
    expect(ics).to.include('DTEND;TZID=Europe/Oslo:20260329T113000');
    expect(ics).to.include('BEGIN:VTIMEZONE');
    expect(ics).to.include('TZID:Europe/Oslo');
    expect(ics).to.include('STATUS:CONFIRMED');
    expect(ics.filter((l) => l === 'BEGIN:VEVENT')).to.have.length(1);
    expect(ics.find((l) => l.startsWith('DTSTAMP:'))).to.match(/^DTSTAMP:\d{8}T\d{6}Z$/);
    expect(ics.find((l) => l.startsWith('ORGANIZER'))?.toLowerCase()).to.contain('mailto:no-reply@salon.example');
    expect(ics.find((l) => l.startsWith('ATTENDEE'))?.toLowerCase()).to.contain('mailto:kari@example.com');
    expect(ics.find((l) => l.startsWith('SUMMARY:'))).to.equal('SUMMARY:Dameklipp\\, Brynsforming – Salong Nordlys');
    expect(ics.find((l) => l.startsWith('LOCATION:'))).to.equal('LOCATION:Storgata 1\\, 0155 Oslo');
  });

  it('when the booking moves then the UID stays and SEQUENCE grows; a cancellation is METHOD:CANCEL with STATUS:CANCELLED', () => {
    const moved = lines(
      bookingCalendar(facts({ sequence: 4, start: new Date('2026-03-30T08:00:00.000Z'), end: new Date('2026-03-30T09:00:00.000Z') }), 'REQUEST'),
    );
    expect(moved).to.include(`UID:${bookingUid(facts().bookingId, 'salon.example')}`);
    expect(moved).to.include('SEQUENCE:4');
    expect(moved).to.include('DTSTART;TZID=Europe/Oslo:20260330T100000');
    const cancelled = lines(bookingCalendar(facts({ sequence: 5, status: 'CANCELLED' }), calendarMethodFor('CANCELLED')));
    expect(cancelled).to.include('METHOD:CANCEL');
    expect(cancelled).to.include('STATUS:CANCELLED');
    expect(cancelled).to.include('SEQUENCE:5');
  });

  it('when a file is downloaded (PUBLISH) then it has no organizer or attendee, and a pending booking is TENTATIVE', () => {
    const ics = lines(bookingCalendar(facts({ status: 'PENDING' }), 'PUBLISH'));
    expect(ics).to.include('METHOD:PUBLISH');
    expect(ics).to.include('STATUS:TENTATIVE');
    expect(ics.some((l) => l.startsWith('ORGANIZER') || l.startsWith('ATTENDEE'))).to.equal(false);
  });

  it('when the salon has an address then it becomes one line; no address, no location', () => {
    expect(addressLine({ street: 'Storgata 1', postalCode: '0155', city: 'Oslo', country: 'NO' })).to.equal('Storgata 1, 0155 Oslo');
    expect(addressLine({ city: 'Oslo' })).to.equal('Oslo');
    expect(addressLine(null)).to.equal(null);
    expect(addressLine({})).to.equal(null);
  });

  it('when names carry æøå, accents and emoji then no physical line passes 75 octets and unfolding gives the text back', () => {
    // patches/ical-generator+*.patch counts a character's UTF-8 octets without a TextEncoder per character
    const salonName = 'Frisørsalongen Æsøy på Trøndelagskysten 💇‍♀️ – Hår, Skjønnhet & Velvære for hele familien';
    const services = ['Dameklipp med vask og føhn', 'Brynsforming og vippeløft', 'Hårfarge (helfarge) – ønsket nyanse'];
    const ics = bookingCalendar(facts({ salonName, services, staffName: 'Åsa Bjørkås' }), 'REQUEST');
    for (const physical of ics.split('\r\n')) expect(Buffer.byteLength(physical, 'utf8'), physical).to.be.at.most(75);
    expect(lines(ics)).to.include(`SUMMARY:${services.join('\\, ')} – ${salonName.replace(/,/g, '\\,')}`);
    // two calendars for one zone carry the same VTIMEZONE (the component is read once per zone)
    const zone = (text: string) => text.slice(text.indexOf('BEGIN:VTIMEZONE'), text.indexOf('END:VTIMEZONE'));
    expect(zone(ics)).to.have.length.above(100);
    expect(zone(bookingCalendar(facts(), 'REQUEST'))).to.equal(zone(ics));
  });
});
