import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { parseLabelledJsonl, type LabelledSentence } from './absa-eval.js';

/**
 * Labelled JSON Lines from files or folders (a folder means its `*.jsonl`, sorted by name, so a
 * training run does not depend on the order a shell expands a glob in).
 */
export async function readLabelled(cwd: string, paths: readonly string[]): Promise<{ data: LabelledSentence[]; files: string[] }> {
  const files = await readLabelledFiles(cwd, paths);
  return { data: files.flatMap((f) => f.data), files: files.map((f) => f.name) };
}

/** The same, file by file (base names): cross-validation holds out whole files (one writer each). */
export async function readLabelledFiles(cwd: string, paths: readonly string[]): Promise<Array<{ name: string; data: LabelledSentence[] }>> {
  const files: string[] = [];
  for (const p of paths) {
    const full = resolve(cwd, p);
    if ((await stat(full)).isDirectory()) {
      const names = (await readdir(full)).filter((f) => f.endsWith('.jsonl')).sort();
      files.push(...names.map((f) => join(full, f)));
    } else files.push(full);
  }
  const out: Array<{ name: string; data: LabelledSentence[] }> = [];
  for (const f of files) {
    try {
      out.push({ name: basename(f), data: parseLabelledJsonl(await readFile(f, 'utf8')) });
    } catch (e) {
      throw new Error(`${f}: ${(e as Error).message}`, { cause: e });
    }
  }
  return out;
}
