import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, Server, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import type { ServiceUrls } from '../domain/urls.js';
import { completeSnapshot, type Snapshot, type SnapshotSource } from '../snapshot/snapshot.js';
import { serverInstructions } from './instructions.js';
import { toolJsonSchema, withOptionalKeys, withPatternKeys } from './json-schema.js';
import { PROMPTS, renderPrompt } from './prompts.js';
import { documentResources, readDocument } from './resources.js';
import { createTools, toolErrorJson } from './tools.js';

export interface McpServerDeps {
  snapshots: SnapshotSource;
  urls: ServiceUrls;
  /** MCP_MAX_ANSWER_BYTES: the largest result one request may build (issue 11 H1). */
  maxAnswerBytes?: number;
}

/** A JSON-RPC server error (implementation-defined range, JSON-RPC 2.0 §5.1): the answer would exceed MCP_MAX_ANSWER_BYTES. */
export const ANSWER_TOO_LARGE = -32005;

/** The tools' names, for routing that must know them before a server instance exists. */
export const TOOL_NAMES: ReadonlySet<string> = new Set(createTools().map((t) => t.name));

export const SERVER_INFO = { name: 'review-data-service', title: 'Review Data Service', version: '1.0.0' };

// Contract §5: every tool only reads, and only this service's own data.
const ANNOTATIONS = { readOnlyHint: true, openWorldHint: false, destructiveHint: false, idempotentHint: true };

export interface ServerInstanceOptions {
  /**
   * A 2026-07-28-era revision the instance also supports, for instances connected to the SDK's
   * `PerRequestHTTPServerTransport` by hand (modern-tool-calls.ts); `createMcpHandler` binds its own.
   */
  modernRevision?: string;
}

/**
 * A factory of per-request server instances for both eras. Everything that does not depend on the
 * request (the tool list with its JSON Schemas, the resource list) is computed once, here; an
 * instance is a handful of handler closures, cheap enough to make for every request, which is how
 * the SDK serves stateless traffic (one instance per exchange).
 */
export function createServerFactory(deps: McpServerDeps): (options?: ServerInstanceOptions) => Server {
  const tools = createTools();
  const byName = new Map(tools.map((t) => [t.name, t]));
  const listed = tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: withPatternKeys(toolJsonSchema(t.inputSchema, 'input'), t.patternKeys ?? []),
    outputSchema: withOptionalKeys(toolJsonSchema(t.outputSchema, 'output'), t.omittableKeys ?? []),
    annotations: { title: t.title, ...ANNOTATIONS },
  }));
  const resources = documentResources(deps.urls);
  const listedResources = resources.map(({ uri, name, title, description, mimeType }) => ({ uri, name, title, description, mimeType }));
  const instructionsFor = new WeakMap<Snapshot, string>();
  const maxAnswerBytes = deps.maxAnswerBytes ?? Number.POSITIVE_INFINITY;

  return (options) => {
    const snapshot = deps.snapshots.current();
    let instructions = instructionsFor.get(snapshot);
    if (instructions === undefined) instructionsFor.set(snapshot, (instructions = serverInstructions(snapshot.view.business.name)));
    const server = new Server(SERVER_INFO, {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions,
      // The SDK's public way to let an instance bind to a 2026-07-28 per-request transport on connect.
      ...(options?.modernRevision ? { supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS, options.modernRevision] } : {}),
    });

    server.setRequestHandler('tools/list', () => ({ tools: listed }));
    server.setRequestHandler('tools/call', async (request) => {
      const tool = byName.get(request.params.name);
      // MCP 2025-11-25 §Tools, Error Handling: an unknown tool is a protocol error, -32602.
      if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      // Every published snapshot holds its documents; only a cold start may wait for its first insights.
      const snapshot = await completeSnapshot(deps.snapshots);
      const outcome = tool.call(request.params.arguments ?? {}, snapshot);
      if (!outcome.ok) {
        // No structuredContent on errors: clients validate it against the outputSchema.
        return { content: [{ type: 'text' as const, text: toolErrorJson(outcome) }], isError: true };
      }
      // The answer carries the JSON twice (text and structuredContent); paged tools stay far below this.
      if (outcome.json.length * 2 > maxAnswerBytes) {
        const detail = `The answer (about ${outcome.json.length * 2} bytes) exceeds this server's limit of ${maxAnswerBytes} bytes: ask for less (a smaller limit, fields, or one section).`;
        return {
          content: [{ type: 'text' as const, text: toolErrorJson({ ok: false, code: 'payload_too_large', detail }) }],
          isError: true,
        };
      }
      return {
        content: [{ type: 'text' as const, text: outcome.json }],
        structuredContent: outcome.structured ?? (JSON.parse(outcome.json) as Record<string, unknown>),
      };
    });

    server.setRequestHandler('resources/list', () => ({ resources: listedResources }));
    server.setRequestHandler('resources/read', async (request) => {
      const resource = resources.find((r) => r.uri === request.params.uri);
      const snapshot = resource ? await completeSnapshot(deps.snapshots) : undefined;
      const size = resource && snapshot ? snapshot.documents.get(resource.document)?.body.length : undefined;
      // Checked before any copy is made: a large dataset is fetched over HTTP (streamed, cached, compressed).
      if (resource && size !== undefined && size > maxAnswerBytes) {
        throw new ProtocolError(
          ANSWER_TOO_LARGE,
          `${resource.name} is ${size} bytes, over this server's answer limit of ${maxAnswerBytes} bytes: fetch ${resource.uri} over HTTP, or use the tools (search_reviews, get_reviews_since) which page.`,
          { size, limit: maxAnswerBytes, url: resource.uri },
        );
      }
      const contents = resource && snapshot ? readDocument(snapshot, resource) : undefined;
      if (!contents) throw new ResourceNotFoundError(request.params.uri);
      return { contents: [contents] };
    });

    server.setRequestHandler('prompts/list', () => ({ prompts: PROMPTS }));
    server.setRequestHandler('prompts/get', (request) => {
      const prompt = renderPrompt(request.params.name, request.params.arguments ?? {});
      if (!prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
      return prompt;
    });
    return server;
  };
}
