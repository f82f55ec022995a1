import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// `npm run check` runs ESLint with eslint.layers.js: these cases show it refuses an outward import
// and accepts an inward one, so the rule cannot silently stop matching.
const eslint = new ESLint({ cwd: process.cwd() });

async function importErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import directions (docs/architecture.md)', () => {
  it.each([
    ['src/domain/example.ts', "import { createApp } from '../http/app.js';"],
    ['src/domain/example.ts', "import type { Snapshot } from '../snapshot/snapshot.js';"],
    ['src/insights/report/example.ts', "import type { Snapshot } from '../../snapshot/snapshot.js';"],
    ['src/feeds/example.ts', "import { buildView } from '../snapshot/snapshot.js';"],
    ['src/storage/example.ts', "import type { McpDeps } from '../mcp/register-mcp.js';"],
    ['src/websub/example.ts', "import { rejectOtherMethods } from '../http/routes/methods.js';"],
    ['src/snapshot/renderers/example.ts', "import type { AppDeps } from '../../http/app.js';"],
    ['src/mcp/example.ts', "import { createWebSubHub } from '../websub/index.js';"],
    ['src/http/example.ts', "import { createReviewStore } from '../storage/review-store.js';"],
    ['src/domain/example.ts', "import Fastify from 'fastify';"],
    ['src/site/pages/example.tsx', "import { createApp } from '../../http/app.js';"],
    ['src/snapshot/example.ts', "import { siteContext } from '../site/site-context.js';"],
    ['src/insights/example.ts', "import { readShippedModels } from '../absa-models.js';"],
  ])('%s refuses %s', async (file, code) => {
    expect(await importErrors(file, `${code}\nexport {};\n`)).toHaveLength(1);
  });

  it.each([
    ['src/snapshot/example.ts', "import type { PublishedView } from '../domain/published-view.js';"],
    ['src/http/routes/example.ts', "import type { Snapshot } from '../../snapshot/snapshot.js';"],
    ['src/insights/example.ts', "import type { Review } from '../domain/review.js';"],
    ['src/server.ts', "import { createApp } from './http/app.js';"],
    ['src/site/pages/example.tsx', "import type { Snapshot } from '../../snapshot/snapshot.js';"],
    ['src/http/routes/example.ts', "import { siteContext } from '../../site/site-context.js';"],
    ['src/snapshot/renderers/example.ts', "import { readShippedModels } from '../../absa-models.js';"],
  ])('%s accepts %s', async (file, code) => {
    expect(await importErrors(file, `${code}\nexport {};\n`)).toEqual([]);
  });
});
