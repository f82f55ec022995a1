import fs from 'node:fs/promises';
import { z } from 'zod';
import { ConfigError } from './config.js';
import { toIssues } from './domain/errors.js';
import { parseTaxonomy, type Taxonomy } from './insights/taxonomy.js';

/** A custom taxonomy file (INSIGHTS_TAXONOMY_FILE): read once at start-up, rejected loudly if invalid. */
export async function loadTaxonomyFile(file: string | undefined): Promise<Taxonomy[]> {
  if (!file) return [];
  let json: unknown;
  try {
    json = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
    throw new ConfigError(
      missing ? `INSIGHTS_TAXONOMY_FILE: no such file: ${file}` : `INSIGHTS_TAXONOMY_FILE ${file}: ${(e as Error).message}`,
      {
        cause: e,
      },
    );
  }
  const list = Array.isArray(json) ? json : [json];
  return list.map((t, i) => {
    try {
      return parseTaxonomy(t);
    } catch (e) {
      const detail =
        e instanceof z.ZodError
          ? toIssues(e)
              .map((issue) => `  ${issue.message}`)
              .join('\n')
          : (e as Error).message;
      throw new ConfigError(`INSIGHTS_TAXONOMY_FILE ${file}: taxonomy ${i + 1} is invalid:\n${detail}`, { cause: e });
    }
  });
}
