import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { retainNative, withPreparedStatements } from '../../src/storage/sqlite-statements.js';

interface Tables {
  t: { id: number; v: string };
}

/** Kysely over a real in-memory database whose statements are kept prepared, counting what SQLite compiles. */
function open(kept?: number) {
  const native = retainNative(new SqliteDatabase(':memory:'));
  let prepared = 0;
  const prepare = native.prepare.bind(native);
  native.prepare = ((text: string) => (prepared++, prepare(text))) as typeof native.prepare;
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withPreparedStatements(native, kept) }) });
  return { db, prepared: () => prepared };
}

describe('SQLite statements kept prepared', () => {
  let db: Kysely<Tables> | undefined;
  afterEach(async () => db?.destroy());

  it('prepares each SQL text once, and a reused statement reads what was written since', async () => {
    const o = open();
    db = o.db;
    await sql`create table t (id integer primary key, v text)`.execute(db);
    const byId = (id: number) => db!.selectFrom('t').selectAll().where('id', '=', id).executeTakeFirst();
    const insert = (id: number, v: string) => db!.insertInto('t').values({ id, v }).execute();
    const before = o.prepared();
    expect(await byId(1)).toBeUndefined();
    await insert(1, 'a');
    await insert(2, 'b');
    expect(await byId(1)).toEqual({ id: 1, v: 'a' });
    expect(await byId(2)).toEqual({ id: 2, v: 'b' });
    await db.updateTable('t').set({ v: 'c' }).where('id', '=', 1).execute();
    expect(await byId(1)).toEqual({ id: 1, v: 'c' });
    // select, insert, update: three texts.
    expect(o.prepared() - before).toBe(3);
    // A schema change: the kept statement is recompiled by SQLite and sees the new column.
    await sql`alter table t add column w text default 'x'`.execute(db);
    expect(await db.selectFrom('t').selectAll().where('id', '=', 1).executeTakeFirst()).toEqual({ id: 1, v: 'c', w: 'x' });
  });

  it('a stream left early does not hold its statement: the same query runs again, streamed or not', async () => {
    const o = open();
    db = o.db;
    await sql`create table t (id integer primary key, v text)`.execute(db);
    await db
      .insertInto('t')
      .values([1, 2, 3].map((id) => ({ id, v: String(id) })))
      .execute();
    const all = db.selectFrom('t').selectAll().orderBy('id');
    for await (const row of all.stream()) {
      expect(row.id).toBe(1);
      break;
    }
    expect((await all.execute()).map((r) => r.id)).toEqual([1, 2, 3]);
    const streamed: number[] = [];
    for await (const row of all.stream()) streamed.push(row.id);
    expect(streamed).toEqual([1, 2, 3]);
  });

  it('keeps at most the given number of statements, the least recently used dropped first', async () => {
    const o = open(2);
    db = o.db;
    const run = (n: number) => sql`select ${sql.lit(n)} as n`.execute(db!);
    await run(1);
    await run(2);
    await run(1); // 2 is now the least recently used
    await run(3); // drops 2
    const before = o.prepared();
    await run(1);
    await run(3);
    expect(o.prepared()).toBe(before);
    await run(2);
    expect(o.prepared()).toBe(before + 1);
  });
});
