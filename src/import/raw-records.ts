import { decodeUtf8 } from './decode-text.js';
import { gbpProfile, isEmptyGbpList } from './gbp.js';
import type { IGNORE, ImportField } from './header-synonyms.js';
import { ImportBusinessSchema } from '../domain/business.js';
import { toIssues } from '../domain/errors.js';
import { locateJsonPath, parseJsonText } from './json-text.js';
import { DOCUMENT_KEYS, mapJsonRecord, UnknownKeys, unknownDocumentKeys } from './json-records.js';
import { detectJsonProfile, type JsonProfile } from './profiles/index.js';
import { workbookRows } from './sheet-rows.js';
import { readSheet, readSpreadsheet, someNames, type SpreadsheetOptions } from './spreadsheet.js';

/** One record as read from a file, before validation, with where it came from. */
export interface RawRecord {
  /** 1-based record number within its file. */
  record: number;
  /** 1-based line number for JSONL and CSV (contract §3); the row number in a workbook. */
  line?: number;
  value: unknown;
  /** Field paths whose problem the reader has already listed: validation does not repeat them. */
  skip?: string[];
  /** The id was derived from platform, author, date and text (no id column). */
  derivedId?: boolean;
}

/** A problem found while reading: a whole file (record 0), or one record's field. */
export interface RawProblem {
  record: number;
  line?: number;
  column?: number;
  id?: string;
  path?: string;
  message: string;
}

export interface RawFile {
  business?: unknown;
  records: RawRecord[];
  problems: RawProblem[];
  /** What the file holds that no field takes (unknown columns and keys): listed, and errors with `--strict`. */
  warnings?: RawProblem[];
  /** The source the file was read as (for the summary). */
  kind?: 'dataset' | 'gbp' | 'spreadsheet' | 'jsonl' | 'profile';
  /** The known export it was recognised as: "a Trustpilot CSV export". */
  label?: string;
  /** The bytes are not the file's format at all (not UTF-8, not JSON): a damaged file. */
  unreadable?: boolean;
}

export const IMPORT_FORMATS = ['json', 'jsonl', 'csv', 'gbp', 'xlsx'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export function formatOf(file: string, explicit?: string): ImportFormat {
  const f = (explicit ?? file.split('.').pop() ?? '').toLowerCase();
  if ((IMPORT_FORMATS as readonly string[]).includes(f)) return f as ImportFormat;
  if (f === 'ndjson') return 'jsonl';
  if (f === 'tsv') return 'csv';
  if (f === 'xlsm' || f === 'xls' || f === 'ods') return 'xlsx';
  throw new Error(`cannot tell the format of ${file}: name it .json, .jsonl, .csv or .xlsx, or pass --format json|jsonl|csv|gbp|xlsx`);
}

export interface ReadOptions extends SpreadsheetOptions {
  /** `--sheet`: the workbook sheet to read (name or 1-based position); the first by default. */
  sheet?: string;
}

const where = (r: { record: number; line?: number }) => (r.line !== undefined ? `line ${r.line}` : `record ${r.record}`);

/**
 * A platform's listed reviews (a sync, contract §3.2) as import records, mapped exactly as the same
 * platform's JSON export is, so a review gets the same id and record whichever way it came in.
 */
export function listedRecords(profile: JsonProfile, reviews: readonly unknown[]): RawFile {
  return readProfile(profile, undefined, [...reviews]);
}

/** A known JSON export's reviews as import records; each field that cannot be read is one problem. */
function readProfile(profile: JsonProfile, doc: unknown, reviews: unknown[]): RawFile {
  const out = {
    records: [] as RawRecord[],
    problems: [] as RawProblem[],
    warnings: [] as RawProblem[],
    kind: profile === gbpProfile ? ('gbp' as const) : ('profile' as const),
    label: profile.label,
  };
  const unknown = new UnknownKeys();
  if (doc && typeof doc === 'object' && !Array.isArray(doc) && reviews.length !== 1)
    for (const k of Object.keys(doc)) if (!profile.documentKeys.includes(k)) unknown.add(k, 'the document');
  const known = new Set(profile.reviewKeys);
  reviews.forEach((r, i) => {
    const mapped = profile.map(r);
    const id = typeof mapped.value.id === 'string' ? mapped.value.id : undefined;
    for (const p of mapped.problems) out.problems.push({ record: i + 1, ...(id ? { id } : {}), path: p.path, message: p.message });
    out.records.push({ record: i + 1, value: mapped.value, skip: mapped.problems.length ? ['(record)'] : [] });
    if (r && typeof r === 'object' && !Array.isArray(r))
      for (const k of Object.keys(r)) if (!known.has(k)) unknown.add(k, `record ${i + 1}`);
  });
  out.warnings.push(...unknown.warnings(`part of ${profile.label}`));
  return out;
}

/** A file that cannot be read as what it claims to be: one problem, no records. */
const notReadable = (message: string): RawFile => ({ records: [], problems: [{ record: 0, message }], warnings: [] });

/**
 * A dataset document (`{business, reviews}`), a JSON array of reviews, or a known export recognised by
 * its shape (Google Business Profile, forced with `--format gbp`; Trustpilot; Yelp; Facebook).
 */
function readJson(text: string, gbp: boolean, map: ReadonlyMap<string, ImportField | typeof IGNORE>, used: Set<string>): RawFile {
  const parsed = parseJsonText(text);
  if (!parsed.ok)
    return {
      records: [],
      problems: [{ record: 0, line: parsed.line, column: parsed.column, message: parsed.message }],
      warnings: [],
      unreadable: true,
    };
  const doc = parsed.value;
  if (gbp) return readGbpJson(doc);
  const profile = detectJsonProfile(doc);
  if (profile) return readProfile(profile.profile, doc, profile.reviews);
  const out: RawFile & { warnings: RawProblem[] } = { records: [], problems: [], warnings: [], kind: 'dataset' };
  let records: RawRecord[] | null;
  if (Array.isArray(doc)) records = doc.map((value, i) => ({ record: i + 1, value }));
  else if (doc && typeof doc === 'object' && ('reviews' in doc || 'business' in doc)) {
    records = readDatasetDocument(text, doc as Record<string, unknown>, out);
    if (!records) return notReadable('"reviews" must be an array');
  } else
    return notReadable(
      'expected a dataset document ({"business", "reviews"}), an array of reviews, or a known export (Google Business Profile, Trustpilot, Yelp Fusion or Facebook ratings JSON)',
    );
  const unknown = new UnknownKeys();
  for (const r of records) out.problems.push(...mapJsonRecord(r, map, used, unknown, where(r)));
  out.records = records;
  out.warnings.push(...unknown.warnings('a review field'));
  return out;
}

/** `--format gbp`: Google Business Profile's review JSON, or an empty listing of it. */
function readGbpJson(doc: unknown): RawFile {
  const reviews = gbpProfile.reviewsOf(doc);
  if (reviews) return readProfile(gbpProfile, doc, reviews);
  if (isEmptyGbpList(doc)) return { records: [], problems: [], warnings: [], kind: 'gbp' };
  return notReadable(
    'not Google Business Profile review JSON: expected {"reviews": [...]}, an array of reviews or one review with starRating',
  );
}

/**
 * A dataset document: its business and the notes about it go to `out`, its reviews are returned as
 * records (null when `reviews` is not an array).
 */
function readDatasetDocument(text: string, doc: Record<string, unknown>, out: RawFile & { warnings: RawProblem[] }): RawRecord[] | null {
  if (doc.reviews !== undefined && !Array.isArray(doc.reviews)) return null;
  out.business = doc.business;
  // The business is checked here, while the text is at hand, so each problem names its line and column.
  if (doc.business !== undefined) {
    const b = ImportBusinessSchema.safeParse(doc.business);
    if (!b.success)
      for (const i of toIssues(b.error, ['business'])) {
        const at = locateJsonPath(text, i.path);
        out.problems.push({ record: 0, ...(at ?? {}), path: i.path.join('.'), message: i.message });
      }
  }
  const extra = unknownDocumentKeys(doc);
  if (extra.length > 0)
    out.warnings.push({
      record: 0,
      message: `${extra.length === 1 ? 'key' : 'keys'} ${someNames(extra)} ${extra.length === 1 ? 'is' : 'are'} not part of a dataset document (${[...DOCUMENT_KEYS].join(', ')}) or its business: ignored`,
    });
  return ((doc.reviews as unknown[] | undefined) ?? []).map((value, i) => ({ record: i + 1, value }));
}

function readJsonl(text: string, map: ReadonlyMap<string, ImportField | typeof IGNORE>, used: Set<string>): RawFile {
  const out: RawFile & { warnings: RawProblem[] } = { records: [], problems: [], warnings: [], kind: 'jsonl' };
  const unknown = new UnknownKeys();
  let record = 0;
  let line = 0;
  for (const text1 of text.split(/\r?\n/)) {
    line++;
    if (text1.trim() === '') continue;
    record++;
    const parsed = parseJsonText(text1);
    if (!parsed.ok) {
      out.problems.push({ record, line, column: parsed.column, message: parsed.message });
      continue;
    }
    const r: RawRecord = { record, line, value: parsed.value };
    for (const p of mapJsonRecord(r, map, used, unknown, `line ${line}`)) out.problems.push(p);
    out.records.push(r);
  }
  out.warnings.push(...unknown.warnings('a review field'));
  return out;
}

/** What reading a file gives: its records and problems, and the `--map` keys it used. */
export type ReadFile = RawFile & { mapped: Set<string> };

/** Reads one file's bytes in the given format; problems never throw. */
export function readRecords(input: string | Uint8Array, format: ImportFormat, options: ReadOptions = {}): ReadFile {
  const map = options.map ?? new Map<string, ImportField | typeof IGNORE>();
  if (format === 'xlsx') {
    if (typeof input === 'string') throw new TypeError('a workbook is read from its bytes');
    const sheet = workbookRows(input, options.sheet);
    if (!sheet.ok) return { records: [], problems: [{ record: 0, message: sheet.message }], warnings: [], mapped: new Set() };
    return readSheet(sheet.rows, options);
  }
  let text: string;
  if (typeof input === 'string') text = input.replace(/^\uFEFF/, '');
  else {
    const decoded = decodeUtf8(input, format === 'csv' ? 'csv' : 'json');
    if (decoded.problems.length > 0)
      return {
        records: [],
        problems: decoded.problems.map((p) => ({
          record: 0,
          line: p.line,
          ...(p.field !== undefined ? { path: p.field } : {}),
          message: p.message,
        })),
        warnings: [],
        mapped: new Set(),
        unreadable: true,
      };
    text = decoded.text;
  }
  const used = new Set<string>();
  switch (format) {
    case 'json':
      return { ...readJson(text, false, map, used), mapped: used };
    case 'gbp':
      return { ...readJson(text, true, map, used), mapped: used };
    case 'jsonl':
      return { ...readJsonl(text, map, used), mapped: used };
    case 'csv':
      return readSpreadsheet(text, options);
  }
}
