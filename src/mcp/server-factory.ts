import { McpServer, ProtocolError, ResourceNotFoundError } from '@modelcontextprotocol/server';
import { ERROR_CODES } from '../domain/errors.js';
import type { ServiceUrls } from '../domain/urls.js';
import { completeSnapshot, type SnapshotSource } from '../snapshot/snapshot.js';
import { serverInstructions } from './instructions.js';
import { registerPrompts } from './prompts.js';
import { documentResources, registerResources } from './resources.js';
import { registerTools, type Respond, type ToolFailure } from './tools.js';

/** A JSON-RPC server error (implementation-defined range, JSON-RPC 2.0 §5.1): the answer would exceed MCP_MAX_ANSWER_BYTES. */
export const ANSWER_TOO_LARGE = -32005;

const SERVER_INFO = { name: 'review-data-service', title: 'Review Data Service', version: '1.0.0' };
const CAPABILITIES = { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } };

/** A tool error: the REST problem shape as JSON text, with the same `issues` (contract §5), no structuredContent. */
function toolError({ code, detail, issues }: ToolFailure) {
  const text = JSON.stringify({ title: ERROR_CODES[code].title, code, detail, ...(issues ? { issues } : {}) });
  return { content: [{ type: 'text' as const, text }], isError: true };
}

/**
 * The MCP server of both eras: a fresh instance for every HTTP request, which is how the SDK serves
 * stateless traffic (createMcpHandler makes one per 2026-07-28 request, the session router one per 2025
 * request), with the tools, resources and prompts registered through the SDK's public API over the current
 * snapshot. Schemas are made once (tools.ts): an instance is a set of registrations. It counts what its
 * request's answers add up to (`maxAnswerBytes`, MCP_MAX_ANSWER_BYTES): once a batch's answers reach it,
 * a later request is answered with an error without running.
 */
export function createServerFactory(deps: { snapshots: SnapshotSource; urls: ServiceUrls; maxAnswerBytes: number }): () => McpServer {
  const resources = documentResources(deps.urls);
  const max = deps.maxAnswerBytes;
  return () => {
    const instructions = serverInstructions(deps.snapshots.current().view.business.name);
    const server = new McpServer(SERVER_INFO, { capabilities: CAPABILITIES, instructions });
    let spent = 0;
    const full = `This batch's answer reached the limit of ${max} bytes; send this request again on its own.`;
    // Every published snapshot holds its documents; only a cold start may wait for its first insights. After
    // the wait nothing yields until `spent` is counted, so the calls of a batch count one after another.
    const snapshot = () => completeSnapshot(deps.snapshots);

    const respond: Respond = async (args, answer) => {
      if (!args.ok)
        return toolError({
          ok: false,
          code: 'invalid_parameters',
          detail: args.issues.map((i) => i.message).join('; '),
          issues: args.issues,
        });
      const current = await snapshot();
      if (spent >= max) return toolError({ ok: false, code: 'payload_too_large', detail: full });
      const outcome = answer(args.value, current);
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
      const doc = (await snapshot()).documents.get(document);
      if (!doc) throw new ResourceNotFoundError(uri);
      if (spent >= max) throw new ProtocolError(ANSWER_TOO_LARGE, full);
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
