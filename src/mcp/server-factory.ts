import { McpServer, ProtocolError, ResourceNotFoundError, type CallToolResult } from '@modelcontextprotocol/server';
import { ERROR_CODES } from '../domain/errors.js';
import type { ServiceUrls } from '../domain/urls.js';
import { completeSnapshot, type SnapshotSource } from '../snapshot/snapshot.js';
import { serverInstructions } from './instructions.js';
import { registerPrompts } from './prompts.js';
import { documentResources, registerResources } from './resources.js';
import { registerTools, type Respond, type ToolFailure } from './tools.js';

export interface McpServerDeps {
  snapshots: SnapshotSource;
  urls: ServiceUrls;
  /** MCP_MAX_ANSWER_BYTES: what the answers of one HTTP request (one message, or a batch) may add up to. */
  maxAnswerBytes: number;
}

/** A JSON-RPC server error (implementation-defined range, JSON-RPC 2.0 §5.1): the answer would exceed MCP_MAX_ANSWER_BYTES. */
export const ANSWER_TOO_LARGE = -32005;

export const SERVER_INFO = { name: 'review-data-service', title: 'Review Data Service', version: '1.0.0' };

/** A tool error: the REST problem shape as JSON text, with the same `issues` (contract §5), and no structuredContent. */
function toolError(failure: ToolFailure): CallToolResult {
  const { code, detail, issues } = failure;
  const text = JSON.stringify({ title: ERROR_CODES[code].title, code, detail, ...(issues ? { issues } : {}) });
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * The MCP server of both eras, one fresh instance per HTTP request, which is how the SDK serves
 * stateless traffic (createMcpHandler builds one for every 2026-07-28 request, and the 2025 session
 * router one for every session request): tools, resources and prompts registered through the SDK's
 * public API, reading the current snapshot. The schemas are made once (tools.ts); an instance is a set
 * of registrations. It also counts what its request's answers add up to, so a batch stops growing at
 * MCP_MAX_ANSWER_BYTES: a request that comes after the limit is answered with an error, without running.
 */
export function createServerFactory(deps: McpServerDeps): () => McpServer {
  const resources = documentResources(deps.urls);
  const max = deps.maxAnswerBytes;

  return () => {
    const server = new McpServer(SERVER_INFO, {
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } },
      instructions: serverInstructions(deps.snapshots.current().view.business.name),
    });
    let spent = 0;
    const overBudget = (): string | undefined =>
      spent >= max ? `This batch's answer reached the limit of ${max} bytes; send this request again on its own.` : undefined;

    const respond: Respond = async (args, answer) => {
      if (!args.ok)
        return toolError({
          ok: false,
          code: 'invalid_parameters',
          detail: args.issues.map((i) => i.message).join('; '),
          issues: args.issues,
        });
      // Every published snapshot holds its documents; only a cold start may wait for its first insights.
      const snapshot = await completeSnapshot(deps.snapshots);
      // After the wait: from here to `spent` nothing yields, so a batch's calls count one after another.
      const full = overBudget();
      if (full) return toolError({ ok: false, code: 'payload_too_large', detail: full });
      const outcome = answer(args.value, snapshot);
      if (!outcome.ok) return toolError(outcome);
      // The answer carries the JSON twice (text and structuredContent); paged tools stay far below this.
      const size = outcome.json.length * 2;
      if (size > max) {
        const detail = `The answer (about ${size} bytes) exceeds this server's limit of ${max} bytes: ask for less (a smaller limit, fields, or one section).`;
        return toolError({ ok: false, code: 'payload_too_large', detail });
      }
      spent += size;
      return { content: [{ type: 'text', text: outcome.json }], structuredContent: outcome.structured as Record<string, unknown> };
    };
    registerTools(server, respond);

    registerResources(server, resources, async ({ uri, document }) => {
      const doc = (await completeSnapshot(deps.snapshots)).documents.get(document);
      const full = overBudget();
      if (full) throw new ProtocolError(ANSWER_TOO_LARGE, full);
      if (!doc) throw new ResourceNotFoundError(uri);
      // Checked before any copy is made: a large dataset is fetched over HTTP (streamed, cached, compressed).
      if (doc.body.length > max) {
        const message = `${document} is ${doc.body.length} bytes, over this server's answer limit of ${max} bytes: fetch ${uri} over HTTP, or use the tools (search_reviews, get_reviews_since) which page.`;
        throw new ProtocolError(ANSWER_TOO_LARGE, message, { size: doc.body.length, limit: max, url: uri });
      }
      spent += doc.body.length;
      return { contents: [{ uri, mimeType: doc.contentType.split(';')[0]!.trim(), text: doc.body.toString('utf8') }] };
    });
    registerPrompts(server);
    return server;
  };
}
