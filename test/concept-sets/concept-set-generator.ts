/**
 * The concept-set differential generator, shared by the differential test and the ValueSet acceptance test: a reference
 * resolver written straight from the Athena files with circe's rules, seeded expressions over a release, and a seeded
 * random release with invalid concepts in hierarchies, invalid and licensed 'Maps to' rows and dangling rows.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { synthesize } from '../../src/synth/index.js';
import { writeAthenaFixture, type FixtureConcept, type FixtureRelationship, type FixtureVocabulary } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { SHARED_VOCAB } from '../navigation/mapping-athena-files.js';
import type { AthenaFiles } from '../navigation/mapping-athena-files.js';

export const HIDDEN_UNVALIDATED = ['CPT4', 'GPI', 'MedDRA'];
export const HIDDEN_VALIDATED = ['GPI', 'MedDRA'];

/** The reference resolver over the files (circe's rules; ids absent from CONCEPT and hidden vocabularies left out). */
export class Reference {
  private readonly descendants = new Map<number, number[]>();
  /** target → sources of valid 'Maps to' rows (first row of a repeated key wins, as the loader keeps it). */
  private readonly mappedFrom = new Map<number, number[]>();
  /** target → sources of invalid 'Maps to' rows (for the sensitivity check only). */
  private readonly invalidMappedFrom = new Map<number, number[]>();

  constructor(readonly files: AthenaFiles) {
    const seenAncestor = new Set<string>();
    for (const a of files.ancestors) {
      const key = `${a.ancestor}:${a.descendant}`;
      if (seenAncestor.has(key) || a.ancestor === a.descendant) continue;
      seenAncestor.add(key);
      const list = this.descendants.get(a.ancestor) ?? [];
      list.push(a.descendant);
      this.descendants.set(a.ancestor, list);
    }
    const seenRow = new Set<string>();
    for (const r of files.relationships) {
      const key = `${r.concept_id_1}:${r.relationship_id}:${r.concept_id_2}`;
      if (seenRow.has(key)) continue;
      seenRow.add(key);
      if (r.relationship_id !== 'Maps to') continue;
      const index = r.invalid_reason === null ? this.mappedFrom : this.invalidMappedFrom;
      const list = index.get(r.concept_id_2) ?? [];
      list.push(r.concept_id_1);
      index.set(r.concept_id_2, list);
    }
  }

  descendantCount(id: number): number {
    return this.descendants.get(id)?.length ?? 0;
  }

  hasSources(id: number): boolean {
    return this.mappedFrom.has(id);
  }

  private visible(id: number, hidden: readonly string[]): boolean {
    const c = this.files.concepts.get(id);
    return c !== undefined && !hidden.includes(c.vocabulary_id);
  }

  private expand(item: GeneratedItem, hidden: readonly string[], wrong?: Wrong): Set<number> {
    const out = new Set<number>();
    if (!this.visible(item.id, hidden)) return out; // unknown or restricted: left out
    const base = [item.id];
    if (item.desc) {
      for (const d of this.descendants.get(item.id) ?? []) {
        if ((wrong === 'hidden descendants shown' ? this.files.concepts.has(d) : this.visible(d, hidden)) && (wrong === 'invalid descendants' || this.files.concepts.get(d)!.invalid_reason === null)) base.push(d);
      }
    }
    for (const id of base) out.add(id);
    if (item.mapped) {
      for (const id of base) for (const s of this.mappedFrom.get(id) ?? []) if (this.visible(s, hidden)) out.add(s);
      if (wrong === 'invalid map rows') for (const id of base) for (const s of this.invalidMappedFrom.get(id) ?? []) if (this.visible(s, hidden)) out.add(s);
    }
    return out;
  }

  /** The resolution, or with `wrong` the resolution under a broken rule (to show the expressions tell the rules apart). */
  resolve(items: readonly GeneratedItem[], hidden: readonly string[], wrong?: Wrong): number[] {
    const included = new Set<number>();
    const excluded = new Set<number>();
    for (const item of items) {
      const expansion = wrong === 'invalid items dropped' && this.files.concepts.get(item.id)?.invalid_reason ? new Set<number>() : this.expand(item, hidden, wrong);
      for (const id of expansion) (item.ex && wrong !== 'exclusions ignored' ? excluded : included).add(id);
    }
    return [...included].filter((id) => !excluded.has(id)).sort((a, b) => a - b);
  }
}

export const WRONG_RULES = ['invalid descendants', 'invalid map rows', 'invalid items dropped', 'exclusions ignored', 'hidden descendants shown'] as const;
export type Wrong = (typeof WRONG_RULES)[number];

export interface GeneratedItem {
  id: number;
  ex: boolean;
  desc: boolean;
  mapped: boolean;
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Seeded expressions: random concepts, hierarchy heads, invalid and non-standard concepts, mapping targets, unknown ids, every flag combination, and exclusions inside included hierarchies. */
export function generate(ref: Reference, count: number, seed: number): GeneratedItem[][] {
  const random = mulberry32(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const concepts = [...ref.files.concepts.values()];
  const all = concepts.map((c) => c.concept_id);
  const heads = all.filter((id) => ref.descendantCount(id) > 0);
  const invalid = concepts.filter((c) => c.invalid_reason !== null).map((c) => c.concept_id);
  const nonStandard = concepts.filter((c) => c.standard_concept === null).map((c) => c.concept_id);
  const targets = all.filter((id) => ref.hasSources(id));
  const pools = [all, heads, invalid, nonStandard, targets].filter((p) => p.length > 0);
  const descendantsOf = (id: number) => [...ref.files.ancestors.filter((a) => a.ancestor === id && a.descendant !== id).map((a) => a.descendant)];
  const expressions: GeneratedItem[][] = [];
  for (let e = 0; e < count; e++) {
    const items: GeneratedItem[] = [];
    const size = 1 + Math.floor(random() * 8);
    for (let i = 0; i < size; i++) {
      const flags = e % 8; // every flag combination, in turn, for the first item
      const item: GeneratedItem = {
        id: random() < 0.04 ? 2_000_000_000 + Math.floor(random() * 1000) : pick(pick(pools)),
        ex: i === 0 ? (flags & 1) === 1 && size === 1 : random() < 0.25,
        desc: i === 0 ? (flags & 2) === 2 : random() < 0.5,
        mapped: i === 0 ? (flags & 4) === 4 : random() < 0.4,
      };
      items.push(item);
      // An exclusion inside an included hierarchy.
      if (!item.ex && item.desc && random() < 0.6) {
        const below = descendantsOf(item.id);
        if (below.length) items.push({ id: pick(below), ex: true, desc: random() < 0.5, mapped: random() < 0.5 });
      }
    }
    expressions.push(items);
  }
  return expressions;
}

/** A seeded random release: DAG hierarchies with invalid members, ICD10CM sources mapping in (some rows invalid), CPT4 concepts, dangling rows. */
export function randomRelease(seed: number): FixtureVocabulary {
  const random = mulberry32(seed);
  const vocabularies = ['SNOMED', 'SNOMED', 'SNOMED', 'SNOMED', 'ICD10CM', 'ICD10CM', 'CPT4', 'RxNorm'];
  const concepts: FixtureConcept[] = [];
  const parents = new Map<number, number[]>();
  const byVocabulary = new Map<string, number[]>();
  for (let i = 0; i < 700; i++) {
    const id = 1000 + i;
    const vocabulary_id = vocabularies[Math.floor(random() * vocabularies.length)]!;
    const invalid = random() < 0.15;
    const standard = vocabulary_id === 'ICD10CM' || invalid ? null : random() < 0.1 ? 'C' : 'S';
    concepts.push({ concept_id: id, concept_name: `c${id}`, vocabulary_id, domain_id: vocabulary_id === 'RxNorm' ? 'Drug' : 'Condition', standard_concept: standard, invalid_reason: invalid ? (random() < 0.5 ? 'D' : 'U') : null });
    const same = byVocabulary.get(vocabulary_id) ?? [];
    const hierarchical = concepts.filter((c) => c.vocabulary_id !== 'ICD10CM' && c.concept_id !== id).map((c) => c.concept_id);
    if (vocabulary_id !== 'ICD10CM' && same.length) {
      const ps = new Set<number>();
      // Mostly within the vocabulary; sometimes under another one (a CPT4 concept below a SNOMED one).
      for (let k = 0; k < (random() < 0.3 ? 2 : 1); k++) ps.add(random() < 0.8 ? same[Math.floor(random() * same.length)]! : hierarchical[Math.floor(random() * hierarchical.length)]!);
      parents.set(id, [...ps]);
    }
    same.push(id);
    byVocabulary.set(vocabulary_id, same);
  }
  const ancestors: Array<[number, number, number, number]> = [];
  const closure = new Map<number, Map<number, number>>(); // descendant → ancestor → min level
  for (const c of concepts) {
    const up = new Map<number, number>([[c.concept_id, 0]]);
    for (const p of parents.get(c.concept_id) ?? []) for (const [a, l] of closure.get(p)!) if (!up.has(a) || up.get(a)! > l + 1) up.set(a, l + 1);
    closure.set(c.concept_id, up);
    for (const [a, l] of up) ancestors.push([a, c.concept_id, l, l]);
  }
  for (let k = 0; k < 15; k++) ancestors.push([1000 + Math.floor(random() * 700), 5000 + k, 1, 1]); // descendants missing from CONCEPT
  const relationships: FixtureRelationship[] = [];
  const standard = concepts.filter((c) => c.standard_concept === 'S').map((c) => c.concept_id);
  const seen = new Set<string>();
  const mapsTo = (from: number, to: number, invalid: boolean) => {
    if (seen.has(`${from}:${to}`)) return;
    seen.add(`${from}:${to}`);
    relationships.push({ concept_id_1: from, concept_id_2: to, relationship_id: 'Maps to', invalid_reason: invalid ? 'D' : null });
  };
  for (const c of concepts) {
    if (c.standard_concept === 'S') mapsTo(c.concept_id, c.concept_id, false);
    const n = c.standard_concept === 'S' ? (random() < 0.1 ? 1 : 0) : 1 + Math.floor(random() * 2);
    for (let k = 0; k < n; k++) mapsTo(c.concept_id, standard[Math.floor(random() * standard.length)]!, random() < 0.2);
  }
  for (let k = 0; k < 15; k++) mapsTo(6000 + k, standard[Math.floor(random() * standard.length)]!, false); // sources missing from CONCEPT
  return { concepts, relationships, ancestors };
}

export const atlas = (items: readonly GeneratedItem[]) => ({
  items: items.map((i) => ({ concept: { CONCEPT_ID: i.id }, isExcluded: i.ex, includeDescendants: i.desc, includeMapped: i.mapped })),
});


/** The shared real subsets the differential tests also run on (skipped when absent). */
export const SYNTHEA = join(SHARED_VOCAB, 'eunomia-synthea27nj');
export const GIBLEED = join(SHARED_VOCAB, 'eunomia-gibleed-2019');
export const haveShared = existsSync(join(SYNTHEA, 'CONCEPT.csv')) && existsSync(join(GIBLEED, 'CONCEPT.csv'));

/** The server both differential tests ask: the synthetic release (2030.1, default), the seeded random one (2031.1), the shared subsets. */
export interface DifferentialServer {
  t: TestServer;
  validatedKey: string;
  synthDir: string;
  randomDir: string;
  close(): Promise<void>;
}

export async function startDifferentialServer(tempPrefix: string): Promise<DifferentialServer> {
  const work = mkdtempSync(join(tmpdir(), tempPrefix));
  const synthDir = join(work, 'synth');
  synthesize({ outDir: synthDir, concepts: 8000, seed: 22 });
  const randomDir = writeAthenaFixture(randomRelease(22), join(work, 'random'));
  const releases = [
    { dir: synthDir, label: '2030.1', makeDefault: true },
    { dir: randomDir, label: '2031.1', makeDefault: false },
  ];
  if (haveShared) releases.push({ dir: SYNTHEA, label: '2022.2', makeDefault: false }, { dir: GIBLEED, label: '2019.1', makeDefault: false });
  const t = await startTestServer({ releases });
  const validatedKey = await t.createKey({ cpt4_validated_until: '2999-12-31' });
  return {
    t,
    validatedKey,
    synthDir,
    randomDir,
    async close() {
      await t.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
