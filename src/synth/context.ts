/**
 * Shared state of one generation run: the concept table, the plan, id allocation per vocabulary, named pools of
 * concepts for families to pick from, and helpers for the concept lifecycle (validity dates, non-standard
 * satellites mapped to a standard concept, deprecated and updated concepts).
 */
import { ConceptTable, IdAllocator, INV_D, INV_NONE, INV_U, STD_C, STD_NONE, STD_S } from './concept-table.js';
import { classIndex, domainIndex, relIndex, vocabIndex, type CoreClassId, SYNTH_RELEASE_DATE } from './metadata.js';
import { classPlan, type ClassPlan, type Plan, type StdFlag } from './plan.js';
import { hash3, relativeZipf, Rng } from './random.js';

/** concept_id ranges per vocabulary: [first id, limit, gap probability]. Non-overlapping. */
const ID_RANGES: Record<string, [number, number, number]> = {
  UCUM: [8500, 10_000, 0],
  RxNorm: [19_000_000, 19_999_999, 0.3],
  'RxNorm/Ingredient': [1_000_000, 1_999_999, 0.5],
  'RxNorm Extension': [36_800_000, 40_000_000, 0.2],
  ATC: [21_600_000, 21_700_000, 0.3],
  'dm+d': [35_600_000, 36_290_000, 0.3],
  SNOMED: [4_000_000, 5_999_999, 0.3],
  ICDO3: [44_490_000, 44_600_000, 0.3],
  ICD10: [45_580_000, 45_620_000, 0.3],
  ICD10CM: [35_200_000, 35_400_000, 0.3],
  Read: [45_400_000, 45_579_999, 0.3],
  LOINC: [3_000_000, 3_499_999, 0.3],
  HCPCS: [2_600_000, 2_999_999, 0.3],
  CPT4: [2_100_000, 2_599_999, 0.3],
  'OMOP Genomic': [36_300_000, 36_790_000, 0.3],
  'Type Concept': [32_800_000, 32_900_000, 0],
};

export interface Range {
  start: number;
  end: number;
}

/** A set of concept indices (one or more contiguous ranges) to draw from. */
export class Pool {
  private readonly ranges: Range[] = [];
  size = 0;

  add(r: Range): this {
    if (r.end > r.start) {
      this.ranges.push(r);
      this.size += r.end - r.start;
    }
    return this;
  }

  at(k: number): number {
    for (const r of this.ranges) {
      const n = r.end - r.start;
      if (k < n) return r.start + k;
      k -= n;
    }
    throw new Error('Pool.at out of range');
  }

  uniform(rng: Rng): number {
    return this.at(rng.int(this.size));
  }

  /** Popular-first draw (relative-rank Zipf). */
  popular(rng: Rng, eps = 0.002): number {
    return this.at(relativeZipf(rng, this.size, eps));
  }

  get empty(): boolean {
    return this.size === 0;
  }
}

export interface ConceptFields {
  cls: CoreClassId;
  domain: string;
  std: StdFlag;
  invalid?: 'D' | 'U' | null;
  code: string;
  name: string;
  start?: number;
  end?: number;
  p1?: number;
  p2?: number;
}

export class GenContext {
  readonly table: ConceptTable;
  private readonly allocators = new Map<string, IdAllocator>();
  private readonly idRng: Rng;
  private readonly pools = new Map<string, Pool>();
  private readonly dateRng: Rng;
  /** Values shared between families (ingredient names, unit concepts, ...). */
  readonly shared = new Map<string, unknown>();

  constructor(
    readonly plan: Plan,
    readonly seed: number,
    readonly reserved: ReadonlySet<number>,
    onProgress: (line: string) => void = () => {},
    /** Multiplier of the extra-parent rate of the clinical hierarchies (see generate.ts). */
    readonly ancestryDensity = 1,
  ) {
    this.table = new ConceptTable(plan.concepts);
    this.idRng = new Rng(seed, 0x1d5);
    this.dateRng = new Rng(seed, 0xda7e);
    this.log = onProgress;
  }

  readonly log: (line: string) => void;

  /** A generator for a named stream (independent of every other stream). */
  rng(stream: string): Rng {
    return new Rng(this.seed, hashString(stream));
  }

  classPlan(vocab: string, cls: CoreClassId): ClassPlan {
    return classPlan(this.plan, vocab, cls);
  }

  private allocator(vocab: string, cls: string): IdAllocator {
    const key = ID_RANGES[`${vocab}/${cls}`] ? `${vocab}/${cls}` : vocab;
    let a = this.allocators.get(key);
    if (!a) {
      const r = ID_RANGES[key];
      if (!r) throw new Error(`no concept_id range for ${key}`);
      a = new IdAllocator(r[0], r[1], r[2], this.reserved);
      this.allocators.set(key, a);
    }
    return a;
  }

  /** Adds a concept with an allocated concept_id; returns its index. */
  add(vocab: string, f: ConceptFields): number {
    return this.addWithId(vocab, this.allocator(vocab, f.cls).take(this.idRng.float()), f);
  }

  /** Adds a concept with a fixed, well-known concept_id. */
  addWithId(vocab: string, conceptId: number, f: ConceptFields): number {
    const invalid = f.invalid === 'D' ? INV_D : f.invalid === 'U' ? INV_U : INV_NONE;
    const start = f.start ?? this.startDate();
    const end = f.end ?? (invalid === INV_NONE ? 20991231 : this.endDate(start));
    return this.table.add(conceptId, {
      vocab: vocabIndex(vocab),
      cls: classIndex(f.cls),
      domain: domainIndex(f.domain),
      std: invalid !== INV_NONE ? STD_NONE : f.std === 'S' ? STD_S : f.std === 'C' ? STD_C : STD_NONE,
      invalid,
      code: f.code,
      name: f.name.length > 255 ? f.name.slice(0, 255) : f.name,
      start,
      end,
      p1: f.p1,
      p2: f.p2,
    });
  }

  link(from: number, to: number, rel: string): void {
    this.table.link(from, to, relIndex(rel));
  }

  /** Records a named pool (e.g. `SNOMED/Clinical Finding`) of concepts to draw from later. */
  setPool(key: string, ...ranges: Range[]): Pool {
    const p = new Pool();
    for (const r of ranges) p.add(r);
    this.pools.set(key, p);
    return p;
  }

  pool(key: string): Pool {
    const p = this.pools.get(key);
    if (!p) throw new Error(`no pool ${key}`);
    return p;
  }

  hasPool(key: string): boolean {
    return this.pools.has(key);
  }

  /** Current concept count (the index the next concept will get). */
  get next(): number {
    return this.table.size;
  }

  /** Start dates: most concepts carry the vocabulary epoch 1970-01-01, newer ones a real date. */
  startDate(recentShare = 0.35): number {
    const r = this.dateRng;
    if (!r.chance(recentShare)) return 19700101;
    const year = 2000 + Math.floor(Math.pow(r.float(), 0.6) * 26);
    return clampDate(year * 10000 + r.range(1, 12) * 100 + r.range(1, 28));
  }

  /** End date of an invalid concept: after its start, before the release. */
  endDate(start: number): number {
    const r = this.dateRng;
    const from = Math.max(start, 20050101);
    const fy = Math.floor(from / 10000);
    for (let tries = 0; tries < 8; tries++) {
      const year = fy + r.int(2026 - fy);
      const d = clampDate(year * 10000 + r.range(1, 12) * 100 + r.range(1, 28));
      if (d > start && d < SYNTH_RELEASE_DATE) return d;
    }
    return 20250801 > start ? 20250801 : start;
  }

  /**
   * Valid non-standard concepts that map to a standard concept of the same class: `count` of them,
   * each named after its target with `variant`.
   */
  addSatellites(
    vocab: string,
    cls: CoreClassId,
    domainOf: (target: number) => string,
    count: number,
    targets: Pool,
    code: () => string,
    variant: (rng: Rng, name: string) => string,
  ): Range {
    const rng = this.rng(`${vocab}/${cls}/satellites`);
    const start = this.next;
    for (let k = 0; k < count && !targets.empty; k++) {
      const t = targets.uniform(rng);
      const i = this.add(vocab, { cls, domain: domainOf(t), std: null, code: code(), name: variant(rng, this.table.name(t)) });
      this.link(i, t, 'Maps to');
    }
    return { start, end: this.next };
  }

  /**
   * Deprecated (D) and updated (U) concepts of a class, named like a live concept. Updated ones are
   * `Concept replaced by` that concept and, when it is standard, `Maps to` it; a share of the
   * deprecated ones keep a `Concept was_a to` link (SNOMED style) when `wasA` is set.
   */
  addRetired(
    vocab: string,
    cls: CoreClassId,
    domainOf: (target: number) => string,
    deprecated: number,
    updated: number,
    targets: Pool,
    code: () => string,
    variant: (rng: Rng, name: string) => string,
    wasA = false,
  ): Range {
    const rng = this.rng(`${vocab}/${cls}/retired`);
    const start = this.next;
    if (targets.empty) return { start, end: start };
    for (let k = 0; k < deprecated + updated; k++) {
      const t = targets.uniform(rng);
      const isU = k >= deprecated;
      const i = this.add(vocab, { cls, domain: domainOf(t), std: null, invalid: isU ? 'U' : 'D', code: code(), name: variant(rng, this.table.name(t)) });
      if (isU) {
        this.link(i, t, 'Concept replaced by');
        if (this.table.std[t] === STD_S && this.table.invalid[t] === INV_NONE) this.link(i, t, 'Maps to');
      } else if (wasA && rng.chance(0.45)) {
        this.link(i, t, rng.chance(0.8) ? 'Concept was_a to' : rng.chance(0.5) ? 'Concept poss_eq to' : 'Concept same_as to');
      }
    }
    return { start, end: this.next };
  }

  domainName(i: number): string {
    return DOMAIN_IDS[this.table.domain[i]!]!;
  }
}

import { DOMAINS } from './metadata.js';
const DOMAIN_IDS = DOMAINS.map((d) => d.domain_id);

export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return hash3(h >>> 0, s.length, 0x5eed);
}

function clampDate(d: number): number {
  return d > SYNTH_RELEASE_DATE ? SYNTH_RELEASE_DATE : d;
}

export function lowerFirst(s: string): string {
  if (s.length > 1 && s[1] === s[1]!.toUpperCase() && /[A-Z]/.test(s[1]!)) return s; // keep acronyms
  return s.length ? s[0]!.toLowerCase() + s.slice(1) : s;
}

export function capitalizeFirst(s: string): string {
  return s.length ? s[0]!.toUpperCase() + s.slice(1) : s;
}

export { STD_C, STD_NONE, STD_S, INV_NONE };
