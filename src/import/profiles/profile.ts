import { normalizeHeader } from '../header-synonyms.js';
import type { MappedRecord } from './mapped-record.js';

/**
 * A known export (contract §3.1, "known export profiles"): recognised by its shape, it maps every field
 * it has, either to a review field or, knowingly, to nothing (a reviewer's private email, an internal
 * id). What a file holds beyond that is listed as unknown, as for any file.
 */
export interface JsonProfile {
  id: string;
  /** How the summary names it: "a Trustpilot API response". */
  label: string;
  /** The reviews of a document in this shape, or null when the document is not in it. */
  reviewsOf(doc: unknown): unknown[] | null;
  /** The document's own keys besides the reviews (paging, totals) and each review's keys: read or dropped on purpose. */
  documentKeys: readonly string[];
  reviewKeys: readonly string[];
  map(review: unknown): MappedRecord;
}

export interface CsvProfile {
  id: string;
  label: string;
  /** True when a header row (normalized with `normalizeHeader`) is this export's. */
  matches(headers: ReadonlySet<string>): boolean;
  /** Every column it reads or drops on purpose, as the platform spells it. */
  columns: readonly string[];
  /** One row, keyed by normalized header. */
  mapRow(row: ReadonlyMap<string, string>): MappedRecord;
}

/** A row given as `{ "Review Stars": "5", ... }` (any spelling of the headers), keyed as profiles read it. */
export function rowOf(record: Readonly<Record<string, string>>): Map<string, string> {
  return new Map(Object.entries(record).map(([k, v]) => [normalizeHeader(k), v]));
}

/** The first of these columns the row has a value in. */
export function cell(row: ReadonlyMap<string, string>, ...names: string[]): string | undefined {
  for (const name of names) {
    const v = row.get(normalizeHeader(name));
    if (v !== undefined && v.trim() !== '') return v;
  }
  return undefined;
}

/** True when every group has at least one of its names among the headers. */
export function hasAll(headers: ReadonlySet<string>, ...groups: string[][]): boolean {
  return groups.every((names) => names.some((n) => headers.has(normalizeHeader(n))));
}

/** A JSON object's field, or undefined (never a prototype's). */
export function field(node: unknown, key: string): unknown {
  return node && typeof node === 'object' && !Array.isArray(node) && Object.hasOwn(node, key)
    ? (node as Record<string, unknown>)[key]
    : undefined;
}

export function isObject(x: unknown): x is Record<string, unknown> {
  return !!x && typeof x === 'object' && !Array.isArray(x);
}
