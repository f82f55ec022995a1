import { describePostgres } from '../support/postgres-suite.js';
import { describeReviewStoreContract } from './review-store.contract.js';

// PostgreSQL: a fresh database per test, dropped after it (and again, to be sure, when the file ends).
await describePostgres('PostgreSQL store', ({ freshDatabase }) => {
  describeReviewStoreContract('PostgreSQL', async () => {
    const db = await freshDatabase();
    return { url: db.url, dispose: () => db.drop() };
  });
});
