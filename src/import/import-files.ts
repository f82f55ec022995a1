import fs from 'node:fs/promises';
import path from 'node:path';
import type { Business } from '../domain/business.js';
import type { ImportSummary, ReviewStore } from '../domain/ports.js';
import { applyRecords } from './apply-records.js';
import { normalizeHeader, parseColumnMap } from './header-synonyms.js';
import { expandInputs } from './input-files.js';
import { formatOf, readRecords, type ImportFormat, type RawFile } from './raw-records.js';
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
  /** The example business `init` writes: a business still holding its contact details gets a warning. */
  template?: Business;
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

/**
 * The import use case (contract §3, §3.1): read every file, validate every record, and only when all
 * are valid write them in one transaction. Any problem means nothing is written.
 */
export async function importFiles(store: ReviewStore, options: ImportOptions): Promise<ImportOutcome> {
  const { inputs, problems, skipped } = await expandInputs(options.files);
  const columnMap = parseColumnMap(options.map ?? '');
  for (const message of columnMap.errors) problems.push(fileProblem('--map', message));
  const files: { name: string; raw: RawFile }[] = [];
  const warnings: ImportProblem[] = [];
  const recognised: { file: string; label: string }[] = [];
  const usedMapKeys = new Set<string>();
  for (const input of inputs) {
    let bytes: Buffer | null;
    try {
      bytes = await fs.readFile(input.file);
    } catch (e) {
      problems.push(fileProblem(input.name, `cannot read ${input.file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`));
      continue;
    }
    try {
      const format = input.fromFolder ? 'json' : formatOf(input.file, options.format);
      const raw = readRecords(bytes, format, {
        map: columnMap.map,
        ...(options.delimiter ? { delimiter: options.delimiter } : {}),
        ...(options.dateFormat ? { dateFormat: options.dateFormat } : {}),
        ...(options.platform ? { platform: options.platform } : {}),
        ...(options.sheet ? { sheet: options.sheet } : {}),
      });
      bytes = null;
      // In a Takeout folder only review files count; the rest (posts, media, the profile) are listed. A
      // file that cannot be read (a truncated download, a stray byte) fails the import as it would alone.
      if (input.fromFolder && raw.kind !== 'gbp' && !raw.unreadable) {
        skipped.push(input.name);
        continue;
      }
      for (const k of raw.mapped) usedMapKeys.add(k);
      if (raw.label) {
        recognised.push({ file: input.name, label: raw.label });
        // A known export's columns are all read by its profile; --map does not apply to it.
        const headers = 'headers' in raw && Array.isArray(raw.headers) ? (raw.headers as string[]) : [];
        const named = headers.filter((h) => columnMap.map.has(normalizeHeader(h)));
        for (const h of named) usedMapKeys.add(normalizeHeader(h));
        if (named.length > 0)
          warnings.push(
            fileProblem(input.name, `--map is not applied to ${raw.label}: every column it has is read as the export defines it`),
          );
      }
      files.push({ name: input.name, raw });
    } catch (e) {
      problems.push(fileProblem(input.name, (e as Error).message));
    }
  }
  if (inputs.length > 0 && inputs.every((i) => i.fromFolder) && files.length === 0 && problems.length === 0)
    problems.push(
      fileProblem(options.files.map((f) => path.basename(f)).join(', '), 'no Google Business Profile review files found (reviews*.json)'),
    );
  for (const key of columnMap.map.keys())
    if (!usedMapKeys.has(key))
      problems.push(fileProblem('--map', `--map names a column or key no file has ("${key}", compared without case and punctuation)`));

  const applied = await applyRecords(store, files, options, problems, warnings);
  return applied.ok ? { ...applied, skipped, recognised } : applied;
}
