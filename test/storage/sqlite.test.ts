import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describeAnalysisCacheStoreContract } from './analysis-cache-store.contract.js';
import { describeDocumentCacheStoreContract } from './document-cache-store.contract.js';
import { describeMcpSessionStoreContract } from './mcp-session-store.contract.js';
import { describeReviewStoreContract } from './review-store.contract.js';
import { describeSyncStoreContract } from './sync-state-store.contract.js';
import { describeWebSubStoreContract } from './websub-store.contract.js';

// SQLite: a file in a fresh temporary directory per test (a file, not :memory:, so two handles share it).
async function freshSqlite() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rds-store-'));
  return {
    url: `sqlite:${path.join(dir, 'reviews.db')}`,
    dispose: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

describeReviewStoreContract('SQLite', freshSqlite);
describeWebSubStoreContract('SQLite', freshSqlite);
describeMcpSessionStoreContract('SQLite', freshSqlite);
describeDocumentCacheStoreContract('SQLite', freshSqlite);
describeAnalysisCacheStoreContract('SQLite', freshSqlite);
describeSyncStoreContract('SQLite', freshSqlite);
