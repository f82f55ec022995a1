/**
 * Spreadsheet headers → import fields (contract §3.1). This table is the one place that knows what
 * people call their columns; matching ignores case, spaces and punctuation ("Review Created (UTC)" is
 * `reviewcreatedutc`). Each field also answers to its own dotted name (`author.name`), so the files
 * `export` writes and the CSV form of contract §3 match unchanged.
 */
export const HEADER_SYNONYMS = {
  id: ['Id', 'Review Id', 'Reference Id'],
  date: ['Date', 'Review Date', 'Created', 'Created At', 'Review Created (UTC)', 'Time', 'Date Created', 'Posted', 'Posted On'],
  rating: ['Rating', 'Stars', 'Star Rating', 'Score', 'Review Stars', 'Review Rating'],
  title: ['Title', 'Review Title', 'Headline', 'Subject'],
  text: [
    'Text',
    'Review',
    'Review Text',
    'Comment',
    'Comments',
    'Review Comment',
    'Review Comments',
    'Customer Comments',
    'Customer Review',
    'Review Content',
    'Content',
    'Review Body',
    'Body',
  ],
  language: ['Language', 'Lang', 'Review Language', 'Language Code'],
  'author.name': ['Author', 'Name', 'Reviewer', 'Reviewer Name', 'Customer', 'Customer Name', 'Author Name', 'Display Name'],
  'author.location': ['Location', 'Author Location', 'Reviewer Location', 'City'],
  'source.platform': ['Platform', 'Source', 'Site'],
  'source.url': ['Url', 'Review Url', 'Link', 'Review Link'],
  verified: ['Verified'],
  hidden: ['Hidden'],
  'response.text': ['Owner Response', 'Response', 'Reply', 'Business Reply', 'Owner Reply', 'Response Text'],
  'response.date': ['Response Date', 'Reply Date', 'Owner Response Date', 'Responded At'],
  'mentions.technicians': ['Technicians', 'Technician'],
  'mentions.services': ['Services', 'Service'],
  'mentions.service_areas': ['Service Areas', 'Service Area'],
  updated_at: ['Updated At'],
} as const satisfies Record<string, readonly string[]>;

export type ImportField = keyof typeof HEADER_SYNONYMS;
export const IMPORT_FIELDS = Object.keys(HEADER_SYNONYMS) as ImportField[];

/** Columns without which no review can be built. `id` is derived when absent; `text` may be empty. */
export const REQUIRED_FIELDS: readonly ImportField[] = ['date', 'rating', 'author.name'];

/** `--map "Column=-"` (or an empty field) drops a column on purpose. */
export const IGNORE = '-';

/**
 * Names that walk into an object's prototype when used as a path segment; refused by name, wherever
 * they appear in a dotted column, before any lookup could touch them.
 */
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);
export function isForbiddenColumn(name: string): boolean {
  return name.split('.').some((segment) => FORBIDDEN_SEGMENTS.has(segment.trim().toLowerCase()));
}

/** The form headers are compared in: letters and digits only, lower case, accents kept apart. */
export function normalizeHeader(header: string): string {
  return header
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

const BY_NORMALIZED = new Map<string, ImportField>();
for (const field of IMPORT_FIELDS) {
  for (const name of [field, ...HEADER_SYNONYMS[field]]) BY_NORMALIZED.set(normalizeHeader(name), field);
}

export function fieldOfHeader(header: string): ImportField | undefined {
  return BY_NORMALIZED.get(normalizeHeader(header));
}

export function isImportField(name: string): name is ImportField {
  return Object.hasOwn(HEADER_SYNONYMS, name);
}

/** `--map "Column Name=field,Other=-"`; a column name may itself hold `=`, the field never does. */
export function parseColumnMap(spec: string): { map: Map<string, ImportField | typeof IGNORE>; errors: string[] } {
  const map = new Map<string, ImportField | typeof IGNORE>();
  const errors: string[] = [];
  for (const entry of spec.split(',')) {
    if (entry.trim() === '') continue;
    const at = entry.lastIndexOf('=');
    const column = at < 0 ? '' : entry.slice(0, at).trim();
    const field = at < 0 ? '' : entry.slice(at + 1).trim();
    if (!column) {
      errors.push(`--map entry "${entry.trim()}" is not "Column Name=field"`);
    } else if (field === '' || field === IGNORE) {
      map.set(normalizeHeader(column), IGNORE);
    } else if (isImportField(field) && !isForbiddenColumn(field)) {
      map.set(normalizeHeader(column), field);
    } else {
      errors.push(
        `--map "${column}=${field}": ${field} is not a field; fields are ${IMPORT_FIELDS.join(', ')} (or - to ignore the column)`,
      );
    }
  }
  return { map, errors };
}

export interface HeaderMatch {
  /** The field of each column, by position; null for a column left out. */
  fields: (ImportField | null)[];
  unknown: string[];
  missing: ImportField[];
  /** Columns refused by name (`__proto__.title`, `constructor`, ...). */
  forbidden: string[];
  /** Fields that two or more columns claim. */
  duplicates: { field: ImportField; columns: string[] }[];
  /** The `--map` keys (normalized) this file used. */
  mapped: Set<string>;
}

/** Matches a header row: `--map` first, then the synonym table. */
export function matchHeaders(headers: readonly string[], map: ReadonlyMap<string, ImportField | typeof IGNORE> = new Map()): HeaderMatch {
  const out: HeaderMatch = { fields: [], unknown: [], missing: [], forbidden: [], duplicates: [], mapped: new Set() };
  const claimed = new Map<ImportField, string[]>();
  for (const header of headers) {
    const key = normalizeHeader(header);
    if (isForbiddenColumn(header)) {
      out.forbidden.push(header);
      out.fields.push(null);
      continue;
    }
    const mapped = map.get(key);
    if (mapped !== undefined) out.mapped.add(key);
    const field = mapped ?? fieldOfHeader(header);
    if (field === IGNORE || (field === undefined && key === '')) {
      out.fields.push(null);
      continue;
    }
    if (field === undefined) {
      out.unknown.push(header);
      out.fields.push(null);
      continue;
    }
    // Pushed, not copied: a file with thousands of columns for one field stays linear.
    const columns = claimed.get(field);
    if (columns) columns.push(header);
    else claimed.set(field, [header]);
    out.fields.push(field);
  }
  for (const [field, columns] of claimed) if (columns.length > 1) out.duplicates.push({ field, columns });
  out.missing = REQUIRED_FIELDS.filter((f) => !claimed.has(f));
  return out;
}

/** "rating (Rating, Stars, Star Rating, ...)": what a problem message offers as the expected columns. */
export function describeField(field: ImportField): string {
  return `${field} (${HEADER_SYNONYMS[field].join(', ')})`;
}
