import { describe, expect, it } from 'vitest';
import {
  fieldOfHeader,
  HEADER_SYNONYMS,
  IGNORE,
  IMPORT_FIELDS,
  isForbiddenColumn,
  matchHeaders,
  normalizeHeader,
  parseColumnMap,
} from '../../src/import/header-synonyms.js';

describe('the header synonym table (contract §3.1)', () => {
  // The contract's list, written out here so that shrinking the table fails this test.
  const CONTRACT: Record<string, string[]> = {
    rating: ['Rating', 'Stars', 'Star Rating', 'Score', 'Review Stars'],
    text: ['Text', 'Review', 'Review Text', 'Comment', 'Review Content', 'Content'],
    date: ['Date', 'Review Date', 'Created', 'Created At', 'Review Created (UTC)', 'Time'],
    'author.name': ['Author', 'Name', 'Reviewer', 'Reviewer Name', 'Customer', 'Customer Name'],
    title: ['Title', 'Review Title', 'Headline'],
    'response.text': ['Owner Response', 'Response', 'Reply', 'Business Reply'],
    'response.date': ['Response Date', 'Reply Date'],
    id: ['Id', 'Review Id', 'Reference Id'],
    'source.platform': ['Platform', 'Source', 'Site'],
    'source.url': ['Url', 'Review Url', 'Link'],
  };
  it.each(Object.entries(CONTRACT))('maps every contract synonym of %s', (field, names) => {
    for (const name of names) expect(fieldOfHeader(name), name).toBe(field);
  });
  it('ignores case, spaces and punctuation, and knows each field by its dotted name', () => {
    expect(fieldOfHeader('  STAR-RATING ')).toBe('rating');
    expect(fieldOfHeader('review_created_utc')).toBe('date');
    expect(fieldOfHeader('Reviewer name:')).toBe('author.name');
    for (const field of IMPORT_FIELDS) expect(fieldOfHeader(field)).toBe(field);
    expect(fieldOfHeader('Mood')).toBeUndefined();
  });
  it('knows the common names of the review text column', () => {
    for (const name of ['Comments', 'Review Comments', 'review_comment', 'Customer Comments', 'Customer Review'])
      expect(fieldOfHeader(name), name).toBe('text');
  });
  it('gives no name to two fields', () => {
    const seen = new Map<string, string>();
    for (const field of IMPORT_FIELDS)
      for (const name of [field, ...HEADER_SYNONYMS[field]]) {
        const key = normalizeHeader(name);
        expect(seen.get(key) ?? field, `${name} is claimed by ${seen.get(key)} and ${field}`).toBe(field);
        seen.set(key, field);
      }
  });
});

describe('matchHeaders', () => {
  it('lists unknown columns and the required fields no column gives', () => {
    const m = matchHeaders(['Job Ref', 'Client', 'Score Given', 'Feedback', 'Comment']);
    expect(m.unknown).toEqual(['Job Ref', 'Client', 'Score Given', 'Feedback']);
    expect(m.missing).toEqual(['date', 'rating', 'author.name']);
    expect(m.fields).toEqual([null, null, null, null, 'text']);
  });
  it('lets --map win over the synonyms and drop columns', () => {
    const { map, errors } = parseColumnMap('Score Given=rating, Comment=title,Client=author.name,Visit Day=date,Job Ref=-');
    expect(errors).toEqual([]);
    const m = matchHeaders(['Job Ref', 'Client', 'Score Given', 'Visit Day', 'Comment'], map);
    expect(m.fields).toEqual([null, 'author.name', 'rating', 'date', 'title']);
    expect(m.unknown).toEqual([]);
    expect(m.missing).toEqual([]);
    expect(map.get(normalizeHeader('Job Ref'))).toBe(IGNORE);
  });
  it('reports two columns claiming one field', () => {
    expect(matchHeaders(['Review', 'Review Text', 'Stars', 'Date', 'Name']).duplicates).toEqual([
      { field: 'text', columns: ['Review', 'Review Text'] },
    ]);
  });
  it('refuses prototype-walking column names by name', () => {
    for (const name of ['__proto__.title', 'constructor', 'prototype', 'author.__proto__', 'Constructor.name'])
      expect(isForbiddenColumn(name), name).toBe(true);
    const m = matchHeaders(['__proto__.title', 'constructor', 'Rating']);
    expect(m.forbidden).toEqual(['__proto__.title', 'constructor']);
    expect(m.fields).toEqual([null, null, 'rating']);
    expect(parseColumnMap('X=__proto__.title').errors[0]).toMatch(/not a field/);
    expect(parseColumnMap('X=constructor').errors).toHaveLength(1);
  });
  it('rejects map entries without a field name', () => {
    expect(parseColumnMap('Stars').errors[0]).toMatch(/Column Name=field/);
    expect(parseColumnMap('A=ratings').errors[0]).toMatch(/ratings is not a field/);
  });
});
