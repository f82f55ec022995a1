import type { Business } from './business.js';
import type { Mentions } from './review.js';

export type MentionKind = keyof Mentions;
export const MENTION_KINDS: readonly MentionKind[] = ['technicians', 'services', 'service_areas'];
export const MENTION_NOUNS: Readonly<Record<MentionKind, string>> = {
  technicians: 'technician',
  services: 'service',
  service_areas: 'service area',
};

export type MentionLookup = { id: string } | { unknown: true } | { ambiguous: string[] };

/**
 * What a mention an import lists may be (contract §3 takes catalog ids): an entry's id, or, as the
 * search's `mentions_technician` accepts (contract §4), its name or one of its aliases, compared without
 * regard to case or surrounding spaces. An exact id wins; a name or alias that two entries share is
 * ambiguous and resolves to nothing, so the importer asks for the id instead of guessing.
 */
export function createMentionLookup(business: Business): (kind: MentionKind, value: string) => MentionLookup {
  const ids = new Map<MentionKind, Set<string>>();
  const keys = new Map<MentionKind, Map<string, Set<string>>>();
  for (const kind of MENTION_KINDS) {
    const entries = business[kind] as readonly { id: string; name: string; aliases: readonly string[] }[];
    ids.set(kind, new Set(entries.map((e) => e.id)));
    const byKey = new Map<string, Set<string>>();
    for (const e of entries)
      for (const k of [e.id, e.name, ...e.aliases]) {
        const key = k.trim().toLowerCase();
        if (key === '') continue;
        const set = byKey.get(key);
        if (set) set.add(e.id);
        else byKey.set(key, new Set([e.id]));
      }
    keys.set(kind, byKey);
  }
  return (kind, value) => {
    if (ids.get(kind)!.has(value)) return { id: value };
    const found = keys.get(kind)!.get(value.trim().toLowerCase());
    if (!found) return { unknown: true };
    if (found.size > 1) return { ambiguous: [...found].sort() };
    return { id: [...found][0]! };
  };
}
