/**
 * Insights pipeline speed: reviews analysed per second on one core, model load time and the
 * extra memory the learned model costs, against the cue rules alone in the same run.
 *
 *   npx tsx bench/insights-throughput.ts [--reviews 5000] [--mode model|rules|both] [--warm 0]
 *
 * Each mode runs in its own child process so RSS and load time are its own. The reviews are built
 * from the training corpus (three sentences each), so the text is home-services text. Besides the wall
 * clock it reports reviews per CPU second of the process, which a busy machine disturbs much less
 * (the compute is single-threaded: one core).
 *
 * `--warm N` analyses N other reviews after loading and before the measured ones: the first thousand
 * or so reviews of a process run while V8 is still optimising the code, so a short run from cold
 * measures mostly that.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const { values } = parseArgs({
  options: {
    reviews: { type: 'string', default: '5000' },
    mode: { type: 'string', default: 'both' },
    warm: { type: 'string', default: '0' },
    child: { type: 'boolean' },
  },
});
const count = Number(values.reviews);

async function child(mode: 'model' | 'rules'): Promise<void> {
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const [{ createInsightsEngine }, { readShippedModels }] = await Promise.all([
    import('../src/insights/engine.js'),
    import('../src/absa-models.js'),
  ]);
  const models = mode === 'model' ? readShippedModels() : [];
  const { publishedView } = await import('../src/domain/published-view.js');
  const { createServiceUrls } = await import('../src/domain/urls.js');
  const { BusinessSchema } = await import('../src/domain/business.js');
  const engine = createInsightsEngine({ models });
  const business = BusinessSchema.parse({ id: 'bench', name: 'Bench Plumbing' });
  const mkView = (reviews: ReturnType<typeof build>) =>
    publishedView({ business, reviews, updatedAt: '2026-01-01T00:00:00Z', urls: createServiceUrls('https://bench.example') });
  // Warm-up: loads wink's model and compiles the taxonomy (with the model, when there is one).
  engine.compute(mkView(build(3, 'warm')));
  const load = performance.now() - t0;
  const rss1 = process.memoryUsage().rss;
  const warm = Number(values.warm);
  if (warm > 0) engine.compute(mkView(build(warm, 'pre', count)));
  const view = mkView(build(count, 'r'));
  const t1 = performance.now();
  const cpu1 = process.cpuUsage();
  const doc = engine.compute(view);
  const seconds = (performance.now() - t1) / 1000;
  // CPU time of this process: on a shared machine the wall clock counts the other processes' turns too.
  const cpu = process.cpuUsage(cpu1);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const rss2 = process.memoryUsage().rss;
  console.log(
    JSON.stringify({
      mode,
      reviews: count,
      warm,
      reviews_per_second: Math.round(count / seconds),
      reviews_per_cpu_second: Math.round(count / cpuSeconds),
      load_ms: Math.round(load),
      rss_mb: { start: Math.round(rss0 / 2 ** 20), loaded: Math.round(rss1 / 2 ** 20), after: Math.round(rss2 / 2 ** 20) },
      method: doc.method.version,
    }),
  );
}

/** `n` reviews of three corpus sentences each, from the `skip`-th review of the corpus on. */
function build(n: number, prefix: string, skip = 0) {
  const dir = new URL('../data/absa/train/', import.meta.url);
  const sentences = readdirSync(dir)
    .sort()
    .flatMap((f) =>
      readFileSync(new URL(f, dir), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { text: string }).text),
    );
  return Array.from({ length: n }, (_, i) => {
    const text = [0, 1, 2].map((k) => sentences[((i + skip) * 3 + k) % sentences.length]).join(' ');
    const date = `2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
    return {
      id: `${prefix}${i}`,
      date,
      rating: (i % 5) + 1,
      title: null,
      text,
      language: 'en',
      author: { name: 'A. Customer', location: null },
      source: { platform: 'google', url: null },
      verified: true as const,
      mentions: { technicians: [], services: [], service_areas: [] },
      response: null,
      updated_at: `${date}T12:00:00Z`,
    };
  });
}

if (values.child) await child(values.mode as 'model' | 'rules');
else {
  const modes = values.mode === 'both' ? ['rules', 'model'] : [values.mode ?? 'model'];
  for (const mode of modes) {
    const out = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
        '--child',
        '--mode',
        mode,
        '--reviews',
        String(count),
        '--warm',
        String(values.warm),
      ],
      { encoding: 'utf8' },
    );
    process.stdout.write(out);
  }
}
