/**
 * The two halves of every evaluation set: a query belongs to the tuning half when the FNV-1a hash of the seed, its
 * text and its targets is even, else to the reporting half. Weights and thresholds are chosen on the first only.
 */

export const SPLIT_SEED = 24;

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export function isTuningQuery(query: { text: string; targets: ReadonlySet<number> }, seed = SPLIT_SEED): boolean {
  const key = `${seed}\u0000${query.text}\u0000${[...query.targets].sort((a, b) => a - b).join(',')}`;
  return fnv1a(key) % 2 === 0;
}

export const SPLIT_DESCRIPTION =
  `halves by the parity of the FNV-1a hash of (seed ${SPLIT_SEED}, query text, target ids): even = tuning half (every weight and threshold chosen there), odd = reporting half (every figure below)`;
