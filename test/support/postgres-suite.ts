import { afterAll, describe, it } from 'vitest';
import { createTestDatabase, postgresRequired, probePostgres, skipMessage, type TestDatabase } from './postgres.js';

export interface PostgresSuiteContext {
  adminUrl: string;
  /** A fresh database, dropped when the suite ends (also when a test fails). */
  freshDatabase(): Promise<TestDatabase>;
}

/**
 * Declares a suite that needs PostgreSQL. Unreachable server: the suite is skipped with a loud message,
 * or, when CI=true, replaced by one failing test naming what was tried (contract §1: `npm test` passes
 * on a machine without a server, CI must not silently stop testing PostgreSQL).
 */
export async function describePostgres(name: string, body: (ctx: PostgresSuiteContext) => void): Promise<void> {
  const probe = await probePostgres();
  if (!probe.ok) {
    if (postgresRequired()) {
      describe(name, () => {
        it('PostgreSQL is reachable (required when CI=true)', () => {
          throw new Error(`no PostgreSQL server: ${probe.reason}`);
        });
      });
    } else {
      console.warn(skipMessage(name, probe.reason));
      describe.skip(`${name} (SKIPPED: no PostgreSQL)`, () => {
        it('needs PostgreSQL', () => {});
      });
    }
    return;
  }
  const created: TestDatabase[] = [];
  describe(name, () => {
    afterAll(async () => {
      await Promise.allSettled(created.map((d) => d.drop()));
    });
    body({
      adminUrl: probe.adminUrl,
      async freshDatabase() {
        const db = await createTestDatabase(probe.adminUrl);
        created.push(db);
        return db;
      },
    });
  });
}
