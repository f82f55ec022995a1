import { derivedReviewId } from './derived-id.js';
import type { IGNORE } from './header-synonyms.js';
import {
  describeField,
  IMPORT_FIELDS,
  matchHeaders,
  normalizeHeader,
  REQUIRED_FIELDS,
  type HeaderMatch,
  type ImportField,
} from './header-synonyms.js';
import { detectCsvProfile, type CsvProfile } from './profiles/index.js';
import type { RawFile, RawProblem, RawRecord } from './raw-records.js';
import { csvRows, detectDelimiter, type SheetRow } from './sheet-rows.js';
import { detectDateOrder, dayMonthFields, parseDate, parseRating, type DateOrder } from './sheet-values.js';

export { detectDelimiter };

export interface SpreadsheetOptions {
  /** `--map`, keyed by normalized column name. */
  map?: ReadonlyMap<string, ImportField | typeof IGNORE>;
  /** `--delimiter`; otherwise detected from the header row. */
  delimiter?: string;
  /** `--date-format`; otherwise decided per file. */
  dateFormat?: DateOrder;
  /** `--platform`: `source.platform` where the file has none. */
  platform?: string;
}

// Cells of these fields are lists (`;`-separated) or booleans (contract §3).
const LIST_FIELDS = new Set<ImportField>(['mentions.technicians', 'mentions.services', 'mentions.service_areas']);
const BOOLEAN_FIELDS = new Set<ImportField>(['verified', 'hidden']);
const DATE_FIELDS = new Set<ImportField>(['date', 'response.date']);
const BOOLEANS: Readonly<Record<string, boolean>> = { true: true, false: false, yes: true, no: false, '1': true, '0': false };
/** How many unknown columns are named one by one; the rest are counted (a million-column file stays readable). */
const NAMED = 20;

/** Sets a dotted field; the path is one of the table's fields, never a column name (no prototype walk). */
export function setField(target: Record<string, unknown>, field: ImportField, value: unknown): void {
  const path = field.split('.');
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path.at(-1)!] = value;
}

type Cell = { ok: true; value: unknown } | { ok: false; message: string };

/** A value as people write it (a cell, or a JSON string that `--map` sends to a field) read for its field. */
export function cellValue(field: ImportField, cell: string, order: DateOrder | undefined): Cell {
  if (field === 'rating') return parseRating(cell);
  if (DATE_FIELDS.has(field)) return parseDate(cell, order);
  if (LIST_FIELDS.has(field))
    return {
      ok: true,
      value: cell
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean),
    };
  if (BOOLEAN_FIELDS.has(field)) {
    const b = BOOLEANS[cell.trim().toLowerCase()];
    return b === undefined ? { ok: false, message: `"${cell}" is not a yes/no value (true/false, yes/no or 1/0)` } : { ok: true, value: b };
  }
  if (field === 'source.platform') return { ok: true, value: cell.trim().toLowerCase() };
  if (field === 'author.name' || field === 'id' || field === 'language' || field === 'source.url') return { ok: true, value: cell.trim() };
  return { ok: true, value: cell };
}

/** "column "A", "B" and 3 more": names up to NAMED of them. */
export function someNames(names: readonly string[]): string {
  const shown = names.slice(0, NAMED).map((n) => `"${n}"`);
  return names.length > NAMED ? `${shown.join(', ')} and ${names.length - NAMED} more` : shown.join(', ');
}

export type SheetFile = RawFile & { mapped: Set<string>; headers: string[] };

/** A spreadsheet's CSV text (contract §3, §3.1); see `readSheet`. */
export function readSpreadsheet(text: string, options: SpreadsheetOptions = {}): SheetFile {
  const parsed = csvRows(text, options.delimiter ?? detectDelimiter(text));
  if (!parsed.ok)
    return {
      records: [],
      problems: [{ record: 0, ...(parsed.line ? { line: parsed.line } : {}), message: parsed.message }],
      warnings: [],
      mapped: new Set(),
      headers: [],
    };
  return readSheet(parsed.rows, options);
}

/**
 * A spreadsheet's rows (CSV or a workbook's sheet): a known export recognised by its headers maps every
 * column it has (`profiles/`); any other is read through the synonym table and `--map`, with values read
 * the way people write them and ids derived when there is no id column. Every problem is listed with its
 * line and value; columns that give no field are listed and ignored (errors with `--strict`).
 */
export function readSheet(rows: SheetRow[], options: SpreadsheetOptions = {}): SheetFile {
  const header = rows[0]?.cells ?? [];
  const profile = detectCsvProfile(header);
  if (profile) return readProfileSheet(rows, header, profile);
  return readGenericSheet(rows, header, options);
}

function readProfileSheet(rows: SheetRow[], header: string[], profile: CsvProfile): SheetFile {
  const problems: RawProblem[] = [];
  const warnings: RawProblem[] = [];
  const known = new Set(profile.columns.map(normalizeHeader));
  const keys = header.map(normalizeHeader);
  const unknown = header.filter((h, i) => !known.has(keys[i]!) && keys[i] !== '');
  if (unknown.length > 0)
    warnings.push({
      record: 0,
      line: 1,
      message: `${unknown.length === 1 ? 'column' : 'columns'} ${someNames(unknown)} ${unknown.length === 1 ? 'is' : 'are'} not part of ${profile.label}: ignored`,
    });
  const records: RawRecord[] = [];
  for (let i = 1; i < rows.length; i++) {
    const { cells, line } = rows[i]!;
    if (cells.every((c) => c.trim() === '')) continue;
    const recordNo = records.length + 1;
    if (cells.length !== header.length) {
      problems.push({ record: recordNo, line, path: '(record)', message: `has ${cells.length} cells, the header has ${header.length}` });
      continue;
    }
    const row = new Map<string, string>();
    keys.forEach((k, c) => row.set(k, cells[c]!));
    const mapped = profile.mapRow(row);
    const id = typeof mapped.value.id === 'string' ? mapped.value.id : undefined;
    for (const p of mapped.problems) problems.push({ record: recordNo, line, ...(id ? { id } : {}), path: p.path, message: p.message });
    records.push({ record: recordNo, line, value: mapped.value, skip: mapped.problems.length > 0 ? ['(record)'] : [] });
  }
  return { records, problems, warnings, mapped: new Set(), headers: header, kind: 'spreadsheet', label: profile.label };
}

type FileProblem = (path: string, message: string) => void;

function readGenericSheet(rows: SheetRow[], header: string[], options: SpreadsheetOptions): SheetFile {
  const problems: RawProblem[] = [];
  const warnings: RawProblem[] = [];
  const match = matchHeaders(header, options.map);
  const fileProblem: FileProblem = (path, message) => problems.push({ record: 0, line: 1, path, message });
  checkHeaders(match, fileProblem, warnings);
  checkTextColumn(rows, header, match, warnings);
  const order = options.dateFormat ?? decideDateOrder(rows, match, fileProblem);
  const records: RawRecord[] = [];
  for (let i = 1; i < rows.length; i++) {
    const { cells, line } = rows[i]!;
    if (cells.every((c) => c.trim() === '')) continue;
    const record = records.length + 1;
    if (cells.length !== header.length) {
      problems.push({ record, line, path: '(record)', message: `has ${cells.length} cells, the header has ${header.length}` });
      continue;
    }
    records.push(readRow(cells, { record, line }, match, order, options.platform, problems));
  }
  return { records, problems, warnings, mapped: match.mapped, headers: header, kind: 'spreadsheet' };
}

/** The header row's problems (forbidden, duplicate and missing columns) and the note on unknown ones. */
function checkHeaders(match: HeaderMatch, fileProblem: FileProblem, warnings: RawProblem[]): void {
  for (const column of match.forbidden) fileProblem('', `column name "${column}" is not allowed`);
  if (match.unknown.length > 0)
    warnings.push({
      record: 0,
      line: 1,
      message: `${match.unknown.length === 1 ? 'column' : 'columns'} ${someNames(match.unknown)} ${match.unknown.length === 1 ? 'is' : 'are'} not a review field: ignored; name ${match.unknown.length === 1 ? 'it' : 'them'} with --map "${match.unknown[0]}=field" (or "${match.unknown[0]}=-" to ignore it quietly); --strict refuses the file`,
    });
  for (const d of match.duplicates)
    fileProblem(d.field, `columns ${someNames(d.columns)} all give ${d.field}: keep one, or --map "${d.columns[1]}=-"`);
  for (const field of match.missing)
    fileProblem(field, `no column gives ${field}; expected one of ${describeField(field)}, or --map "Your Column=${field}"`);
  if (match.missing.length > 0) {
    const optional = IMPORT_FIELDS.filter((f) => !REQUIRED_FIELDS.includes(f));
    fileProblem(
      '',
      `expected columns: ${REQUIRED_FIELDS.join(', ')} (required); ${optional.join(', ')} (optional); the README's "Publish your own reviews" lists the names each goes by`,
    );
  }
}

/** Words in a cell from which on it reads as a sentence (a review), not a code, a name or a mood. */
const SENTENCE_WORDS = 3;

/**
 * A file where no column gives `text` while an ignored column holds sentences may keep its reviews under
 * a name the table lacks: imported, they would be published without their words. The note on ignored
 * columns then says so and names the `--map` that reads the likeliest one (contract §3.1: nothing
 * dropped without a word, a real export's extra columns never block it, `--strict` refuses the file).
 * Ignored columns of short cells (a job number, a mood) get the ordinary note only.
 */
function checkTextColumn(rows: SheetRow[], header: string[], match: HeaderMatch, warnings: RawProblem[]): void {
  if (match.unknown.length === 0 || match.fields.includes('text')) return;
  const unknown = new Set(match.unknown);
  let best: { column: string; words: number } | undefined;
  header.forEach((column, i) => {
    if (match.fields[i] !== null || !unknown.has(column)) return;
    let words = 0;
    let sentence = false;
    for (let r = 1; r < rows.length; r++) {
      const n = (rows[r]!.cells[i] ?? '').split(/\s+/).filter(Boolean).length;
      words += n;
      sentence ||= n >= SENTENCE_WORDS;
    }
    if (sentence && (!best || words > best.words)) best = { column, words };
  });
  if (!best) return;
  warnings.push({
    record: 0,
    line: 1,
    path: 'text',
    message: `no column gives text (the review's words), and ${match.unknown.length === 1 ? 'the column' : 'the columns'} ${someNames(match.unknown)} ${match.unknown.length === 1 ? 'was' : 'were'} ignored: if "${best.column}" holds the reviews, add --map "${best.column}=text"; if the file has no review text, --map "${best.column}=-" imports the ratings alone`,
  });
}

/** The day/month order, decided once per file from every date cell (contract §3.1); a problem when it cannot be. */
function decideDateOrder(rows: SheetRow[], match: HeaderMatch, fileProblem: FileProblem): DateOrder | undefined {
  const dateColumns = match.fields.flatMap((f, i) => (f && DATE_FIELDS.has(f) ? [i] : []));
  if (dateColumns.length === 0) return undefined;
  const dates: string[] = [];
  for (let r = 1; r < rows.length; r++) for (const i of dateColumns) dates.push(rows[r]!.cells[i] ?? '');
  const decided = detectDateOrder(dates);
  if ('order' in decided) return decided.order;
  if ('conflict' in decided)
    fileProblem(
      'date',
      `dates are written both day-first ("${decided.conflict[0]}") and month-first ("${decided.conflict[1]}"); make them one form`,
    );
  else
    fileProblem(
      'date',
      `dates such as "${decided.undecidable.join('", "')}" could be day/month or month/day: pass --date-format MDY (3/25/2024) or DMY (25/3/2024)`,
    );
  return undefined;
}

/** One row's cells as a record; each cell that cannot be read is a problem, and its field is skipped. */
function readRow(
  cells: string[],
  at: { record: number; line: number },
  match: HeaderMatch,
  order: DateOrder | undefined,
  platform: string | undefined,
  problems: RawProblem[],
): RawRecord {
  const value: Record<string, unknown> = {};
  const skip: string[] = [...match.missing];
  const firstProblem = problems.length;
  cells.forEach((cell, c) => {
    const field = match.fields[c];
    if (!field || cell.trim() === '') return;
    // An undecided day/month order is one file problem above, not one per cell.
    if (!order && DATE_FIELDS.has(field) && dayMonthFields(cell)) return void skip.push(field);
    const v = cellValue(field, cell, order);
    if (v.ok) setField(value, field, v.value);
    else {
      skip.push(field);
      problems.push({ ...at, path: field, message: `${field}: ${v.message}` });
    }
  });
  // Each problem names the record's id when the file gives one (contract §3).
  if (typeof value.id === 'string') for (let p = firstProblem; p < problems.length; p++) problems[p]!.id = value.id;
  const hadId = value.id !== undefined;
  completeRecord(value, platform);
  if (value.id === undefined) skip.push('id');
  return { ...at, value, skip, ...(!hadId && value.id !== undefined ? { derivedId: true } : {}) };
}

/** Platform from `--platform`, a reply date without a reply dropped, and the id derived when absent. */
function completeRecord(value: Record<string, unknown>, platform: string | undefined): void {
  const source = (value.source ??= {}) as Record<string, unknown>;
  if (source.platform === undefined) {
    if (platform) source.platform = platform;
    else if (Object.keys(source).length > 0) source.platform = 'website';
    else delete value.source;
  }
  const response = value.response as { text?: unknown; date?: unknown } | undefined;
  if (response && typeof response.text !== 'string') delete value.response;
  const author = (value.author as { name?: unknown } | undefined)?.name;
  if (value.id === undefined && typeof author === 'string' && typeof value.date === 'string') {
    const p = (value.source as { platform?: unknown } | undefined)?.platform;
    value.id = derivedReviewId({
      platform: typeof p === 'string' ? p : 'website',
      author,
      date: value.date,
      text: typeof value.text === 'string' ? value.text : '',
    });
  }
}
