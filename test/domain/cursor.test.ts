import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../src/domain/cursor.js';

const key = { id: 'r-1', date: '2024-02-29', rating: 4, updated_at: '2024-03-01T10:00:00Z' };

describe('cursor', () => {
  it('round-trips a key for its sort', () => {
    expect(decodeCursor(encodeCursor('highest', key), 'highest')).toEqual(key);
  });
  it('is opaque URL-safe text', () => {
    expect(encodeCursor('newest', key)).toMatch(/^[A-Za-z0-9_-]+$/);
  });
  it('rejects a cursor issued for another sort', () => {
    expect(decodeCursor(encodeCursor('newest', key), 'oldest')).toBeNull();
  });
  it.each([
    'not-a-valid-cursor',
    '!!!',
    'eyJ4IjoxfQ',
    Buffer.from('{"v":1,"s":"newest","d":"2024-02-30","r":4,"u":"2024-03-01T10:00:00Z","i":"x"}').toString('base64url'),
  ])('rejects forged or broken cursor %s', (c) => expect(decodeCursor(c, 'newest')).toBeNull());
});
