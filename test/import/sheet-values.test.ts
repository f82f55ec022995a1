import { describe, expect, it } from 'vitest';
import { detectDateOrder, parseDate, parseRating } from '../../src/import/sheet-values.js';

describe('parseRating (contract §3.1)', () => {
  it.each([
    ['5', 5],
    ['5.0', 5],
    [' 4 ', 4],
    ['5 stars', 5],
    ['1 star', 1],
    ['3 Stars', 3],
    ['5/5', 5],
    ['2 / 5', 2],
    ['FIVE', 5],
    ['three', 3],
    ['★★★★★', 5],
    ['★★★☆☆', 3],
    ['4,0', 4],
  ])('%j is %i', (raw, n) => {
    expect(parseRating(raw)).toEqual({ ok: true, value: n });
  });
  it.each([
    ['4.5', /whole number/],
    ['3.5 stars', /whole number/],
    ['6 stars', /out of range/],
    ['0', /out of range/],
    ['10/10', /not a rating/],
    ['great', /not a rating/],
    ['☆☆☆', /not a rating/],
  ])('%j is an error naming the value', (raw, why) => {
    const r = parseRating(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.message).toMatch(why);
      expect(r.message).toContain(`"${raw}"`);
    }
  });
});

describe('parseDate', () => {
  it('reads ISO dates and RFC 3339 timestamps (their calendar day as written)', () => {
    expect(parseDate('2024-03-25', undefined)).toEqual({ ok: true, value: '2024-03-25' });
    expect(parseDate('2024-03-25T23:30:00Z', undefined)).toEqual({ ok: true, value: '2024-03-25' });
    expect(parseDate('2023-11-20T16:40:05.123456789Z', undefined)).toEqual({ ok: true, value: '2023-11-20' });
    expect(parseDate('2024-03-25T08:00:00-07:00', undefined)).toEqual({ ok: true, value: '2024-03-25' });
    expect(parseDate('2024/3/5', undefined)).toEqual({ ok: true, value: '2024-03-05' });
  });
  it('reads day/month forms in the file order, with an optional time', () => {
    expect(parseDate('3/25/2024', 'MDY')).toEqual({ ok: true, value: '2024-03-25' });
    expect(parseDate('25/03/2024', 'DMY')).toEqual({ ok: true, value: '2024-03-25' });
    expect(parseDate('25.03.2024', 'DMY')).toEqual({ ok: true, value: '2024-03-25' });
    expect(parseDate('3/4/2024 2:05 PM', 'MDY')).toEqual({ ok: true, value: '2024-03-04' });
    expect(parseDate('3/4/2024', 'DMY')).toEqual({ ok: true, value: '2024-04-03' });
  });
  it.each([
    ['2/30/2024', 'MDY', /not a real calendar date/],
    ['2025-02-29', undefined, /not a real calendar date/],
    ['2024-13-01T10:00:00Z', undefined, /not a real calendar date/],
    ['2024-01-01T25:00:00Z', undefined, /time of day/],
    ['3/4/24', 'MDY', /four-digit year/],
    ['3/4/2024', undefined, /--date-format/],
    ['3/4/2024', 'YMD', /year/],
    ['last Tuesday', 'MDY', /not a date/],
  ] as const)('%j (%s) is an error naming the value', (raw, order, why) => {
    const r = parseDate(raw, order);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.message).toMatch(why);
      expect(r.message).toContain(`"${raw}"`);
    }
  });
});

describe('detectDateOrder (per file)', () => {
  it('is day-first when some first field exceeds 12, month-first when some second does', () => {
    expect(detectDateOrder(['03/04/2024', '25/03/2024'])).toEqual({ order: 'DMY' });
    expect(detectDateOrder(['3/4/2024', '3/25/2024', ''])).toEqual({ order: 'MDY' });
  });
  it('ignores ISO forms and dates that read the same both ways', () => {
    expect(detectDateOrder(['2024-03-04', '1/1/2024', '12/12/2023'])).toEqual({ order: 'MDY' });
    expect(detectDateOrder([])).toEqual({ order: 'MDY' });
  });
  it('is undecidable when every date fits both orders, and a conflict when they contradict', () => {
    expect(detectDateOrder(['3/4/2024', '5/6/2024'])).toEqual({ undecidable: ['3/4/2024', '5/6/2024'] });
    expect(detectDateOrder(['25/3/2024', '3/25/2024'])).toEqual({ conflict: ['25/3/2024', '3/25/2024'] });
  });
});
