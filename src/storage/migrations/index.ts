import type { Migration, MigrationProvider } from 'kysely';
import * as reviews0001 from './0001-reviews.js';
import * as websub0002 from './0002-websub.js';
import * as mcpSessions0003 from './0003-mcp-sessions.js';
import * as demoMarker0004 from './0004-demo-marker.js';
import * as documents0005 from './0005-documents.js';
import * as publicReviews0006 from './0006-public-reviews.js';
import * as reviewAnalyses0007 from './0007-review-analyses.js';
import * as publishedStampsIndex0008 from './0008-published-stamps-index.js';
import * as renderClaims0009 from './0009-render-claims.js';
import * as platformSync0010 from './0010-platform-sync.js';

/**
 * Every migration, in order. A static list (not a folder scan) so the compiled build and the test
 * runner see the same set. Append new ones; never edit or reorder a released one.
 */
const MIGRATIONS: Record<string, Migration> = {
  '0001-reviews': reviews0001,
  '0002-websub': websub0002,
  '0003-mcp-sessions': mcpSessions0003,
  '0004-demo-marker': demoMarker0004,
  '0005-documents': documents0005,
  '0006-public-reviews': publicReviews0006,
  '0007-review-analyses': reviewAnalyses0007,
  '0008-published-stamps-index': publishedStampsIndex0008,
  '0009-render-claims': renderClaims0009,
  '0010-platform-sync': platformSync0010,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(MIGRATIONS),
};
