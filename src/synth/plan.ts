/**
 * How many concepts of each vocabulary and class to generate for a requested total: the August 2025 counts
 * (shape.ts) scaled proportionally (largest remainder), except the metadata vocabularies, whose size is fixed by
 * the reference tables (433 classes, 50 domains, 722 relationships, …).
 */
import { CONCEPT_CLASSES, DOMAINS, RELATIONSHIPS, VOCABULARIES, type CoreClassId } from './metadata.js';
import { apportion } from './random.js';
import { FULL_RELEASE, FULL_VOCABULARY_COUNTS } from './shape.js';
import { RACES, VISITS } from './lexicon.js';

export type StdFlag = 'S' | 'C' | null;

export interface ClassSpec {
  cls: CoreClassId;
  /** Full-size concept count (used as the apportionment weight). */
  full: number;
  std: StdFlag;
  /** Share of valid concepts that are non-standard and `Maps to` a standard concept of the class. */
  satellite?: number;
  /** Share of the class that is deprecated (D) / updated (U). */
  d?: number;
  u?: number;
}

export interface VocabSpec {
  vocab: string;
  /** Full-size count; `remainder` takes what the others leave of the full release. */
  full: number | 'remainder';
  /** Fixed count at every scale (metadata vocabularies). */
  fixed?: boolean;
  min?: number;
  classes: ClassSpec[];
}

const TYPE_CONCEPT_COUNT = 40;
const FULL_UCUM = 1_050;
const FULL_CPT4 = 11_650;

const P = (cls: CoreClassId, full: number, std: StdFlag, d = 0, u = 0, satellite = 0): ClassSpec => ({ cls, full, std, d, u, satellite });

/** Creation order matters: a family may only point at concepts of families created before it. */
export const VOCAB_SPECS: VocabSpec[] = [
  { vocab: 'Vocabulary', full: VOCABULARIES.length, fixed: true, classes: [P('Vocabulary', 1, null)] },
  { vocab: 'Domain', full: DOMAINS.length, fixed: true, classes: [P('Domain', 1, null)] },
  { vocab: 'Concept Class', full: CONCEPT_CLASSES.length, fixed: true, classes: [P('Concept Class', 1, null)] },
  { vocab: 'Relationship', full: RELATIONSHIPS.length, fixed: true, classes: [P('Relationship', 1, null)] },
  { vocab: 'Gender', full: 5, fixed: true, classes: [P('Gender', 1, 'S')] },
  { vocab: 'Race', full: RACES.length, fixed: true, classes: [P('Race', 1, 'S')] },
  { vocab: 'Ethnicity', full: 2, fixed: true, classes: [P('Ethnicity', 1, 'S')] },
  { vocab: 'Visit', full: VISITS.length, fixed: true, classes: [P('Visit', 1, 'S')] },
  { vocab: 'Type Concept', full: TYPE_CONCEPT_COUNT, fixed: true, classes: [P('Type Concept', 1, 'S')] },
  { vocab: 'UCUM', full: FULL_UCUM, min: 60, classes: [P('Unit', 1, 'S', 0.02)] },
  {
    vocab: 'ATC',
    full: FULL_VOCABULARY_COUNTS.ATC!,
    classes: [P('ATC 1st', 14, 'C'), P('ATC 2nd', 94, 'C'), P('ATC 3rd', 269, 'C'), P('ATC 4th', 912, 'C'), P('ATC 5th', 5934, 'C', 0.004)],
  },
  {
    vocab: 'RxNorm',
    full: FULL_VOCABULARY_COUNTS.RxNorm!,
    classes: [
      P('Dose Form Group', 45, 'C'), P('Dose Form', 165, null, 0.05), P('Ingredient', 14_200, 'S', 0.05, 0.03),
      P('Precise Ingredient', 8_100, null, 0.04), P('Brand Name', 31_000, null, 0.12, 0.02), P('Multiple Ingredients', 4_400, null, 0.05),
      P('Clinical Drug Comp', 41_000, 'S', 0.2, 0.13), P('Clinical Drug Form', 29_000, 'S', 0.2, 0.13),
      P('Clinical Drug', 60_000, 'S', 0.2, 0.13), P('Branded Drug Comp', 36_500, 'S', 0.2, 0.13),
      P('Branded Drug Form', 23_000, 'S', 0.2, 0.13), P('Branded Drug', 38_000, 'S', 0.2, 0.13),
      P('Quant Clinical Drug', 8_500, 'S', 0.2, 0.13), P('Quant Branded Drug', 5_200, 'S', 0.2, 0.13),
      P('Clinical Pack', 3_800, 'S', 0.2, 0.13), P('Branded Pack', 5_100, 'S', 0.2, 0.13),
    ],
  },
  {
    vocab: 'RxNorm Extension',
    full: FULL_VOCABULARY_COUNTS['RxNorm Extension']!,
    classes: [
      P('Dose Form', 120, null, 0.05), P('Ingredient', 10_500, 'S', 0.05, 0.03), P('Brand Name', 58_000, null, 0.04, 0.02),
      P('Supplier', 21_000, null, 0.03),
      P('Clinical Drug Comp', 72_000, 'S', 0.09, 0.05), P('Clinical Drug Form', 34_000, 'S', 0.09, 0.05),
      P('Clinical Drug', 152_000, 'S', 0.09, 0.05), P('Branded Drug Comp', 64_000, 'S', 0.09, 0.05),
      P('Branded Drug Form', 62_000, 'S', 0.09, 0.05), P('Branded Drug', 236_000, 'S', 0.09, 0.05),
      P('Quant Clinical Drug', 108_000, 'S', 0.09, 0.05), P('Quant Branded Drug', 148_000, 'S', 0.09, 0.05),
      P('Clinical Drug Box', 118_000, 'S', 0.09, 0.05), P('Quant Clinical Box', 38_000, 'S', 0.09, 0.05),
      P('Branded Drug Box', 286_000, 'S', 0.09, 0.05), P('Quant Branded Box', 72_000, 'S', 0.09, 0.05),
      P('Marketed Product', 691_832, 'S', 0.09, 0.05),
    ],
  },
  {
    vocab: 'dm+d',
    full: FULL_VOCABULARY_COUNTS['dm+d']!,
    classes: [
      P('Supplier', 5_500, null, 0.04), P('Ingredient', 16_000, null, 0.04), P('Dose Form', 250, null),
      P('VTM', 4_500, null, 0.05, 0.02), P('VMP', 36_000, null, 0.06, 0.04), P('AMP', 140_000, null, 0.06, 0.04),
      P('VMPP', 52_000, null, 0.06, 0.04), P('AMPP', 160_000, null, 0.06, 0.04), P('Device', 28_000, 'S', 0.06, 0.02),
    ],
  },
  {
    vocab: 'SNOMED',
    full: FULL_VOCABULARY_COUNTS.SNOMED!,
    classes: [
      P('Qualifier Value', 24_000, 'S', 0.2, 0.05, 0.05), P('Body Structure', 72_000, 'S', 0.24, 0.06, 0.06),
      P('Organism', 46_000, 'S', 0.18, 0.04, 0.04), P('Substance', 48_000, 'S', 0.24, 0.06, 0.3),
      P('Morph Abnormality', 15_000, null, 0.2, 0.05), P('Observable Entity', 32_000, 'S', 0.24, 0.06, 0.06),
      P('Physical Object', 22_000, 'S', 0.2, 0.05, 0.05), P('Clinical Finding', 335_000, 'S', 0.25, 0.06, 0.08),
      P('Procedure', 182_000, 'S', 0.24, 0.06, 0.07), P('Context-dependent', 26_000, 'S', 0.2, 0.05, 0.06),
      P('Pharma/Biol Product', 60_000, null, 0.3, 0.05), P('Event', 8_000, 'S', 0.15, 0.03, 0.03),
      P('Social Context', 6_000, 'S', 0.15, 0.03, 0.03), P('Location', 4_000, 'S', 0.15, 0.03, 0.03),
      P('Specimen', 10_000, 'S', 0.15, 0.04, 0.04), P('Staging / Scales', 6_000, 'S', 0.15, 0.03, 0.03),
      P('Record Artifact', 4_000, 'S', 0.15, 0.03, 0.03), P('Disposition', 600, 'S', 0.1), P('Physical Force', 500, 'S', 0.1),
      P('Attribute', 2_000, null, 0.15), P('Model Comp', 1_500, null, 0.1), P('Namespace Concept', 8_000, null, 0.02),
      P('Navi Concept', 3_000, null, 0.1), P('Admin Concept', 500, null, 0.1), P('Linkage Concept', 200, null, 0.1),
    ],
  },
  {
    vocab: 'ICDO3',
    full: FULL_VOCABULARY_COUNTS.ICDO3!,
    classes: [P('ICDO Topography', 870, null, 0.01), P('ICDO Histology', 5_600, null, 0.02), P('ICDO Condition', 58_001, 'S', 0.02)],
  },
  {
    vocab: 'ICD10',
    full: FULL_VOCABULARY_COUNTS.ICD10!,
    classes: [P('ICD10 Chapter', 22, null), P('ICD10 SubChapter', 260, null), P('ICD10 Hierarchy', 2_000, null), P('ICD10 code', 14_356, null, 0.01)],
  },
  {
    vocab: 'ICD10CM',
    full: 'remainder',
    classes: [
      P('3-char nonbill code', 1_700, null), P('3-char billing code', 240, null, 0.02), P('4-char nonbill code', 5_500, null, 0.01),
      P('4-char billing code', 9_800, null, 0.04), P('5-char nonbill code', 7_500, null, 0.01), P('5-char billing code', 16_000, null, 0.04),
      P('6-char nonbill code', 4_500, null, 0.01), P('6-char billing code', 12_000, null, 0.04), P('7-char billing code', 6_000, null, 0.04),
    ],
  },
  { vocab: 'Read', full: FULL_VOCABULARY_COUNTS.Read!, classes: [P('Read', 1, null, 0.03)] },
  {
    vocab: 'LOINC',
    full: FULL_VOCABULARY_COUNTS.LOINC!,
    classes: [
      P('LOINC Component', 55_000, null, 0.01), P('LOINC System', 1_600, null), P('LOINC Method', 4_200, null), P('LOINC Property', 180, null),
      P('LOINC Time', 60, null), P('LOINC Scale', 12, null), P('Doc Kind', 130, null), P('Doc Role', 20, null), P('Doc Setting', 40, null),
      P('Doc Subject Matter', 900, null), P('Doc Type of Service', 80, null), P('LOINC Class', 450, 'C'), P('LOINC Hierarchy', 36_000, 'C'),
      P('LOINC Group', 16_000, 'C', 0.02), P('Survey', 14_000, 'S', 0.04, 0.01), P('Lab Test', 64_000, 'S', 0.05, 0.02),
      P('Clinical Observation', 38_000, 'S', 0.04, 0.01), P('Answer', 42_000, 'S', 0.01),
    ],
  },
  {
    vocab: 'HCPCS',
    full: FULL_VOCABULARY_COUNTS.HCPCS!,
    classes: [P('HCPCS Class', 384, 'C'), P('HCPCS', 11_600, 'S', 0.18), P('HCPCS Modifier', 450, null, 0.05)],
  },
  {
    vocab: 'CPT4',
    full: FULL_CPT4,
    min: 40,
    classes: [P('CPT4 Hierarchy', 800, 'C', 0.02), P('CPT4', 10_500, 'S', 0.08), P('CPT4 Modifier', 350, null, 0.05)],
  },
  {
    vocab: 'OMOP Genomic',
    full: FULL_VOCABULARY_COUNTS['OMOP Genomic']!,
    classes: [P('Gene', 19_500, 'S', 0.01), P('Genomic Variant', 105_000, 'S', 0.01), P('Transcript Variant', 98_000, 'S', 0.01), P('Protein Variant', 67_389, 'S', 0.01)],
  },
];

export interface ClassPlan {
  vocab: string;
  cls: CoreClassId;
  std: StdFlag;
  /** All concepts of the class. */
  total: number;
  /** Valid concepts with the class's standard flag (the hierarchy / product core). */
  core: number;
  /** Valid non-standard concepts mapped to a core concept. */
  satellites: number;
  deprecated: number;
  updated: number;
}

export interface Plan {
  concepts: number;
  /** concepts / full release. */
  scale: number;
  vocabularies: Map<string, number>;
  classes: Map<string, ClassPlan>;
}

export function classKey(vocab: string, cls: string): string {
  return `${vocab}/${cls}`;
}

export function makePlan(totalConcepts: number): Plan {
  if (!Number.isInteger(totalConcepts) || totalConcepts < 1) throw new Error('concept count must be a positive integer');
  const fixed = VOCAB_SPECS.filter((v) => v.fixed).reduce((s, v) => s + (v.full as number), 0);
  const scalable = VOCAB_SPECS.filter((v) => !v.fixed);
  const fullScalableKnown = scalable.reduce((s, v) => s + (v.full === 'remainder' ? 0 : v.full), 0);
  const remainderFull = FULL_RELEASE.concepts - fixed - fullScalableKnown;
  if (remainderFull <= 0) throw new Error('plan: no room for the remainder vocabulary');
  const minimum = fixed + scalable.reduce((s, v) => s + Math.max(v.min ?? 0, v.classes.length), 0);
  if (totalConcepts < minimum) throw new Error(`at least ${minimum} concepts are needed (metadata vocabularies alone take ${fixed})`);

  const weights = scalable.map((v) => (v.full === 'remainder' ? remainderFull : v.full));
  const mins = scalable.map((v) => Math.max(v.min ?? 0, v.classes.length));
  const counts = apportion(totalConcepts - fixed, weights, mins);

  const vocabularies = new Map<string, number>();
  const classes = new Map<string, ClassPlan>();
  for (const v of VOCAB_SPECS) {
    const total = v.fixed ? (v.full as number) : counts[scalable.indexOf(v)]!;
    vocabularies.set(v.vocab, total);
    const classCounts = v.vocab === 'ATC' ? atcLevels(total) : apportion(total, v.classes.map((c) => c.full), v.classes.map(() => 1));
    v.classes.forEach((c, i) => {
      const n = classCounts[i]!;
      let deprecated = Math.round(n * (c.d ?? 0));
      let updated = Math.round(n * (c.u ?? 0));
      if (deprecated + updated >= n) {
        deprecated = 0;
        updated = 0;
      }
      const valid = n - deprecated - updated;
      const satellites = Math.min(valid - 1, Math.round(valid * (c.satellite ?? 0)));
      classes.set(classKey(v.vocab, c.cls), {
        vocab: v.vocab,
        cls: c.cls,
        std: c.std,
        total: n,
        core: valid - Math.max(0, satellites),
        satellites: Math.max(0, satellites),
        deprecated,
        updated,
      });
    });
  }
  return { concepts: totalConcepts, scale: totalConcepts / FULL_RELEASE.concepts, vocabularies, classes };
}

export function classPlan(plan: Plan, vocab: string, cls: CoreClassId): ClassPlan {
  const p = plan.classes.get(classKey(vocab, cls));
  if (!p) throw new Error(`no plan for ${vocab}/${cls}`);
  return p;
}

/**
 * ATC levels: the upper levels are small fixed taxonomies (14 / 94 / 269 / 912 classes). Scaled
 * down proportionally they would collapse to one or two classes, and every drug would share the
 * same ATC ancestors; instead they keep a minimum share of the vocabulary until they reach their
 * real size.
 */
function atcLevels(total: number): number[] {
  const real = [14, 94, 269, 912];
  const share = [0.06, 0.12, 0.18, 0.25];
  const out = real.map((r, k) => Math.max(1, Math.min(r, Math.round(total * share[k]!))));
  const used = out.reduce((a, b) => a + b, 0);
  out.push(Math.max(1, total - used));
  // tiny totals: trim the upper levels so the sum matches
  for (let k = 3; out.reduce((a, b) => a + b, 0) > total && k >= 0; k = k === 0 ? 3 : k - 1) if (out[k]! > 1) out[k]!--;
  return out;
}
