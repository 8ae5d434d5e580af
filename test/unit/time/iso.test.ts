import { expect } from 'chai';
import { isApiDate, isApiDateTime, parseApiDateTime, requireApiDateTime, MAX_API_YEAR, MIN_API_YEAR } from '../../../domain/time/iso';
import { AppError } from '../../../domain/errors';

describe('client dates and date-times (domain/time/iso.ts)', () => {
  it('when a date is a real calendar day in 1900-2200 then it is accepted', () => {
    for (const d of ['2026-02-28', '2028-02-29', '1900-01-01', '2200-12-31', '2026-12-31']) expect(isApiDate(d), d).to.equal(true);
  });

  it('when a date rolls over, is malformed or outside 1900-2200 then it is refused', () => {
    for (const d of [
      '2027-02-30',
      '2026-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-04-31',
      '0000-01-01',
      '1899-12-31',
      '2201-01-01',
      '9999-12-31',
      '2026-1-1',
      '20260101',
      ' 2026-01-01',
      '+010000-01-01',
    ]) {
      expect(isApiDate(d), d).to.equal(false);
    }
    expect(MIN_API_YEAR).to.equal(1900);
    expect(MAX_API_YEAR).to.equal(2200);
  });

  it('when a date-time is RFC 3339 with real parts then it parses to the right instant', () => {
    expect(parseApiDateTime('2026-06-01T10:00:00Z')!.toISOString()).to.equal('2026-06-01T10:00:00.000Z');
    expect(parseApiDateTime('2026-06-01T10:00:00.123456Z')!.toISOString()).to.equal('2026-06-01T10:00:00.123Z');
    expect(parseApiDateTime('2026-06-01T12:00:00+02:00')!.toISOString()).to.equal('2026-06-01T10:00:00.000Z');
    expect(parseApiDateTime('2026-01-01T00:30:00-01:00')!.toISOString()).to.equal('2026-01-01T01:30:00.000Z');
    expect(parseApiDateTime('1900-01-01T00:00:00Z')!.toISOString()).to.equal('1900-01-01T00:00:00.000Z');
    expect(parseApiDateTime('2200-12-31T23:59:59.999Z')!.toISOString()).to.equal('2200-12-31T23:59:59.999Z');
  });

  it('when a date-time would roll over or is out of range then it is refused (never March 2nd for February 30th)', () => {
    for (const v of [
      '2027-02-30T12:00:00Z',
      '2026-13-01T10:00:00Z',
      '0000-01-01T00:00:00Z',
      '1899-12-31T23:59:59Z',
      '2201-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z',
      '2026-06-01T24:00:00Z',
      '2026-06-01T10:60:00Z',
      '2026-06-01T10:00:60Z',
      '2026-06-01T10:00:00+24:00',
      '2026-06-01T10:00:00+02:60',
      '2026-06-01T10:00Z',
      '2026-06-01',
      '2026-06-01T10:00:00',
      '+010000-01-01T00:00:00Z',
      '2026-06-01T10:00:00.1234567891Z',
    ]) {
      expect(isApiDateTime(v), v).to.equal(false);
    }
    expect(isApiDateTime(20260601)).to.equal(false);
  });

  it('when the domain asks for a date-time that is not real then it is a 400 VALIDATION_ERROR naming the field', () => {
    expect(() => requireApiDateTime('2027-02-30T12:00:00Z', 'items.0.startTime'))
      .to.throw(AppError)
      .that.deep.include({ status: 400, code: 'VALIDATION_ERROR' })
      .and.has.nested.property('details[0].field', 'items.0.startTime');
  });
});
