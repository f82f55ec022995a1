import { describePostgres } from '../support/postgres-suite.js';
import { describeAnalysisCacheStoreContract } from './analysis-cache-store.contract.js';
import { describeDocumentCacheStoreContract } from './document-cache-store.contract.js';
import { describeMcpSessionStoreContract } from './mcp-session-store.contract.js';
import { describeReviewStoreContract } from './review-store.contract.js';
import { describeSyncStoreContract } from './sync-state-store.contract.js';
import { describeWebSubStoreContract } from './websub-store.contract.js';

// PostgreSQL: a fresh database per test, dropped after it (and again, to be sure, when the file ends).
await describePostgres('PostgreSQL stores', ({ freshDatabase }) => {
  const fresh = async () => {
    const db = await freshDatabase();
    return { url: db.url, dispose: () => db.drop() };
  };
  describeReviewStoreContract('PostgreSQL', fresh);
  describeWebSubStoreContract('PostgreSQL', fresh);
  describeMcpSessionStoreContract('PostgreSQL', fresh);
  describeDocumentCacheStoreContract('PostgreSQL', fresh);
  describeAnalysisCacheStoreContract('PostgreSQL', fresh);
  describeSyncStoreContract('PostgreSQL', fresh);
});
