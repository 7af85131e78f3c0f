/**
 * Shapes of hierarchies, decided before any concept exists: how many nodes sit at each depth, each node's primary
 * parent (drawn popular-first) and the extra parents (cousins of the primary one) that make the tree a DAG; nodes
 * are numbered level by level, siblings contiguous.
 */
import { apportion, relativeZipf, type Rng } from './random.js';

export interface TreeShape {
  /** Number of nodes. */
  count: number;
  /** Nodes per level (level 0 = roots). */
  levelSizes: number[];
  /** First node of each level. */
  levelStart: number[];
  /** Level of each node. */
  level: Uint8Array;
  /** Local index of the primary parent, -1 for roots. */
  parent: Int32Array;
  /** Extra parents in CSR form (local indices). */
  extraStart: Int32Array;
  extra: Int32Array;
}

export interface TreeOptions {
  count: number;
  /** Relative number of nodes per depth; index 0 is the roots. */
  levelWeights: readonly number[];
  /** Exact number of roots (overrides levelWeights[0]). */
  roots?: number;
  /** Mean number of extra parents per non-root node (DAG-ness). */
  extraParents?: number;
  /** Extra parents are cousins 1 + Geometric(cousinSpread) generations apart. */
  cousinSpread?: number;
  /** Probability that an extra parent is taken from two levels up instead of one. */
  skipLevel?: number;
  /** Preferential attachment strength (smaller = more skewed child counts). */
  attach?: number;
}

export function planTree(rng: Rng, o: TreeOptions): TreeShape {
  const count = o.count;
  const weights = [...o.levelWeights];
  const levels = weights.length;
  let sizes: number[];
  if (count <= 0) {
    sizes = [];
  } else {
    const roots = Math.min(count, Math.max(1, o.roots ?? Math.round((count * weights[0]!) / weights.reduce((a, b) => a + b, 0))));
    const restWeights = weights.slice(1);
    const rest = count - roots;
    // every level below the roots gets at least one node while nodes last
    const usable = Math.min(restWeights.length, rest);
    const w = restWeights.slice(0, usable);
    sizes = [roots, ...(usable > 0 ? apportion(rest, w, w.map(() => 1)) : [])];
    if (usable === 0 && rest > 0) sizes[0]! += rest;
  }
  while (sizes.length && sizes[sizes.length - 1] === 0) sizes.pop();
  if (sizes.length > levels) throw new Error('planTree: too many levels');

  const levelStart: number[] = [];
  let acc = 0;
  for (const s of sizes) {
    levelStart.push(acc);
    acc += s;
  }
  const level = new Uint8Array(count);
  const parent = new Int32Array(count).fill(-1);
  const extraStart = new Int32Array(count + 1);
  const extras: number[] = [];
  const attach = o.attach ?? 0.01;
  const extraMean = o.extraParents ?? 0;
  const firstChild = new Int32Array(count).fill(-1);
  const nChild = new Int32Array(count);

  for (let L = 0; L < sizes.length; L++) {
    const n = sizes[L]!;
    const start = levelStart[L]!;
    if (L === 0) {
      for (let k = 0; k < n; k++) {
        level[start + k] = 0;
        extraStart[start + k + 1] = extras.length;
      }
      continue;
    }
    const pStart = levelStart[L - 1]!;
    const pSize = sizes[L - 1]!;
    // primary parents, popular-first, then grouped (counting sort) so siblings are contiguous
    const choice = new Int32Array(n);
    const perParent = new Int32Array(pSize + 1);
    // popularity is decoupled from position (positions are grouped by parent, so position-based
    // popularity would make one subtree swallow most of the tree level after level)
    const perm = scatter(pSize, rng);
    for (let k = 0; k < n; k++) {
      const c = perm(relativeZipf(rng, pSize, attach));
      choice[k] = c;
      perParent[c + 1]!++;
    }
    for (let p = 0; p < pSize; p++) perParent[p + 1]! += perParent[p]!;
    const order = new Int32Array(n);
    const cursor = perParent.slice(0, pSize);
    for (let k = 0; k < n; k++) order[cursor[choice[k]!]!++] = choice[k]!;
    for (let q = 0; q < pSize; q++) {
      firstChild[pStart + q] = start + perParent[q]!;
      nChild[pStart + q] = perParent[q + 1]! - perParent[q]!;
    }
    for (let k = 0; k < n; k++) {
      const node = start + k;
      const p = order[k]!;
      level[node] = L;
      parent[node] = pStart + p;
      const nExtra = extraMean > 0 ? rng.count(extraMean) : 0;
      const mine: number[] = [];
      for (let e = 0; e < nExtra; e++) {
        // a cousin of the primary parent: up g generations along primary parents, then down g
        // generations through random children. Only cousins without extra parents of their own are
        // taken, so each extra parent adds about g ancestors: the closure grows linearly with depth,
        // the same way at every scale, instead of compounding.
        for (let attempt = 0; attempt < 4; attempt++) {
          const skip = L >= 3 && rng.chance(o.skipLevel ?? 0.15) ? 1 : 0;
          const maxUp = L - 1 - skip;
          if (maxUp < 1) break;
          const g = Math.min(maxUp, 1 + rng.geometric(o.cousinSpread ?? 0.5, 12));
          let a = pStart + p;
          let below = a;
          for (let s = 0; s < g + skip; s++) {
            below = a;
            a = parent[a]!;
          }
          let q = a;
          for (let s = 0; s < g && q >= 0; s++) {
            const nc = nChild[q]!;
            const first = firstChild[q]!;
            const off = nc > 0 ? rng.int(nc) : 0;
            let found = -1;
            // leave the primary chain at the first step, and keep descending through children that
            // have children of their own
            for (let c = 0; c < nc && found < 0; c++) {
              const cand = first + ((off + c) % nc);
              if (s === 0 && cand === below) continue;
              if (s < g - 1 && nChild[cand] === 0) continue;
              found = cand;
            }
            q = found;
          }
          if (q < 0 || q === pStart + p || mine.includes(q) || extraStart[q + 1]! > extraStart[q]!) continue;
          mine.push(q);
          break;
        }
      }
      for (const m of mine) extras.push(m);
      extraStart[node + 1] = extras.length;
    }
  }
  return { count, levelSizes: sizes, levelStart, level, parent, extraStart, extra: Int32Array.from(extras) };
}


/**
 * A tree whose internal nodes are fixed per level (classifications such as ICD10CM where a code is
 * either a non-billable header with children or a billable leaf): level L has `internal[L]` parents
 * followed by `leaves[L]` leaves, and every internal node gets at least one child.
 */
export interface ClassifiedTree {
  levelStart: number[];
  internal: number[];
  leaves: number[];
  parent: Int32Array;
  count: number;
}

export function planClassifiedTree(rng: Rng, internal: number[], leaves: number[], attach = 0.05): ClassifiedTree {
  const levels = internal.length;
  const internalFixed = [...internal];
  const leavesFixed = [...leaves];
  // an internal node needs a child: if a level below has fewer nodes than internal nodes above, the
  // surplus internal nodes become leaves
  for (let L = 0; L < levels; L++) {
    const below = L + 1 < levels ? internalFixed[L + 1]! + leavesFixed[L + 1]! : 0;
    if (internalFixed[L]! > below) {
      leavesFixed[L]! += internalFixed[L]! - below;
      internalFixed[L] = below;
    }
  }
  const levelStart: number[] = [];
  let acc = 0;
  for (let L = 0; L < levels; L++) {
    levelStart.push(acc);
    acc += internalFixed[L]! + leavesFixed[L]!;
  }
  const count = acc;
  const parent = new Int32Array(count).fill(-1);
  for (let L = 1; L < levels; L++) {
    const n = internalFixed[L]! + leavesFixed[L]!;
    const pCount = internalFixed[L - 1]!;
    if (n === 0) continue;
    if (pCount === 0) throw new Error('planClassifiedTree: level without parents');
    const choice = new Int32Array(n);
    for (let k = 0; k < n; k++) choice[k] = k < pCount ? k : relativeZipf(rng, pCount, attach);
    // shuffle so the guaranteed first children are spread, then group by parent
    for (let k = n - 1; k > 0; k--) {
      const j = rng.int(k + 1);
      const t = choice[k]!;
      choice[k] = choice[j]!;
      choice[j] = t;
    }
    const byParent = Array.from(choice).sort((a, b) => a - b);
    // internal nodes of this level must be those that will have children below: any order works, the
    // first internalFixed[L] nodes are the internal ones
    for (let k = 0; k < n; k++) parent[levelStart[L]! + k] = levelStart[L - 1]! + byParent[k]!;
  }
  return { levelStart, internal: internalFixed, leaves: leavesFixed, parent, count };
}

/** A pseudo-random bijection of [0, n): i → (i * m + o) mod n with gcd(m, n) = 1. */
export function scatter(n: number, rng: Rng): (i: number) => number {
  if (n <= 2) return (i) => i;
  let m = Math.max(1, Math.floor(n * 0.6180339887)) | 1;
  const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);
  while (gcd(m, n) !== 1) m += 2;
  const o = rng.int(n);
  return (i) => (i * m + o) % n;
}
