import { createWebSubStore } from '../../storage/websub/index.js';
import { parseCommandArgs } from '../args.js';
import { UsageError, type CliCommand } from '../command.js';
import { withStore } from './database.js';

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** `review-data subscriptions [list|remove ID]` (contract §1): the hub's subscribers, for the operator. */
export const subscriptionsCommand: CliCommand = {
  name: 'subscriptions',
  summary: 'list WebSub subscriptions, or remove one by id',
  usage:
    'review-data subscriptions [list] [--json] [--database-url URL]\n' +
    '       review-data subscriptions remove ID [--database-url URL]\n' +
    '  A removed subscriber gets nothing more; it is not told (it may subscribe again).',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, {
      json: { type: 'boolean', default: false },
      'database-url': { type: 'string' },
    });
    const [action = 'list', id, ...extra] = positionals;
    if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
    // Usage is checked before the database is opened (and possibly created); withStore checks the settings.
    if (action !== 'list' && action !== 'remove') throw new UsageError(`unknown action '${action}': use list or remove`);
    if (action === 'remove' && !id) throw new UsageError('remove needs the id of a subscription (see `review-data subscriptions list`)');
    return withStore(io, values['database-url'], async (_store, handle) => {
      const store = createWebSubStore(handle.db, handle.dialect);
      if (action === 'remove' && id) {
        const removed = await store.removeSubscription(id);
        if (!removed) {
          io.stderr.write(`no subscription with id ${id}\n`);
          return 1;
        }
        io.stdout.write(`removed ${removed.id}: ${removed.callback} (${removed.topic})\n`);
        return 0;
      }
      const subs = await store.listSubscriptions();
      if (values.json) {
        const rows = subs.map((s) => ({
          id: s.id,
          topic: s.topic,
          callback: s.callback,
          signed: s.secret !== null,
          lease_seconds: s.leaseSeconds,
          expires_at: iso(s.expiresAt),
          failures: s.failures,
          delivery_due_at: s.deliveryDueAt === null ? null : iso(s.deliveryDueAt),
          created_at: iso(s.createdAt),
        }));
        io.stdout.write(JSON.stringify(rows, null, 2) + '\n');
        return 0;
      }
      if (subs.length === 0) {
        io.stdout.write('no subscriptions\n');
        return 0;
      }
      for (const s of subs) {
        const state = [
          `expires ${iso(s.expiresAt)}`,
          s.secret !== null ? 'signed' : 'unsigned',
          ...(s.failures > 0 ? [`${s.failures} failed attempt(s)`] : []),
          ...(s.deliveryDueAt !== null ? [`delivery pending (due ${iso(s.deliveryDueAt)})`] : []),
        ];
        io.stdout.write(`${s.id}  ${s.topic}  ${s.callback}\n    ${state.join(', ')}\n`);
      }
      io.stdout.write(`${subs.length} subscription(s)\n`);
      return 0;
    });
  },
};
