import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createReviewStore } from '../../src/storage/review-store.js';
import { fixtureReviews } from '../support/fixture.js';
import { useTempDatabases } from '../support/temp-databases.js';

/**
 * A full disk during an import reports SQLITE_FULL, not "cannot rollback - no transaction
 * is active" (SQLite rolls back by itself on a full disk; a second ROLLBACK used to hide the cause).
 * max_page_count makes the database "full" without filling a disk.
 */
const databases = useTempDatabases('review-data-full-');

describe('an import on a full disk', () => {
  it('fails with the cause and keeps nothing', async () => {
    const handle = await databases.file();
    const store = createReviewStore(handle.db);
    const { page_count } = (await sql<{ page_count: number }>`pragma page_count`.execute(handle.db)).rows[0]!;
    await sql.raw(`pragma max_page_count = ${page_count + 2}`).execute(handle.db);
    const big = fixtureReviews().map((r, i) => ({ ...r, id: `big-${i}`, text: 'x'.repeat(20_000) }));
    const error = await store.applyImport({ reviews: big, replace: false }).then(
      () => null,
      (e: unknown) => e as Error & { code?: string },
    );
    expect(error).not.toBeNull();
    expect(error!.code).toBe('SQLITE_FULL');
    expect(error!.message).not.toMatch(/cannot rollback/);
    expect(await store.isEmpty()).toBe(true);
  });

  it('an error after SQLite rolled the transaction back itself surfaces as that error', async () => {
    const handle = await databases.open('sqlite::memory:');
    // What SQLite does on a full disk at COMMIT or in the journal: the transaction is gone when the
    // error reaches the driver, whose own ROLLBACK then finds none.
    const outcome = handle.db.transaction().execute(async (trx) => {
      await sql`rollback`.execute(trx);
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    });
    await expect(outcome).rejects.toMatchObject({ code: 'SQLITE_FULL', message: 'database or disk is full' });
  });
});
