/**
 * Deterministic randomness for the generator: a seeded PRNG (xoshiro128**, seeded through splitmix32) and samplers
 * on it, never Math.random. Every consumer derives its own stream from (seed, stream, index) with `reseed`, so
 * what concept i draws does not depend on earlier concepts' draws.
 */

/** 32-bit finaliser (murmur3 fmix32). */
export function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of up to three 32-bit integers. */
export function hash3(a: number, b: number, c: number): number {
  return mix32(mix32(mix32(a ^ 0x9e3779b9) ^ b) + Math.imul(c, 0x27d4eb2f));
}

export class Rng {
  private s0 = 0;
  private s1 = 0;
  private s2 = 0;
  private s3 = 0;

  constructor(seed: number, stream = 0, index = 0) {
    this.reseed(seed, stream, index);
  }

  /** Re-initialises in place (cheap; used once per concept by the writers). */
  reseed(seed: number, stream: number, index = 0): this {
    let x = hash3(seed >>> 0, stream >>> 0, index >>> 0);
    // splitmix32 to fill the state
    const next = (): number => {
      x = (x + 0x9e3779b9) | 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.s0 = next();
    this.s1 = next();
    this.s2 = next();
    this.s3 = next() | 1;
    return this;
  }

  /** Uniform 32-bit unsigned integer. */
  u32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9);
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** Uniform integer in [lo, hi] (inclusive). */
  range(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)]!;
  }

  /** floor(rate) plus one more with probability frac(rate): an integer with the given mean. */
  count(rate: number): number {
    const whole = Math.floor(rate);
    return whole + (this.float() < rate - whole ? 1 : 0);
  }

  /** Geometric number of extra items: P(k) ~ p^k (mean p / (1 - p)). */
  geometric(p: number, max: number): number {
    let k = 0;
    while (k < max && this.float() < p) k++;
    return k;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/**
 * Classic Zipf over a fixed list (rank r has weight 1 / (r + q)^s). Used for word choice, where the
 * list length does not depend on the scale and the head words must dominate.
 */
export class ZipfSampler {
  private readonly cdf: Float64Array;

  constructor(readonly size: number, exponent = 1, offset = 0) {
    if (size <= 0) throw new Error('ZipfSampler: empty');
    this.cdf = new Float64Array(size);
    let total = 0;
    for (let r = 0; r < size; r++) {
      total += 1 / Math.pow(r + 1 + offset, exponent);
      this.cdf[r] = total;
    }
    for (let r = 0; r < size; r++) this.cdf[r]! /= total;
  }

  sample(rng: Rng): number {
    const u = rng.float();
    let lo = 0;
    let hi = this.size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid]! > u) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

/** Weighted choice over explicit weights. */
export class WeightedSampler {
  private readonly cdf: Float64Array;

  constructor(weights: readonly number[]) {
    this.cdf = new Float64Array(weights.length);
    let total = 0;
    weights.forEach((w, i) => {
      total += w;
      this.cdf[i] = total;
    });
    if (total <= 0) throw new Error('WeightedSampler: weights sum to zero');
    for (let i = 0; i < weights.length; i++) this.cdf[i]! /= total;
  }

  sample(rng: Rng): number {
    const u = rng.float();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid]! > u) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

/**
 * Popularity by relative rank: x in [0, 1) drawn with density proportional to (x + eps)^-1, mapped
 * to floor(x * n). Because the density is defined on the relative rank, the share of draws that
 * land in the top k % of a pool is the same at every scale, which keeps per-concept statistics
 * (how many products per ingredient, how many children per parent) stable from 1 % to full size.
 */
export function relativeZipf(rng: Rng, n: number, eps = 0.002): number {
  // below ~1/eps items the first rank would swallow the whole head of the density; flattening the
  // head keeps small pools (small scales) from being dominated by a single item
  if (eps * n < 2) eps = 2 / n;
  const u = rng.float();
  const x = eps * Math.pow((1 + eps) / eps, u) - eps;
  const i = Math.floor(x * n);
  return i >= n ? n - 1 : i;
}

/** Largest-remainder apportionment of `total` by `weights`, every part at least `min[i]`. */
export function apportion(total: number, weights: readonly number[], min: readonly number[] = []): number[] {
  const n = weights.length;
  const out = new Array<number>(n).fill(0);
  let remaining = total;
  const minOf = (i: number): number => min[i] ?? 0;
  for (let i = 0; i < n; i++) {
    out[i] = minOf(i);
    remaining -= out[i]!;
  }
  if (remaining < 0) throw new Error(`apportion: total ${total} is below the minimums`);
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0) return out;
  const exact = weights.map((w) => (w / sum) * (total));
  // give each part max(min, floor(exact)) then distribute what is left by largest remainder
  let given = 0;
  for (let i = 0; i < n; i++) {
    const extra = Math.max(0, Math.floor(exact[i]!) - minOf(i));
    out[i]! += extra;
    given += extra;
  }
  let left = remaining - given;
  if (left < 0) {
    // minimums pushed us over: take back from the largest parts above their minimum
    const order = [...out.keys()].sort((a, b) => out[b]! - minOf(b) - (out[a]! - minOf(a)));
    for (let k = 0; left < 0; k = (k + 1) % n) {
      const i = order[k]!;
      if (out[i]! > minOf(i)) {
        out[i]!--;
        left++;
      }
    }
    return out;
  }
  const order = [...out.keys()].sort((a, b) => (exact[b]! - Math.floor(exact[b]!)) - (exact[a]! - Math.floor(exact[a]!)) || a - b);
  for (let k = 0; left > 0; k = (k + 1) % n) {
    out[order[k]!]!++;
    left--;
  }
  return out;
}
