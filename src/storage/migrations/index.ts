import type { Migration, MigrationProvider } from 'kysely';
import * as reviews0001 from './0001-reviews.js';

/**
 * Every migration, in order. A static list (not a folder scan) so the compiled build and the test
 * runner see the same set. Append new ones; never edit or reorder a released one.
 */
const MIGRATIONS: Record<string, Migration> = {
  '0001-reviews': reviews0001,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(MIGRATIONS),
};
