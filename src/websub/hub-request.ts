import { z } from 'zod';
import type { HubMode } from '../domain/websub-ports.js';
import type { Topic, TopicSet } from './topic-url.js';

/** WebSub §5.1.1: hub.secret MUST be less than 200 bytes. */
const MAX_SECRET_BYTES = 199;
const MAX_URL_LENGTH = 2048;
const FIELDS = ['hub.mode', 'hub.callback', 'hub.topic', 'hub.secret', 'hub.lease_seconds'] as const;

export interface HubRequest {
  mode: HubMode;
  callback: string;
  topic: Topic;
  /** The topic as sent: echoed in the verification's hub.topic. */
  requestedTopic: string;
  secret: string | null;
  /** The lease asked for, before the hub's policy clamps it; null when none was asked for. */
  requestedLease: number | null;
}

export type HubRequestResult = { ok: true; request: HubRequest } | { ok: false; reason: string };

function isHttpsUrl(value: string): boolean {
  try {
    const u = new URL(value);
    // Credentials in a callback would be sent nowhere (fetch drops them) and logged everywhere.
    return u.protocol === 'https:' && u.hostname !== '' && !u.username && !u.password;
  } catch {
    return false;
  }
}

/**
 * A NUL (`%00`) in a stored field: PostgreSQL text cannot hold U+0000, so the same request would be
 * stored on SQLite and fail on PostgreSQL; refused on both, naming the field. The URL parser would also
 * quietly drop one at either end of a URL, so the callback and topic are checked as sent.
 */
const noNul = (name: string) => [(s: string) => !s.includes('\0'), `${name} must not contain the NUL character (%00)`] as const;

const required = (name: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? `${name} is missing` : `${name} is invalid`),
});

/**
 * The subscription request (WebSub §5.1, contract §6). Built per hub, because a valid topic is one of
 * this service's three topic URLs. Empty optional fields count as absent; unknown fields are ignored
 * (WebSub §5.1: hubs MUST ignore parameters they do not understand).
 */
export function createHubRequestSchema(topics: TopicSet) {
  return z
    .object({
      'hub.mode': z.enum(['subscribe', 'unsubscribe'], {
        error: (i) => (i.input === undefined ? 'hub.mode is missing' : 'hub.mode must be "subscribe" or "unsubscribe"'),
      }),
      'hub.callback': z
        .string(required('hub.callback'))
        .max(MAX_URL_LENGTH, `hub.callback must be at most ${MAX_URL_LENGTH} characters`)
        .refine(...noNul('hub.callback'))
        .refine(isHttpsUrl, 'hub.callback must be an absolute https: URL (plain http: callbacks are refused)'),
      'hub.topic': z
        .string(required('hub.topic'))
        .max(MAX_URL_LENGTH, `hub.topic must be at most ${MAX_URL_LENGTH} characters`)
        .refine(...noNul('hub.topic'))
        .transform((raw, ctx) => {
          const topic = topics.resolve(raw);
          if (topic) return { topic, raw };
          ctx.addIssue({
            code: 'custom',
            message: `hub.topic must be one of this hub's topics: ${topics.all.map((t) => t.url).join(', ')}`,
          });
          return z.NEVER;
        }),
      'hub.secret': z
        .string()
        .refine((s) => Buffer.byteLength(s, 'utf8') <= MAX_SECRET_BYTES, 'hub.secret must be less than 200 bytes')
        .refine(...noNul('hub.secret'))
        .optional(),
      'hub.lease_seconds': z
        .string()
        .regex(/^\d+$/, 'hub.lease_seconds must be a positive integer')
        .transform(Number)
        .refine((n) => n > 0, 'hub.lease_seconds must be a positive integer')
        .optional(),
    })
    .transform((f): HubRequest => ({
      mode: f['hub.mode'],
      // Normalized by the URL parser, so one callback spelled two ways is one subscription.
      callback: new URL(f['hub.callback']).href.replace(/#.*$/, ''),
      topic: f['hub.topic'].topic,
      requestedTopic: f['hub.topic'].raw,
      secret: f['hub.secret'] ?? null,
      requestedLease: f['hub.lease_seconds'] ?? null,
    }));
}

export type HubRequestSchema = ReturnType<typeof createHubRequestSchema>;

/** Reads the form fields the hub knows; a field given twice is ambiguous, so it is refused. */
export function parseHubRequest(schema: HubRequestSchema, form: URLSearchParams): HubRequestResult {
  const fields: Record<string, string> = {};
  const problems: string[] = [];
  for (const name of FIELDS) {
    const values = form.getAll(name);
    if (values.length > 1) problems.push(`${name} is given more than once`);
    const value = values[0];
    if (value !== undefined && value !== '') fields[name] = value;
  }
  const parsed = schema.safeParse(fields);
  if (!parsed.success) problems.push(...parsed.error.issues.map((i) => i.message));
  if (problems.length > 0 || !parsed.success) return { ok: false, reason: problems.join('\n') };
  return { ok: true, request: parsed.data };
}
