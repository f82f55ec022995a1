import { describe, expect, it } from 'vitest';
import { parseColumnMap } from '../../src/import/header-synonyms.js';
import { detectDelimiter, readSpreadsheet } from '../../src/import/spreadsheet.js';

// An invented CRM export: the headers people have, no id column, values as people write them.
const US = [
  'Reviewer Name,Star Rating,Review Text,Review Date,Owner Response,Response Date',
  'Rae Lindqvist,5 stars,"Fast, tidy work.",3/25/2024,Thanks Rae!,3/26/2024',
  'Omid Farahani,4/5,Good.,4/5/2024,,',
].join('\n');

describe('readSpreadsheet', () => {
  it('reads synonym headers, ratings and month-first dates, and derives ids', () => {
    const out = readSpreadsheet(US, { platform: 'yelp' });
    expect(out.problems).toEqual([]);
    expect(out.records.map((r) => r.value)).toEqual([
      {
        id: expect.stringMatching(/^yelp-[0-9a-f]{16}$/) as unknown as string,
        author: { name: 'Rae Lindqvist' },
        rating: 5,
        text: 'Fast, tidy work.',
        date: '2024-03-25',
        response: { text: 'Thanks Rae!', date: '2024-03-26' },
        source: { platform: 'yelp' },
      },
      {
        id: expect.stringMatching(/^yelp-/) as unknown as string,
        author: { name: 'Omid Farahani' },
        rating: 4,
        text: 'Good.',
        date: '2024-04-05',
        source: { platform: 'yelp' },
      },
    ]);
  });
  it('reads the European twin (BOM, ;, CRLF, day-first, platform column) to the same records', () => {
    const eu =
      '\uFEFF' +
      [
        'Reviewer Name;Star Rating;Review Text;Review Date;Owner Response;Response Date;Site',
        'Rae Lindqvist;5 stars;Fast, tidy work.;25/03/2024;Thanks Rae!;26/03/2024;Yelp',
        'Omid Farahani;4/5;Good.;05/04/2024;;;yelp',
      ].join('\r\n') +
      '\r\n';
    expect(detectDelimiter(eu)).toBe(';');
    const a = readSpreadsheet(US, { platform: 'yelp' });
    const b = readSpreadsheet(eu);
    expect(b.problems).toEqual([]);
    expect(b.records.map((r) => r.value)).toEqual(a.records.map((r) => r.value));
  });
  it('lists every header and value problem in one pass, each with its line and value', () => {
    const csv = [
      'Reviewer Name,Star Rating,Review Text,Review Date,Mood',
      'Ivy,5 stars,ok,3/25/2024,happy',
      'Noah,4.5,ok,4/2/2024,ok',
      'Lena,5,ok,2/30/2024,glad',
      'Sam,6 stars,ok,5/1/2024,wow',
      'Tia,5,ok',
    ].join('\n');
    const out = readSpreadsheet(csv);
    const lines = out.problems.map((p) => [p.line, p.path]);
    expect(lines).toEqual([
      [3, 'rating'],
      [4, 'date'],
      [5, 'rating'],
      [6, '(record)'],
    ]);
    // A column that gives no field is named and ignored: a note, not a problem (contract §3.1).
    expect(out.warnings).toEqual([
      { record: 0, line: 1, message: expect.stringContaining('column "Mood" is not a review field: ignored') as unknown as string },
    ]);
    expect(out.problems[0]!.message).toContain('"4.5"');
    expect(out.problems[1]!.message).toContain('"2/30/2024"');
    expect(out.problems[2]!.message).toContain('"6 stars"');
    expect(out.records.find((r) => r.line === 3)?.skip).toContain('rating');
  });
  it('names missing columns with the ones it expected, once for the file', () => {
    const out = readSpreadsheet('Job Ref,Client,Score Given,Feedback\nJ1,Ann,4,Fine\n');
    const messages = out.problems.map((p) => p.message).join('\n');
    expect(out.warnings?.[0]?.message).toMatch(/columns "Job Ref", "Client", "Score Given", "Feedback" are not a review field: ignored/);
    expect(messages).toMatch(/no column gives rating; expected one of rating \(Rating, Stars, Star Rating/);
    expect(messages).toMatch(/no column gives date/);
    expect(out.problems.every((p) => p.line === 1)).toBe(true);
    expect(out.records[0]!.skip).toEqual(expect.arrayContaining(['rating', 'date', 'author.name', 'id']));
  });
  it('reads a "Comments" column as the review text', () => {
    const out = readSpreadsheet('Date,Rating,Customer,Comments\n2024-01-02,5,Ann,Fixed the boiler in an hour\n');
    expect(out.problems).toEqual([]);
    expect(out.records[0]!.value).toMatchObject({ text: 'Fixed the boiler in an hour' });
  });
  it('notes a file whose reviews may sit in an ignored column, naming the --map that reads them', () => {
    const csv = 'Date,Rating,Customer,Job Ref,Feedback\n2024-01-02,5,Ann,J1,Fixed the boiler in an hour\n2024-01-03,4,Bo,J2,Good\n';
    const out = readSpreadsheet(csv);
    // Extra columns never block an import (contract §3.1): a note, which --strict makes a problem.
    expect(out.problems).toEqual([]);
    const note = out.warnings!.find((w) => w.path === 'text')!;
    expect(note).toMatchObject({ line: 1, path: 'text' });
    expect(note.message).toMatch(/no column gives text .*the columns "Job Ref", "Feedback" were ignored/);
    expect(note.message).toContain('--map "Feedback=text"');
    expect(note.message).toContain('--map "Feedback=-"');
    // The --map it names reads the reviews; dropping the column imports the ratings alone, quietly.
    expect(readSpreadsheet(csv, { map: parseColumnMap('Feedback=text').map }).warnings!.some((w) => w.path === 'text')).toBe(false);
    expect(readSpreadsheet(csv, { map: parseColumnMap('Feedback=-').map }).warnings!.some((w) => w.path === 'text')).toBe(false);
    // Ignored columns of short cells leave a ratings-only file alone (a note, as before).
    const short = readSpreadsheet('Date,Rating,Customer,Job Ref\n2024-01-02,5,Ann,J1\n');
    expect(short.problems).toEqual([]);
    expect(short.warnings).toHaveLength(1);
  });
  it('names a million unknown columns in one bounded note, and reads thousands of duplicate columns in linear time', () => {
    const wide = ['Name', 'Stars', 'Date', ...Array.from({ length: 1_000_000 }, (_, i) => `x${i}`)];
    const out = readSpreadsheet(`${wide.join(',')}\n${['Al', '5', '2024-01-01', ...Array<string>(1_000_000).fill('')].join(',')}\n`);
    expect(out.problems).toEqual([]);
    expect(out.warnings).toHaveLength(1);
    expect(out.warnings![0]!.message).toMatch(/"x19" and 999980 more are not a review field/);
    expect(out.warnings![0]!.message.length).toBeLessThan(1000);
    const dup = ['Name', 'Date', ...Array.from({ length: 100_000 }, () => 'Stars')];
    const started = performance.now();
    const twice = readSpreadsheet(`${dup.join(',')}\n${['Al', '2024-01-01', ...Array<string>(100_000).fill('5')].join(',')}\n`);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(twice.problems[0]!.message).toMatch(/^columns "Stars", "Stars",.* and 99980 more all give rating/);
  }, 60_000);
  it('follows --map, which wins over synonyms', () => {
    const { map } = parseColumnMap('Job Ref=id,Client=author.name,Score Given=rating,Feedback=text,Visit Day=date,Comment=title');
    const out = readSpreadsheet('Job Ref,Client,Score Given,Feedback,Visit Day,Comment\nJ-1,Ann,4,Fine,2024-05-03T16:20:00Z,Boiler\n', {
      map,
    });
    expect(out.problems).toEqual([]);
    expect(out.records[0]!.value).toEqual({
      id: 'J-1',
      author: { name: 'Ann' },
      rating: 4,
      text: 'Fine',
      date: '2024-05-03',
      title: 'Boiler',
    });
  });
  it('asks for --date-format when the file cannot tell, and follows it', () => {
    const csv = 'Name,Stars,Date\nAl,5,3/4/2024\nBo,4,5/6/2024\n';
    const undecided = readSpreadsheet(csv);
    expect(undecided.problems).toHaveLength(1);
    expect(undecided.problems[0]!.message).toMatch(/--date-format/);
    const dmy = readSpreadsheet(csv, { dateFormat: 'DMY' });
    expect(dmy.problems).toEqual([]);
    expect(dmy.records.map((r) => (r.value as { date: string }).date)).toEqual(['2024-04-03', '2024-06-05']);
  });
  it('refuses prototype-walking columns by name and never walks into them', () => {
    const out = readSpreadsheet('__proto__.title,constructor,Name,Stars,Date\nx,y,Al,5,2024-01-01\n');
    expect(out.problems.map((p) => p.message)).toEqual([
      'column name "__proto__.title" is not allowed',
      'column name "constructor" is not allowed',
    ]);
    const value = out.records[0]!.value as object;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as { title?: unknown }).title).toBeUndefined();
  });
  it('honours --delimiter and reads verified, hidden and list columns', () => {
    const out = readSpreadsheet('id|date|rating|author.name|verified|hidden|mentions.technicians\na|2024-01-01|5|Al|yes|0|mike; ann\n', {
      delimiter: '|',
    });
    expect(out.problems).toEqual([]);
    expect(out.records[0]!.value).toEqual({
      id: 'a',
      date: '2024-01-01',
      rating: 5,
      author: { name: 'Al' },
      verified: true,
      hidden: false,
      mentions: { technicians: ['mike', 'ann'] },
    });
    const maybe = readSpreadsheet('id,date,rating,author.name,verified\na,2024-01-01,5,Al,maybe\n').problems[0]!;
    expect(maybe).toMatchObject({ line: 2, id: 'a', path: 'verified' });
    expect(maybe.message).toContain('"maybe"');
  });
});
