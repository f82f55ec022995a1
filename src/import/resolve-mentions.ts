import type { Business } from '../domain/business.js';
import type { ImportReview } from '../domain/import-record.js';
import { createMentionLookup, MENTION_KINDS, MENTION_NOUNS, type MentionKind } from '../domain/mention-names.js';
import type { ImportProblem } from './validate-records.js';

type Located = { review: ImportReview; file: string; record: number; line?: number };

function catalogHint(business: Business, kind: MentionKind): string {
  const entries = business[kind] as readonly { id: string; name: string }[];
  if (entries.length === 0) return `the business lists no ${MENTION_NOUNS[kind]}s`;
  const shown = entries.slice(0, 8).map((e) => `${e.id} (${e.name})`);
  return `${MENTION_NOUNS[kind]}s: ${shown.join(', ')}${entries.length > 8 ? `, and ${entries.length - 8} more` : ''}`;
}

/**
 * The mentions an import record lists, as catalog ids (contract §3): each given as an id, a name or an
 * alias (`mention-names.ts`, as search resolves them). What names no entry, or several, is a problem
 * listed with its record, unless `--allow-unknown-mentions` makes it a note and drops it: a column a
 * user thinks is imported never vanishes without a word. Records are changed in place.
 */
export function resolveMentions(
  records: Located[],
  business: Business,
  options: { catalog: 'file' | 'stored' | 'none'; allowUnknown?: boolean },
): { problems: ImportProblem[]; warnings: ImportProblem[] } {
  const problems: ImportProblem[] = [];
  const warnings: ImportProblem[] = [];
  const lookup = createMentionLookup(business);
  const dropped = new Map<string, { count: number; first: ImportProblem }>();
  for (const r of records) {
    const mentions = r.review.mentions;
    if (!mentions) continue;
    for (const kind of MENTION_KINDS) {
      const given = mentions[kind];
      if (!given || given.length === 0) continue;
      const ids: string[] = [];
      for (const value of given) {
        const found = lookup(kind, value);
        if ('id' in found) {
          ids.push(found.id);
          continue;
        }
        const why =
          'ambiguous' in found
            ? `names several ${MENTION_NOUNS[kind]}s (${found.ambiguous.join(', ')}): write the id`
            : options.catalog === 'none'
              ? `names no ${MENTION_NOUNS[kind]}: there is no business yet (import business.json with it, or first)`
              : `names no ${MENTION_NOUNS[kind]} of ${business.name} by id, name or alias (${catalogHint(business, kind)})`;
        const problem: ImportProblem = {
          file: r.file,
          record: r.record,
          ...(r.line !== undefined ? { line: r.line } : {}),
          id: r.review.id,
          path: `mentions.${kind}`,
          message: `mentions.${kind}: "${value}" ${why}`,
        };
        if (!options.allowUnknown) problems.push(problem);
        else {
          const key = `${r.file}\0${kind}\0${value}`;
          const seen = dropped.get(key);
          if (seen) seen.count++;
          else dropped.set(key, { count: 1, first: problem });
        }
      }
      mentions[kind] = ids;
    }
  }
  for (const { count, first } of dropped.values())
    warnings.push({ ...first, message: `${first.message}; dropped (--allow-unknown-mentions)${count > 1 ? `, in ${count} records` : ''}` });
  return { problems, warnings };
}
