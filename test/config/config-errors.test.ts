import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

/** The message loadConfig throws for `env` (it must throw). */
function problemOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('loadConfig accepted an invalid configuration');
}

describe('configuration errors', () => {
  it('name the setting, what it expects and the value given', () => {
    expect(problemOf({ PORT: 'abc' })).toMatch(/PORT \(--port\): .* \(got "abc"\)/);
  });

  it('never repeat a secret, nor a value that could carry credentials', () => {
    const secretish = problemOf({ GOOGLE_PUSH_TOKEN: 'x', SYNC_INTERVAL_SECONDS: 'https://user:hunter2@example.com/' });
    expect(secretish).toContain('SYNC_INTERVAL_SECONDS');
    expect(secretish).not.toContain('hunter2');
    const url = problemOf({ BASE_URL: 'ftp://admin:hunter2@example.com/' });
    expect(url).toContain('BASE_URL');
    expect(url).not.toContain('hunter2');
  });
});
