/**
 * Summarizes the V8 CPU profiles a benchmark's children wrote (`node --cpu-prof`) over windows of the
 * same monotonic clock (`process.hrtime`, which V8's profile timestamps also use on Linux): where each
 * process spent its CPU during each window, by function, self and inclusive.
 *
 *   npx tsx bench/lib/cpu-profile.ts DIR [--top 25] [--label '3 replicas'] [--change 5 --change 6]
 *
 * DIR holds the `*.cpuprofile` files (named CPU.date.time.PID.TID.seq) and a windows.json of
 * `{ label, change, pids, startUs, endUs }` (bench/pg-scale.ts --cpu-prof writes both).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}
interface Window {
  label: string;
  change: number;
  pids: number[];
  startUs: number;
  endUs: number;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' }, label: { type: 'string' }, change: { type: 'string', multiple: true } },
});
const dir = positionals[0];
if (!dir) throw new Error('usage: cpu-profile.ts DIR');
const TOP = Number(values.top);

function frameName(n: ProfileNode): string {
  const file = n.callFrame.url ? path.basename(n.callFrame.url) : '';
  return `${n.callFrame.functionName || '(anonymous)'}${file ? ` ${file}:${n.callFrame.lineNumber + 1}` : ''}`;
}

/** Self and inclusive milliseconds per frame name over [startUs, endUs). */
function summarize(p: Profile, startUs: number, endUs: number) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i] ?? 0;
    const next = t + (p.timeDeltas[i + 1] ?? 0);
    if (t < startUs || t >= endUs) continue;
    const ms = (next - t) / 1000;
    const node = byId.get(p.samples[i]!)!;
    const name = frameName(node);
    if (name === '(idle)') continue;
    total += ms;
    self.set(name, (self.get(name) ?? 0) + ms);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const f = frameName(byId.get(id)!);
      if (seen.has(f)) continue;
      seen.add(f);
      inclusive.set(f, (inclusive.get(f) ?? 0) + ms);
    }
  }
  return { total, self, inclusive };
}

const top = (m: Map<string, number>) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([k, v]) => `  ${v.toFixed(0).padStart(7)} ms  ${k}`);

const windows = JSON.parse(await fs.readFile(path.join(dir, 'windows.json'), 'utf8')) as Window[];
const files = (await fs.readdir(dir)).filter((f) => f.endsWith('.cpuprofile'));
for (const file of files) {
  const [, , , pid, tid] = file.split('.');
  const mine = windows.filter(
    (w) =>
      w.pids.includes(Number(pid)) &&
      (!values.label || w.label === values.label) &&
      (!values.change || values.change.includes(String(w.change))),
  );
  if (mine.length === 0) continue;
  const profile = JSON.parse(await fs.readFile(path.join(dir, file), 'utf8')) as Profile;
  // All of this process's windows together: the per-change figures are the bench's own output.
  const parts = mine.map((w) => summarize(profile, w.startUs, w.endUs));
  const merged = { total: 0, self: new Map<string, number>(), inclusive: new Map<string, number>() };
  for (const s of parts) {
    merged.total += s.total;
    for (const [k, v] of s.self) merged.self.set(k, (merged.self.get(k) ?? 0) + v);
    for (const [k, v] of s.inclusive) merged.inclusive.set(k, (merged.inclusive.get(k) ?? 0) + v);
  }
  process.stdout.write(
    `\n== pid ${pid} thread ${tid}: ${merged.total.toFixed(0)} ms busy over ${mine.length} windows (${parts.map((s) => s.total.toFixed(0)).join(', ')})\n` +
      `self:\n${top(merged.self).join('\n')}\ninclusive:\n${top(merged.inclusive).join('\n')}\n`,
  );
}
