/**
 * The median of a set of rounds, and for an even count the lower of the two middle values (NaN for
 * none): of ratios against a reference, a median that never rounds the service's figure up. One
 * definition for the benchmarks that compare rounds (foundation, mcp-throughput, method-check).
 */
export function lowerMedian(xs: readonly number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN;
}
