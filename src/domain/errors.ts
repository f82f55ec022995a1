import { z } from 'zod';

/** One problem with a request or an import record (contract §4: `{ path: [name], code, message }`). */
export const IssueSchema = z
  .object({
    path: z.array(z.union([z.string(), z.number()])),
    code: z.string(),
    message: z.string(),
  })
  .meta({ id: 'Issue' });
export type Issue = z.infer<typeof IssueSchema>;

/**
 * Stable error codes. Transports map them to statuses (HTTP) or error results (MCP); the code and
 * message are public, so an unexpected error never becomes an AppError.
 */
export const ERROR_CODES = {
  invalid_parameters: { status: 400, title: 'Invalid parameters' },
  invalid_request: { status: 400, title: 'Invalid request' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  forbidden: { status: 403, title: 'Forbidden' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  not_acceptable: { status: 406, title: 'Not acceptable' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  rate_limited: { status: 429, title: 'Too many requests' },
  internal: { status: 500, title: 'Internal server error' },
  unavailable: { status: 503, title: 'Service unavailable' },
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** The RFC 9457 `type` of a code's problems: a stable URN, one per code (docs/architecture.md lists them). */
export function problemType(code: ErrorCode): string {
  return `urn:review-data:problem:${code.replace(/_/g, '-')}`;
}

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: Issue[],
  ) {
    super(message);
  }
}

/**
 * Every message names its field, so it stands on its own in a list: shared schemas say "must be …",
 * zod's defaults say "Too big: …" or "… received undefined" (a missing field).
 */
function namedMessage(path: (string | number)[], message: string): string {
  if (path.length === 0) return message;
  const field = path.map(String).join('.');
  if (/received undefined$/.test(message)) return `${field} is required`;
  if (message.startsWith('must ')) return `${field} ${message}`;
  const name = String(path.at(-1));
  return message.includes(name) ? message : `${field}: ${message}`;
}

/** Zod issues in our public form: the path names the parameter or field, the code says what kind. */
export function toIssues(error: z.ZodError, prefix: (string | number)[] = []): Issue[] {
  return error.issues.map((i) => {
    const path = [...prefix, ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
    return { path, code: i.code, message: namedMessage(path, i.message) };
  });
}
