import { describe, expect, it } from 'vitest';
import { createServiceUrls } from '../../src/domain/urls.js';
import { createHubRequestSchema, parseHubRequest } from '../../src/websub/hub-request.js';
import { grantLease } from '../../src/websub/lease.js';
import { createTopicSet, normalizeUrl } from '../../src/websub/topic-url.js';

const urls = createServiceUrls('http://127.0.0.1:8080');
const topics = createTopicSet(urls);
const schema = createHubRequestSchema(topics);
const valid = { 'hub.mode': 'subscribe', 'hub.topic': urls.feedXml, 'hub.callback': 'https://sub.example/cb?a=1' };
const parse = (fields: Record<string, string>) => parseHubRequest(schema, new URLSearchParams(fields));
const reason = (fields: Record<string, string>) => {
  const r = parse(fields);
  return r.ok ? null : r.reason;
};

describe('hub request validation (contract §6)', () => {
  it('accepts a valid subscribe and unsubscribe, ignoring unknown parameters', () => {
    const r = parse({ ...valid, foo: 'bar', 'hub.foo': 'x' });
    expect(r.ok && r.request).toMatchObject({
      mode: 'subscribe',
      callback: 'https://sub.example/cb?a=1',
      secret: null,
      requestedLease: null,
    });
    expect(r.ok && r.request.topic.url).toBe(urls.feedXml);
    expect(parse({ ...valid, 'hub.mode': 'unsubscribe' }).ok).toBe(true);
  });

  it('names every missing field', () => {
    expect(reason({})).toMatch(/hub\.mode is missing[\s\S]*hub\.callback is missing[\s\S]*hub\.topic is missing/);
    expect(reason({ ...valid, 'hub.callback': '' })).toMatch(/hub\.callback is missing/);
  });

  it('refuses a bad mode, a non-https callback and a foreign topic', () => {
    expect(reason({ ...valid, 'hub.mode': 'publish' })).toMatch(/hub\.mode must be/);
    expect(reason({ ...valid, 'hub.callback': 'http://sub.example/cb' })).toMatch(/https/);
    expect(reason({ ...valid, 'hub.callback': '/cb' })).toMatch(/absolute https/);
    expect(reason({ ...valid, 'hub.callback': 'https://user:pw@sub.example/cb' })).toMatch(/https/);
    expect(reason({ ...valid, 'hub.topic': 'https://example.com/feed.xml' })).toMatch(/hub\.topic must be one of/);
    expect(reason({ ...valid, 'hub.topic': `${urls.base}/feed.xml?x=1` })).toMatch(/hub\.topic/);
  });

  it('refuses a hub.secret of 200 bytes or more (WebSub §5.1.1), counting bytes, not characters', () => {
    expect(parse({ ...valid, 'hub.secret': 'x'.repeat(199) }).ok).toBe(true);
    expect(reason({ ...valid, 'hub.secret': 'x'.repeat(200) })).toMatch(/200 bytes/);
    expect(reason({ ...valid, 'hub.secret': 'é'.repeat(100) })).toMatch(/200 bytes/);
  });

  it('refuses a NUL in hub.secret, hub.callback or hub.topic, naming the field (PostgreSQL text cannot hold one)', () => {
    expect(reason({ ...valid, 'hub.secret': 'se\0cret' })).toBe('hub.secret must not contain the NUL character (%00)');
    expect(reason({ ...valid, 'hub.callback': 'https://sub.example/c\0b' })).toMatch(/^hub\.callback must not contain the NUL/);
    // The URL parser drops a NUL at either end, so these would be stored as sent and differ from the URL.
    expect(reason({ ...valid, 'hub.callback': 'https://sub.example/cb\0' })).toMatch(/^hub\.callback must not contain the NUL/);
    expect(reason({ ...valid, 'hub.topic': `${urls.feedXml}\0` })).toBe('hub.topic must not contain the NUL character (%00)');
    // As a subscriber sends it: percent-encoded in the form body.
    const form = new URLSearchParams(
      `hub.mode=subscribe&hub.topic=${encodeURIComponent(urls.feedXml)}&hub.callback=https%3A%2F%2Fsub.example%2Fcb&hub.secret=a%00b`,
    );
    const r = parseHubRequest(schema, form);
    expect(r.ok ? null : r.reason).toMatch(/hub\.secret must not contain the NUL/);
  });

  it('requires hub.lease_seconds to be a positive integer when given', () => {
    for (const bad of ['0', '-1', '1.5', 'abc', '1e3', ' 5'])
      expect(reason({ ...valid, 'hub.lease_seconds': bad }), bad).toMatch(/lease_seconds/);
    const r = parse({ ...valid, 'hub.lease_seconds': '86400' });
    expect(r.ok && r.request.requestedLease).toBe(86400);
  });

  it('refuses a known field given twice', () => {
    const form = new URLSearchParams(valid);
    form.append('hub.mode', 'unsubscribe');
    const r = parseHubRequest(schema, form);
    expect(!r.ok && r.reason).toMatch(/hub\.mode is given more than once/);
  });
});

describe('topic normalization', () => {
  it('treats case of scheme and host, default ports and unreserved percent-encoding as equal', () => {
    for (const spelling of [
      'HTTP://127.0.0.1:8080/feed.xml',
      'http://127.0.0.1:8080/%66eed.xml',
      'http://127.0.0.1:8080/feed%2Exml',
      'http://127.0.0.1:8080/./feed.xml',
      'http://127.0.0.1:8080/feed.xml#top',
    ]) {
      expect(topics.resolve(spelling)?.url, spelling).toBe(urls.feedXml);
    }
    expect(normalizeUrl('https://Example.COM:443/a%7eb%2f')).toBe('https://example.com/a~b%2F');
    expect(topics.resolve('http://127.0.0.1:8081/feed.xml')).toBeNull();
    expect(topics.resolve('http://127.0.0.1:8080/Feed.xml')).toBeNull();
  });

  it('drops the default port of the topic itself', () => {
    const t = createTopicSet(createServiceUrls('https://Reviews.example.com'));
    expect(t.resolve('https://reviews.example.com:443/api/feed.json')?.document).toBe('feed.json');
  });
});

describe('lease', () => {
  const policy = { min: 3600, max: 2592000, default: 864000 };
  it('clamps requests to [min, max] and defaults when none is asked for', () => {
    expect(grantLease(null, policy)).toBe(864000);
    expect(grantLease(5, policy)).toBe(3600);
    expect(grantLease(86400, policy)).toBe(86400);
    expect(grantLease(999999999999, policy)).toBe(2592000);
  });
});
