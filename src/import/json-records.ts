import { BusinessSchema } from '../domain/business.js';
import { IGNORE, isForbiddenColumn, normalizeHeader, type ImportField } from './header-synonyms.js';
import type { RawProblem, RawRecord } from './raw-records.js';
import { cellValue, setField, someNames } from './spreadsheet.js';

/** The keys of an import record (contract §3), nested where the record nests; `true` marks a leaf. */
type Shape = { readonly [key: string]: true | Shape };
const REVIEW: Shape = {
  id: true,
  date: true,
  rating: true,
  title: true,
  text: true,
  language: true,
  author: { name: true, location: true },
  source: { platform: true, url: true },
  verified: true,
  hidden: true,
  mentions: { technicians: true, services: true, service_areas: true },
  response: { text: true, date: true },
  updated_at: true,
  // What `export` writes beside the import fields; read back without a word.
};
/** A dataset document's own keys: what `export` writes (the `/reviews.json` shape) and `import` reads. */
export const DOCUMENT_KEYS = new Set(['business', 'reviews', 'aggregate_rating', 'updated_at', 'links']);
const BUSINESS_KEYS = new Set(Object.keys(BusinessSchema.shape));

const isObject = (x: unknown): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x);

/** Dotted paths of the leaves of a JSON object (arrays are leaves). */
function* leaves(node: Record<string, unknown>, prefix = ''): Generator<[string, unknown]> {
  for (const [k, v] of Object.entries(node)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (isObject(v) && Object.keys(v).length > 0) yield* leaves(v, path);
    else yield [path, v];
  }
}

/** The keys a record has that no field takes (dotted, e.g. `user.image_url`). */
function unknownKeys(node: Record<string, unknown>, shape: Shape, prefix: string, out: string[]): void {
  for (const [k, v] of Object.entries(node)) {
    const path = prefix ? `${prefix}.${k}` : k;
    const s = Object.hasOwn(shape, k) ? shape[k] : undefined;
    if (s === undefined) out.push(path);
    else if (s !== true && isObject(v)) unknownKeys(v, s, path, out);
  }
}

function deleteAt(node: Record<string, unknown>, path: string): void {
  const keys = path.split('.');
  const parents: Record<string, unknown>[] = [node];
  for (const k of keys.slice(0, -1)) parents.push(parents.at(-1)![k] as Record<string, unknown>);
  delete parents.at(-1)![keys.at(-1)!];
  // Objects the move emptied go too: `{ user: {} }` is no unknown key.
  for (let i = parents.length - 1; i > 0; i--) if (Object.keys(parents[i]!).length === 0) delete parents[i - 1]![keys[i - 1]!];
}

/** Counts keys per file: each listed once, with how many records have it and the first one that does. */
export class UnknownKeys {
  private readonly seen = new Map<string, { count: number; first: string }>();
  add(path: string, where: string): void {
    const s = this.seen.get(path);
    if (s) s.count++;
    else this.seen.set(path, { count: 1, first: where });
  }
  warnings(noun: string): RawProblem[] {
    if (this.seen.size === 0) return [];
    const names = [...this.seen.keys()];
    const detail = names
      .slice(0, 5)
      .map((k) => {
        const s = this.seen.get(k)!;
        return `"${k}" in ${s.count} record(s), first ${s.first}`;
      })
      .join('; ');
    return [
      {
        record: 0,
        message: `${names.length === 1 ? 'key' : 'keys'} ${someNames(names)} ${names.length === 1 ? 'is' : 'are'} not ${noun}: ignored (${detail}); name ${names.length === 1 ? 'it' : 'them'} with --map "${names[0]}=field" (or "${names[0]}=-"); --strict refuses the file`,
      },
    ];
  }
}

/**
 * The generic JSON records (a dataset document's reviews, an array, JSON Lines): `--map` moves the value
 * at a dotted key to a field (a string read the way a spreadsheet cell is: "5 stars", "2024-03-25
 * 19:32:11"), and every key that no field takes is counted to be listed. Problems of mapped values are
 * returned per record.
 */
export function mapJsonRecord(
  record: RawRecord,
  map: ReadonlyMap<string, ImportField | typeof IGNORE>,
  used: Set<string>,
  unknown: UnknownKeys,
  where: string,
): RawProblem[] {
  const value = record.value;
  if (!isObject(value)) return [];
  const problems: RawProblem[] = [];
  if (map.size > 0) {
    const moves: [string, ImportField | typeof IGNORE, unknown][] = [];
    for (const [path, v] of leaves(value)) {
      if (isForbiddenColumn(path)) continue;
      const target = map.get(normalizeHeader(path));
      if (target !== undefined) moves.push([path, target, v]);
    }
    for (const [path, target, v] of moves) {
      used.add(normalizeHeader(path));
      deleteAt(value, path);
      if (target === IGNORE) continue;
      if (typeof v === 'string') {
        const cell = cellValue(target, v, undefined);
        if (cell.ok) setField(value, target, cell.value);
        else {
          problems.push({
            record: record.record,
            ...(record.line !== undefined ? { line: record.line } : {}),
            path: target,
            message: `${target} (from ${path}): ${cell.message}`,
          });
          (record.skip ??= []).push(target);
        }
      } else setField(value, target, typeof v === 'number' && target === 'id' ? String(v) : v);
    }
  }
  const keys: string[] = [];
  unknownKeys(value, REVIEW, '', keys);
  for (const k of keys) unknown.add(k, where);
  return problems;
}

/** A dataset document's keys and its business's keys that nothing reads. */
export function unknownDocumentKeys(doc: Record<string, unknown>): string[] {
  const out = Object.keys(doc).filter((k) => !DOCUMENT_KEYS.has(k));
  if (isObject(doc.business)) for (const k of Object.keys(doc.business)) if (!BUSINESS_KEYS.has(k)) out.push(`business.${k}`);
  return out;
}
