import { afterEach, describe, expect, it } from 'vitest';
import type { McpSessionStore } from '../../src/domain/mcp-session-port.js';
import { createMcpSessionStore } from '../../src/storage/mcp-session-store.js';
import { openTwoConnections, type FreshDatabase } from './review-store.contract.js';

const at = (s: number) => new Date(Date.parse('2026-01-01T00:00:00.000Z') + s * 1000).toISOString();

/** The MCP session store's contract: what lets any replica accept a session another one created (contract §5). */
export function describeMcpSessionStoreContract(name: string, fresh: () => Promise<FreshDatabase>): void {
  describe(`McpSessionStore contract: ${name}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    });

    /** Two stores on two connections to one database: two replicas. */
    async function openTwo(): Promise<[McpSessionStore, McpSessionStore]> {
      const [a, b] = await openTwoConnections(fresh, cleanups);
      return [createMcpSessionStore(a.db), createMcpSessionStore(b.db)];
    }

    const session = (id: string, used: number) => ({
      id,
      protocolVersion: '2025-06-18',
      createdAt: at(0),
      lastUsedAt: at(used),
      expiresAt: at(used + 1800),
    });

    it('sees, touches and deletes a session across stores', async () => {
      const [a, b] = await openTwo();
      await a.insert(session('s1', 0));
      expect(await b.get('s1')).toEqual(session('s1', 0));
      await b.touch('s1', at(10), at(1810));
      expect(await a.get('s1')).toMatchObject({ lastUsedAt: at(10), expiresAt: at(1810) });
      expect(await a.remove('s1')).toBe(true);
      expect(await b.get('s1')).toBeUndefined();
      expect(await b.remove('s1')).toBe(false);
    });

    it('counts live sessions, removes expired ones and evicts the least recently used', async () => {
      const [a, b] = await openTwo();
      for (let n = 0; n < 5; n++) await a.insert(session(`s${n}`, n * 100));
      expect(await b.countLive(at(1850))).toBe(4);
      expect(await b.removeExpired(at(1900))).toBe(2);
      expect(await a.countLive(at(1900))).toBe(3);
      expect(await a.removeLeastRecentlyUsed(2)).toBe(2);
      expect(await b.get('s4')).toBeDefined();
      expect(await b.get('s2')).toBeUndefined();
      expect(await a.removeLeastRecentlyUsed(0)).toBe(0);
    });
  });
}
