/**
 * Polls `check` every `pollMs` until it gives a value other than undefined or false (a rejection counts
 * as not yet), and returns it; throws, naming `what`, after `ms`.
 */
export async function eventually<T>(what: string, ms: number, check: () => Promise<T | undefined | false>, pollMs = 50): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
