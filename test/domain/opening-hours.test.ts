import { describe, expect, it } from 'vitest';
import { isOpeningHours, suggestOpeningHours } from '../../src/domain/opening-hours.js';

describe('opening hours in schema.org form', () => {
  it('accepts day ranges, lists and time spans', () => {
    for (const ok of [
      'Mo-Fr 08:00-18:00',
      'Sa 09:00-12:00',
      'Tu,Th 16:00-20:00',
      'Mo-Fr 08:00-12:00,13:00-17:00',
      'Mo-Su',
      'Mo-Su 00:00-24:00',
    ])
      expect(isOpeningHours(ok), ok).toBe(true);
  });
  it('refuses what people write instead, and suggests the schema.org form when it can read it', () => {
    for (const bad of ['Mon-Fri 8am-5pm', 'Mo-Fr 8:00-17:00', 'Mo-Fr 08:00-25:00', 'Weekdays', 'Mo-Fr  08:00-18:00', ''])
      expect(isOpeningHours(bad), bad).toBe(false);
    expect(suggestOpeningHours('Mon-Fri 8am-5pm')).toBe('Mo-Fr 08:00-17:00');
    expect(suggestOpeningHours('Saturday 9:30 am - 12 pm')).toBe('Sa 09:30-12:00');
    expect(suggestOpeningHours('Mo-Fr 8:00-17:00')).toBe('Mo-Fr 08:00-17:00');
    expect(suggestOpeningHours('Weekdays')).toBeNull();
  });
});
