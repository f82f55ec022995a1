import { PostgresAdapter, sql, type Kysely, type Transaction } from 'kysely';
import { BusinessSchema, EMPTY_BUSINESS, type Business } from '../domain/business.js';
import { canonicalJson, sha256Hex } from '../domain/canonical-json.js';
import { catalogKey } from '../domain/catalog-key.js';
import { planImport, type ExistingRow, type ImportPlan } from '../domain/import-plan.js';
import { createMentionMatcher } from '../domain/mentions.js';
import type { DatasetState, ImportInput, ImportSummary, PublishedRecord, ReviewStore } from '../domain/ports.js';
import { toPublicReview } from '../domain/public-review.js';
import { isPublished, StoredReviewSchema, type StoredReview } from '../domain/review.js';
import { SyncClaimLostError } from '../domain/sync-ports.js';
import type { Database } from './schema.js';

// Rows a statement writes at once: 8 bound values a row stays far below every driver's limit.
const BATCH = 500;

export interface ReviewStoreOptions {
  now?: () => Date;
}

function businessHash(b: Business): string {
  return sha256Hex(canonicalJson(b));
}

/** Bumps the change counter inside the writing transaction, so readers see data and counter together. */
async function bumpVersion(trx: Transaction<Database>, now: string): Promise<void> {
  await trx
    .updateTable('data_version')
    .set((eb) => ({ version: eb('version', '+', 1), changed_at: now }))
    .where('singleton', '=', 1)
    .execute();
}

/** The stored business row's document (validated on the way in, parsed again so its defaults apply). */
function businessOf(row: { doc: string } | undefined): Business | null {
  return row ? BusinessSchema.parse(JSON.parse(row.doc)) : null;
}

/**
 * What the import's published rows are resolved against: the business stored once this import's own
 * business step is done (its business, or the one kept, or none after the demo stepped aside), read back
 * as `header()` reads it, so its key is the one the snapshot build computes (so a start reads the stored public JSON).
 */
async function catalogInEffect(trx: Transaction<Database>) {
  const row = await trx.selectFrom('business').select('doc').where('singleton', '=', 1).executeTakeFirst();
  const business = businessOf(row);
  return { key: catalogKey(business), matcher: createMentionMatcher(business ?? EMPTY_BUSINESS) };
}

/**
 * Fills `platform` of rows written by a version from before migration 0010 (a replica not yet upgraded,
 * during a rolling upgrade), so a platform's listing sees them.
 */
async function fillPlatforms(db: Kysely<Database> | Transaction<Database>): Promise<void> {
  const platform =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? sql<string>`(doc::json #>> '{source,platform}')`
      : sql<string>`json_extract(doc, '$.source.platform')`;
  await db.updateTable('reviews').set({ platform }).where('platform', 'is', null).execute();
}

/** Extends the sync run's claim inside its transaction; a claim that lapsed aborts the transaction. */
async function holdClaim(trx: Transaction<Database>, platform: string, claim: { holder: string; now: Date; leaseMs: number }) {
  const r = await trx
    .updateTable('sync_state')
    .set({ claim_expires_at: new Date(claim.now.getTime() + claim.leaseMs).toISOString() })
    .where('source', '=', platform)
    .where('holder', '=', claim.holder)
    .where('claim_expires_at', '>=', claim.now.toISOString())
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) throw new SyncClaimLostError(platform);
}

/** Thrown inside the import transaction to roll a dry run back; carries the summary out. */
class DryRunRollback extends Error {
  constructor(readonly summary: ImportSummary) {
    super('dry run');
  }
}

/** Removes the business marked as the bundled demo and every review with it; undefined when none. */
async function removeDemo(trx: Transaction<Database>): Promise<ImportSummary['demo_removed']> {
  const row = await trx.selectFrom('business').select(['doc', 'demo']).where('singleton', '=', 1).executeTakeFirst();
  if (!row || Number(row.demo) !== 1) return undefined;
  const counted = await trx
    .selectFrom('reviews')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  await trx.deleteFrom('reviews').execute();
  await trx.deleteFrom('business').execute();
  const name = (JSON.parse(row.doc) as { name?: unknown }).name;
  return { name: typeof name === 'string' ? name : 'demo', reviews: Number(counted?.n ?? 0) };
}

function publishedRecord(
  r: { id: string; content_hash: string; public_key: string | null; body: string | null },
  key: string,
): PublishedRecord {
  const body = r.body ?? '';
  return r.public_key === key
    ? { id: r.id, contentHash: r.content_hash, publicJson: body }
    : { id: r.id, contentHash: r.content_hash, stored: JSON.parse(body) as StoredReview };
}

/** Stores the import's business unless it is unchanged; says which it was. */
async function writeBusiness(
  trx: Transaction<Database>,
  business: Business,
  demo: boolean,
  stamp: string,
): Promise<ImportSummary['business']> {
  const hash = businessHash(business);
  const old = await trx.selectFrom('business').select(['content_hash', 'demo']).where('singleton', '=', 1).executeTakeFirst();
  const outcome = !old ? 'added' : old.content_hash === hash ? 'unchanged' : 'updated';
  const flag = demo ? 1 : 0;
  if (outcome !== 'unchanged' || old?.demo !== flag) {
    const row = { singleton: 1, doc: JSON.stringify(business), content_hash: hash, updated_at: stamp, demo: flag };
    await trx
      .insertInto('business')
      .values(row)
      .onConflict((oc) => oc.column('singleton').doUpdateSet({ doc: row.doc, content_hash: hash, updated_at: stamp, demo: flag }))
      .execute();
  }
  return outcome;
}

/** Upserts one batch of an import plan's rows, each published one with its public JSON; returns how many. */
async function writeReviews(
  trx: Transaction<Database>,
  writes: ImportPlan['writes'],
  catalog: Awaited<ReturnType<typeof catalogInEffect>> | null,
): Promise<number> {
  const rows = writes.map(({ review, content_hash }) => {
    const stored = StoredReviewSchema.parse(review);
    const published = catalog !== null && isPublished(stored);
    return {
      id: stored.id,
      date: stored.date,
      rating: stored.rating,
      verified: stored.verified ? 1 : 0,
      hidden: stored.hidden ? 1 : 0,
      doc: JSON.stringify(stored),
      content_hash,
      updated_at: stored.updated_at,
      platform: stored.source.platform,
      public_doc: published ? JSON.stringify(toPublicReview(stored, catalog.matcher)) : null,
      public_key: published ? catalog.key : null,
    };
  });
  await trx
    .insertInto('reviews')
    .values(rows)
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        date: eb.ref('excluded.date'),
        rating: eb.ref('excluded.rating'),
        verified: eb.ref('excluded.verified'),
        hidden: eb.ref('excluded.hidden'),
        doc: eb.ref('excluded.doc'),
        content_hash: eb.ref('excluded.content_hash'),
        updated_at: eb.ref('excluded.updated_at'),
        platform: eb.ref('excluded.platform'),
        public_doc: eb.ref('excluded.public_doc'),
        public_key: eb.ref('excluded.public_key'),
      })),
    )
    .execute();
  return rows.length;
}

/** The review data port over Kysely: the same queries run on SQLite and PostgreSQL. */
export function createReviewStore(db: Kysely<Database>, options: ReviewStoreOptions = {}): ReviewStore {
  const now = () => (options.now ?? (() => new Date()))().toISOString();

  /**
   * The published rows with one text each: the public JSON when it is current for `key`, else the
   * record. The two columns are always written together, so a current key has its JSON.
   */
  const publishedRows = (key: string) =>
    db
      .selectFrom('reviews')
      .select((eb) => [
        'id',
        'content_hash',
        'public_key',
        eb.case().when('public_key', '=', key).then(eb.ref('public_doc')).else(eb.ref('doc')).end().as('body'),
      ])
      .where('verified', '=', 1)
      .where('hidden', '=', 0);

  return {
    async version() {
      const row = await db.selectFrom('data_version').select('version').where('singleton', '=', 1).executeTakeFirst();
      return Number(row?.version ?? 0);
    },

    async business() {
      const b = await db.selectFrom('business').select('doc').where('singleton', '=', 1).executeTakeFirst();
      return businessOf(b);
    },

    async platformIds(platform) {
      await fillPlatforms(db);
      const rows = await db.selectFrom('reviews').select('id').where('platform', '=', platform).execute();
      return rows.map((r) => r.id);
    },

    async isEmpty() {
      const r = await db.selectFrom('reviews').select('id').limit(1).executeTakeFirst();
      const b = await db.selectFrom('business').select('singleton').limit(1).executeTakeFirst();
      return !r && !b;
    },

    async load(): Promise<DatasetState> {
      // No transaction, so reads never wait for a writer: the counter is read first, so the data can
      // only be newer than the version it is labelled with, which costs one extra rebuild, never a
      // missed change.
      const v = await db.selectFrom('data_version').select(['version', 'changed_at']).where('singleton', '=', 1).executeTakeFirst();
      const b = await db.selectFrom('business').select(['doc', 'updated_at']).where('singleton', '=', 1).executeTakeFirst();
      const rows = await db.selectFrom('reviews').select('doc').execute();
      // Rows were validated on the way in; parsing again would double the start-up time at 100k.
      const reviews = rows.map((r) => JSON.parse(r.doc) as StoredReview);
      return {
        business: businessOf(b),
        businessUpdatedAt: b?.updated_at ?? null,
        reviews,
        version: Number(v?.version ?? 0),
        changedAt: v?.changed_at ?? null,
      };
    },

    async header() {
      const v = await db.selectFrom('data_version').select(['version', 'changed_at']).where('singleton', '=', 1).executeTakeFirst();
      const b = await db.selectFrom('business').select(['doc', 'updated_at']).where('singleton', '=', 1).executeTakeFirst();
      return {
        business: businessOf(b),
        businessUpdatedAt: b?.updated_at ?? null,
        version: Number(v?.version ?? 0),
        changedAt: v?.changed_at ?? null,
      };
    },

    async publishedStamps(afterId, limit) {
      let q = db.selectFrom('reviews').select(['id', 'content_hash']).where('verified', '=', 1).where('hidden', '=', 0);
      if (afterId !== null) q = q.where('id', '>', afterId);
      const rows = await q.orderBy('id').limit(limit).execute();
      return rows.map((r) => ({ id: r.id, contentHash: r.content_hash }));
    },

    async reviewsById(ids) {
      const out: StoredReview[] = [];
      for (let i = 0; i < ids.length; i += BATCH) {
        const rows = await db
          .selectFrom('reviews')
          .select('doc')
          .where('id', 'in', ids.slice(i, i + BATCH))
          .execute();
        for (const r of rows) out.push(JSON.parse(r.doc) as StoredReview);
      }
      return out;
    },

    async publishedById(ids, key) {
      const out: PublishedRecord[] = [];
      for (let i = 0; i < ids.length; i += BATCH) {
        const rows = await publishedRows(key)
          .where('id', 'in', ids.slice(i, i + BATCH))
          .execute();
        for (const r of rows) out.push(publishedRecord(r, key));
      }
      return out;
    },

    async publishedPage(afterId, limit, key) {
      let q = publishedRows(key);
      if (afterId !== null) q = q.where('id', '>', afterId);
      const rows = await q.orderBy('id').limit(limit).execute();
      return rows.map((r) => publishedRecord(r, key));
    },

    async storePublic(key, docs) {
      // One statement per batch, outside any transaction and without bumpVersion: a cache fill is not a
      // change of the data (no rebuild, no NOTIFY). A row rewritten since it was read (another content
      // hash or updated_at) or already holding this catalog's JSON (an import, another replica) is skipped.
      for (let i = 0; i < docs.length; i += BATCH) {
        const values = docs.slice(i, i + BATCH).map((d) => sql`(${d.id}, ${d.contentHash}, ${d.updatedAt}, ${d.json})`);
        await sql`
          with fill (id, content_hash, updated_at, public_doc) as (values ${sql.join(values)})
          update reviews set public_doc = fill.public_doc, public_key = ${key}
          from fill
          where reviews.id = fill.id and reviews.content_hash = fill.content_hash and reviews.updated_at = fill.updated_at
            and (reviews.public_key is null or reviews.public_key <> ${key})
        `.execute(db);
      }
    },

    async applyImport(input: ImportInput, onProgress): Promise<ImportSummary> {
      const run = db.transaction().execute(async (trx) => {
        const stamp = now();
        const listing = input.platformListing;
        // First: on PostgreSQL the claim's row lock makes a competing claim wait for this commit.
        if (listing?.claim) await holdClaim(trx, listing.platform, listing.claim);
        if (listing) await fillPlatforms(trx);
        // The demo steps aside (contract §3.1): the first import of own data removes the demo business
        // and its reviews in this same transaction, so no reader ever sees the two mixed.
        const demoRemoved = input.demo ? undefined : await removeDemo(trx);
        const businessOutcome = input.business ? await writeBusiness(trx, input.business, input.demo === true, stamp) : 'absent';

        const existingRows = await trx.selectFrom('reviews').select(['id', 'content_hash', 'updated_at', 'platform']).execute();
        const existing = new Map<string, ExistingRow>(existingRows.map((r) => [r.id, r]));
        const scope = input.platformListing ?? (input.replace ? 'replace' : 'upsert');
        const plan = planImport(existing, input.reviews, scope, stamp);
        const total = plan.writes.length + plan.deletes.length;
        let done = 0;
        const progress = (n: number) => onProgress?.((done += n), total);
        // Each published row is stored with its public JSON, so a start reads it as is.
        const catalog = plan.writes.length > 0 ? await catalogInEffect(trx) : null;
        for (let i = 0; i < plan.writes.length; i += BATCH) progress(await writeReviews(trx, plan.writes.slice(i, i + BATCH), catalog));
        for (let i = 0; i < plan.deletes.length; i += BATCH) {
          const ids = plan.deletes.slice(i, i + BATCH);
          await trx.deleteFrom('reviews').where('id', 'in', ids).execute();
          progress(ids.length);
        }
        if (total > 0 || demoRemoved || (businessOutcome !== 'unchanged' && businessOutcome !== 'absent')) await bumpVersion(trx, stamp);
        const summary: ImportSummary = {
          ...plan.summary,
          business: businessOutcome,
          ...(demoRemoved ? { demo_removed: demoRemoved } : {}),
        };
        // A dry run rolls the whole transaction back: the counts are exact and nothing is written.
        if (input.dryRun) throw new DryRunRollback(summary);
        return summary;
      });
      return run.catch((e: unknown) => {
        if (e instanceof DryRunRollback) return e.summary;
        throw e;
      });
    },
  };
}
