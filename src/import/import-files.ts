import fs from 'node:fs/promises';
import path from 'node:path';
import type { Business } from '../domain/business.js';
import type { ImportSummary, ReviewStore } from '../domain/ports.js';
import { applyRecords } from './apply-records.js';
import { normalizeHeader, parseColumnMap } from './header-synonyms.js';
import { expandInputs, unreadable, type InputFile } from './input-files.js';
import { formatOf, readRecords, type ImportFormat, type RawFile, type ReadOptions } from './raw-records.js';
import type { DateOrder } from './sheet-values.js';
import type { ImportProblem } from './validate-records.js';

export interface ImportOptions {
  files: string[];
  format?: ImportFormat;
  replace: boolean;
  assumeVerified: boolean;
  /** Validate and count, write nothing (`--dry-run`). */
  dryRun?: boolean;
  /** `--map "Column=field,..."` for spreadsheet columns and JSON keys (dotted). */
  map?: string;
  delimiter?: string;
  dateFormat?: DateOrder;
  /** `source.platform` for records that have none. */
  platform?: string;
  /** `--sheet`: the workbook sheet to read. */
  sheet?: string;
  /** `--strict`: columns and keys that no field takes are problems, not notes. */
  strict?: boolean;
  /** `--allow-unknown-mentions`: a mention that names no catalog entry is dropped with a note, not a problem. */
  allowUnknownMentions?: boolean;
  /** The example business `init` writes: a business that still holds its values is refused. */
  template?: Business;
  /** `--allow-example-values`: the template's values are published with a note instead. */
  allowExampleValues?: boolean;
  /** This is the bundled demo (only the server's demo loader says so). */
  demo?: boolean;
  /** Called as records are read and validated, then as they are written. */
  onProgress?: (phase: 'validate' | 'write', done: number, total: number) => void;
}

export type ImportOutcome =
  | {
      ok: true;
      summary: ImportSummary;
      records: number;
      skipped: string[];
      business: boolean;
      /** Each file read as a known export, with what it was read as. */
      recognised: { file: string; label: string }[];
      warnings: ImportProblem[];
    }
  | { ok: false; problems: ImportProblem[]; warnings: ImportProblem[] };

const fileProblem = (file: string, message: string): ImportProblem => ({ file, record: 0, path: '', message });

/** What reading the inputs gives, file by file. */
interface Reading {
  files: { name: string; raw: RawFile }[];
  problems: ImportProblem[];
  warnings: ImportProblem[];
  skipped: string[];
  recognised: { file: string; label: string }[];
  /** The `--map` keys some file used: a key none used is a problem (a typo in a column name). */
  usedMapKeys: Set<string>;
}

type ColumnMap = ReturnType<typeof parseColumnMap>['map'];

/**
 * The import use case (contract §3, §3.1): read every file, validate every record, and only when all
 * are valid write them in one transaction. Any problem means nothing is written.
 */
export async function importFiles(store: ReviewStore, options: ImportOptions): Promise<ImportOutcome> {
  const { inputs, problems, skipped } = await expandInputs(options.files);
  const columnMap = parseColumnMap(options.map ?? '');
  for (const message of columnMap.errors) problems.push(fileProblem('--map', message));
  const reading: Reading = { files: [], problems, warnings: [], skipped, recognised: [], usedMapKeys: new Set() };
  for (const input of inputs) await readInput(input, options, columnMap.map, reading);
  if (inputs.length > 0 && inputs.every((i) => i.fromFolder) && reading.files.length === 0 && problems.length === 0)
    problems.push(
      fileProblem(options.files.map((f) => path.basename(f)).join(', '), 'no Google Business Profile review files found (reviews*.json)'),
    );
  for (const key of columnMap.map.keys())
    if (!reading.usedMapKeys.has(key))
      problems.push(fileProblem('--map', `--map names a column or key no file has ("${key}", compared without case and punctuation)`));

  const applied = await applyRecords(store, reading.files, options, problems, reading.warnings);
  return applied.ok ? { ...applied, skipped, recognised: reading.recognised } : applied;
}

/** Reads one input into `reading`; its bytes are dropped when it returns, before the next is read. */
async function readInput(input: InputFile, options: ImportOptions, map: ColumnMap, reading: Reading): Promise<void> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(input.file);
  } catch (e) {
    reading.problems.push(fileProblem(input.name, unreadable(input.file, e as NodeJS.ErrnoException)));
    return;
  }
  try {
    const raw = readRecords(bytes, input.fromFolder ? 'json' : formatOf(input.file, options.format), readOptions(options, map));
    // In a Takeout folder only review files count; the rest (posts, media, the profile) are listed. A
    // file that cannot be read (a truncated download, a stray byte) fails the import as it would alone.
    if (input.fromFolder && raw.kind !== 'gbp' && !raw.unreadable) {
      reading.skipped.push(input.name);
      return;
    }
    for (const k of raw.mapped) reading.usedMapKeys.add(k);
    if (raw.label) recognise(input.name, raw, raw.label, map, reading);
    reading.files.push({ name: input.name, raw });
  } catch (e) {
    reading.problems.push(fileProblem(input.name, (e as Error).message));
  }
}

function readOptions(options: ImportOptions, map: ColumnMap): ReadOptions {
  return {
    map,
    ...(options.delimiter ? { delimiter: options.delimiter } : {}),
    ...(options.dateFormat ? { dateFormat: options.dateFormat } : {}),
    ...(options.platform ? { platform: options.platform } : {}),
    ...(options.sheet ? { sheet: options.sheet } : {}),
  };
}

/** A file read as a known export: listed, and a `--map` naming its columns is noted as not applied. */
function recognise(file: string, raw: RawFile, label: string, map: ColumnMap, reading: Reading): void {
  reading.recognised.push({ file, label });
  // A known export's columns are all read by its profile; --map does not apply to it.
  const headers = 'headers' in raw && Array.isArray(raw.headers) ? (raw.headers as string[]) : [];
  const named = headers.filter((h) => map.has(normalizeHeader(h)));
  for (const h of named) reading.usedMapKeys.add(normalizeHeader(h));
  if (named.length > 0)
    reading.warnings.push(fileProblem(file, `--map is not applied to ${label}: every column it has is read as the export defines it`));
}
