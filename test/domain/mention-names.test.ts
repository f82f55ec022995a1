import { describe, expect, it } from 'vitest';
import { BusinessSchema } from '../../src/domain/business.js';
import { createMentionLookup } from '../../src/domain/mention-names.js';

const business = BusinessSchema.parse({
  id: 'b',
  name: 'B',
  technicians: [
    { id: 'dan-k', name: 'Daniel Kowal', aliases: ['Dan', 'Danny'] },
    { id: 'lena-p', name: 'Lena Park', aliases: ['Lena'] },
    { id: 'dana-r', name: 'Dana Ruiz', aliases: ['D.'] },
    { id: 'dmitri', name: 'Dmitri Olsen', aliases: ['D.'] },
  ],
  services: [{ id: 'drain', name: 'Drain Cleaning', aliases: ['drains'] }],
});

describe('mention lookup (names, aliases and ids, as search resolves them)', () => {
  const lookup = createMentionLookup(business);
  it('takes an id, a name or an alias, case-insensitively', () => {
    expect(lookup('technicians', 'dan-k')).toEqual({ id: 'dan-k' });
    expect(lookup('technicians', 'Dan')).toEqual({ id: 'dan-k' });
    expect(lookup('technicians', ' lena ')).toEqual({ id: 'lena-p' });
    expect(lookup('technicians', 'LENA PARK')).toEqual({ id: 'lena-p' });
    expect(lookup('services', 'Drains')).toEqual({ id: 'drain' });
  });
  it('says when a value names nothing, or several entries', () => {
    expect(lookup('technicians', 'Zed')).toEqual({ unknown: true });
    expect(lookup('services', 'dan-k')).toEqual({ unknown: true });
    expect(lookup('technicians', 'd.')).toEqual({ ambiguous: ['dana-r', 'dmitri'] });
  });
});
