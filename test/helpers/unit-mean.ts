/** The normalised mean of unit vectors: what the semantic index stores for a concept (one vector per concept). */
export function unitMean(vectors: readonly Float32Array[]): Float32Array {
  const sum = new Float32Array(vectors[0]!.length);
  for (const v of vectors) for (let d = 0; d < v.length; d++) sum[d]! += v[d]!;
  const norm = Math.hypot(...sum) || 1;
  return sum.map((x) => x / norm);
}
