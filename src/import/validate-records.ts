import { ImportBusinessSchema, type Business } from '../domain/business.js';
import type { IncomingReview } from '../domain/import-plan.js';
import { ImportReviewSchema, type ImportReview } from '../domain/import-record.js';
import { toIssues } from '../domain/errors.js';
import type { MentionMatcher } from '../domain/mentions.js';
import type { RawFile, RawProblem } from './raw-records.js';

export interface ImportProblem {
  file: string;
  record: number;
  line?: number;
  column?: number;
  id?: string;
  path: string;
  message: string;
}

export function formatProblem(p: ImportProblem): string {
  const where =
    p.line !== undefined
      ? `line ${p.line}${p.column !== undefined ? `, column ${p.column}` : ''}`
      : p.record > 0
        ? `record ${p.record}`
        : 'file';
  const id = p.id ? ` (id ${p.id})` : '';
  // Messages name their field already ("rating: Too big …", "author.name is required").
  const path = p.path && !p.message.includes(p.path) ? `${p.path}: ` : '';
  return `${p.file}: ${where}${id}: ${path}${p.message}`;
}

export interface ValidatedImport {
  business?: Business;
  /** The file the business came from, for problems about it. */
  businessFile?: string;
  records: { review: ImportReview; file: string; record: number; line?: number }[];
  problems: ImportProblem[];
  /** Columns and keys no field takes: listed, ignored, and problems with `--strict`. */
  warnings: ImportProblem[];
}

/** The value at a dotted path of a raw record, for messages that show what the file said. */
function valueAt(value: unknown, path: (string | number)[]): unknown {
  let node = value;
  for (const key of path) {
    if (!node || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

/** ` (got "five")`: the value itself, short, when it is a scalar the message does not show already. */
function shown(value: unknown, message: string): string {
  if (value === undefined || (value !== null && typeof value === 'object')) return '';
  const text = JSON.stringify(value);
  if (message.includes(text)) return '';
  return ` (got ${text.length > 60 ? `${text.slice(0, 57)}..."` : text})`;
}

/** `--platform`: sets `source.platform` of a record that has none (contract §3.1). */
function withPlatform(value: unknown, platform: string | undefined): unknown {
  if (!platform || !value || typeof value !== 'object' || Array.isArray(value)) return value;
  const v = value as { source?: unknown };
  const source = v.source && typeof v.source === 'object' ? (v.source as { platform?: unknown }) : undefined;
  if (source?.platform !== undefined && source.platform !== null) return value;
  return { ...v, source: { ...(source ?? {}), platform } };
}

/** Validates every record of every file and lists every problem (contract §3: all or nothing). */
export function validateFiles(
  files: { name: string; raw: RawFile }[],
  options: { assumeVerified: boolean; platform?: string; strict?: boolean },
): ValidatedImport {
  const out: ValidatedImport = { records: [], problems: [], warnings: [] };
  const seen = new Map<string, string>();
  const asProblem = (name: string, p: RawProblem): ImportProblem => ({
    file: name,
    record: p.record,
    ...(p.line !== undefined ? { line: p.line } : {}),
    ...(p.column !== undefined ? { column: p.column } : {}),
    ...(p.id !== undefined ? { id: p.id } : {}),
    path: p.path ?? '',
    message: p.message,
  });
  for (const { name, raw } of files) {
    for (const p of raw.problems) out.problems.push(asProblem(name, p));
    for (const p of raw.warnings ?? []) (options.strict ? out.problems : out.warnings).push(asProblem(name, p));
    if (raw.business !== undefined) {
      const b = ImportBusinessSchema.safeParse(raw.business);
      if (b.success) {
        out.business = b.data;
        out.businessFile = name;
      } else if (!raw.problems.some((p) => p.path?.startsWith('business')))
        for (const i of toIssues(b.error, ['business']))
          out.problems.push({ file: name, record: 0, path: i.path.join('.'), message: i.message });
    }
    const unverified: string[] = [];
    for (const r of raw.records) {
      const where = { file: name, record: r.record, ...(r.line !== undefined ? { line: r.line } : {}) };
      const value = withPlatform(r.value, options.platform);
      const idValue = value && typeof value === 'object' ? (value as { id?: unknown }).id : undefined;
      const id = typeof idValue === 'string' ? idValue : undefined;
      const skip = r.skip ?? [];
      if (skip.includes('(record)')) continue;
      // The `verified` decision is asked for even when other fields are wrong, so it never shows up
      // only after everything else was fixed (issue 12).
      const verified = value && typeof value === 'object' ? (value as { verified?: unknown }).verified : undefined;
      if (verified === undefined && !options.assumeVerified && !skip.includes('verified'))
        unverified.push(r.line !== undefined ? `line ${r.line}` : `record ${r.record}`);
      const parsed = ImportReviewSchema.safeParse(value);
      if (!parsed.success) {
        for (const i of toIssues(parsed.error)) {
          const path = i.path.join('.');
          // Already listed by the reader: the field itself, inside it, or the object that would hold it.
          if (skip.some((s) => path === s || path.startsWith(`${s}.`) || s.startsWith(`${path}.`))) continue;
          out.problems.push({
            ...where,
            ...(id ? { id } : {}),
            path: path || '(record)',
            message: i.message + shown(valueAt(value, i.path), i.message),
          });
        }
        continue;
      }
      if (skip.length > 0) continue;
      const review = parsed.data;
      const dup = seen.get(review.id);
      if (dup) {
        out.problems.push({
          ...where,
          id: review.id,
          path: 'id',
          message: `duplicate id, first seen at ${dup}${r.derivedId ? ' (derived from platform, author, date and text: the same review twice?)' : ''}`,
        });
        continue;
      }
      seen.set(review.id, `${name} ${r.line !== undefined ? `line ${r.line}` : `record ${r.record}`}`);
      out.records.push({ review, ...where });
    }
    if (unverified.length > 0) {
      const which =
        unverified.length === raw.records.length
          ? `none of the ${unverified.length} record(s) says`
          : `${unverified.length} record(s) (${unverified.slice(0, 5).join(', ')}${unverified.length > 5 ? ', ...' : ''}) do not say`;
      out.problems.push({
        file: name,
        record: 0,
        path: 'verified',
        message: `verified: ${which} whether the review is verified; add a verified column or field (yes/no), or pass --assume-verified when every review comes from a platform or customer you verified`,
      });
    }
  }
  return out;
}

/**
 * The stored form of an import record. Its mention tags are kept as given (contract §2: the ids a record
 * lists are mentions, whatever the catalog later says); the ones the text also yields with this catalog
 * are named in `derived_tags`, which the content hash leaves out, so an export (whose `mentions` include
 * the derived ones) imports back unchanged.
 */
export function toIncoming(r: ImportReview, matcher: MentionMatcher): IncomingReview {
  const title = r.title ?? null;
  const text = r.text;
  const derived = matcher.resolve(title, text, { technicians: [], services: [], service_areas: [] });
  const unique = (given: string[] | undefined) => [...new Set(given ?? [])];
  const found = (given: string[] | undefined, yielded: { id: string }[]) => unique(given).filter((id) => yielded.some((f) => f.id === id));
  return {
    id: r.id,
    date: r.date,
    rating: r.rating,
    title,
    text,
    language: r.language ?? null,
    author: { name: r.author.name, location: r.author.location ?? null },
    source: { platform: r.source.platform, url: r.source.url ?? null },
    verified: r.verified ?? true,
    hidden: r.hidden,
    mention_tags: {
      technicians: unique(r.mentions?.technicians),
      services: unique(r.mentions?.services),
      service_areas: unique(r.mentions?.service_areas),
    },
    derived_tags: {
      technicians: found(r.mentions?.technicians, derived.technicians),
      services: found(r.mentions?.services, derived.services),
      service_areas: found(r.mentions?.service_areas, derived.service_areas),
    },
    response: r.response ? { text: r.response.text, date: r.response.date ?? null } : null,
    ...(r.updated_at ? { updated_at: r.updated_at } : {}),
  };
}
