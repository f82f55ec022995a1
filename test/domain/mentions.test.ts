import { describe, expect, it } from 'vitest';
import { BusinessSchema } from '../../src/domain/business.js';
import { createMentionMatcher } from '../../src/domain/mentions.js';
import type { MentionTags } from '../../src/domain/review.js';

const business = BusinessSchema.parse({
  id: 'b',
  name: 'B',
  technicians: [
    { id: 'mike', name: 'Mike Rodriguez', aliases: ['Mike', 'Mikey'] },
    { id: 'jose', name: 'José Ortiz', aliases: ['José', 'Jose'] },
    { id: 'bigj', name: 'Jorge Delgado', aliases: ['Big J'] },
  ],
  services: [{ id: 'ac', name: 'Air Conditioning Repair', aliases: ['AC unit', 'air conditioner'] }],
  service_areas: [
    { id: 'penasco', name: 'Peñasco Heights', aliases: ['Peñasco'] },
    { id: 'oak', name: 'Oak Park', aliases: [] },
  ],
});
const none: MentionTags = { technicians: [], services: [], service_areas: [] };
const m = createMentionMatcher(business);
const ids = (title: string | null, text: string, tags = none) => {
  const r = m.resolve(title, text, tags);
  return { t: r.technicians.map((x) => x.id), s: r.services.map((x) => x.id), a: r.service_areas.map((x) => x.id) };
};

describe('mention matching (contract §2)', () => {
  it('matches names and aliases case-insensitively on word boundaries', () => {
    expect(ids(null, 'MIKE fixed our ac unit.').t).toEqual(['mike']);
    expect(ids(null, 'Mikey was great').t).toEqual(['mike']);
    expect(ids(null, 'Michael and mikes are not Mike aliases').t).toEqual(['mike']);
    expect(ids(null, 'Mikeee came').t).toEqual([]);
  });
  it('treats Unicode letters as word characters', () => {
    expect(ids(null, 'José was on time').t).toEqual(['jose']);
    expect(ids(null, 'Joséphine was on time').t).toEqual([]);
    expect(ids(null, 'We live in PEÑASCO heights').a).toEqual(['penasco']);
    expect(ids(null, 'Peñascos is not a place').a).toEqual([]);
  });
  it('matches multi-word phrases and the title too', () => {
    expect(ids('Big J saved the day', 'no names here').t).toEqual(['bigj']);
    expect(ids(null, 'Our air conditioner died in Oak Park').s).toEqual(['ac']);
    expect(ids(null, 'Our air conditioner died in Oak Park').a).toEqual(['oak']);
  });
  it('merges import tags, ignores unknown ids and keeps catalog order', () => {
    const r = ids(null, 'Jose came', { technicians: ['mike', 'nobody'], services: [], service_areas: [] });
    expect(r.t).toEqual(['mike', 'jose']);
  });
  it('returns {id, name} references', () => {
    expect(m.resolve(null, 'Mike', none).technicians).toEqual([{ id: 'mike', name: 'Mike Rodriguez' }]);
  });
});
