/**
 * `synthesize`: builds the concept model family by family (in dependency order), then streams the
 * Athena tables to `outDir`. Deterministic for a given (concepts, seed).
 */
import { mkdirSync } from 'node:fs';
import { countAncestors, writeAncestors } from './ancestors.js';
import { planAttributes } from './attributes.js';
import { INV_NONE } from './concept-table.js';
import { GenContext } from './context.js';
import { buildCpt4, buildHcpcs } from './family-procedures.js';
import { buildDmd } from './family-dmd.js';
import { buildAtc, buildDrugVocabulary, prepareDrugUniverse } from './family-drugs.js';
import { buildFixed, fixedConceptIds } from './family-fixed.js';
import { buildGenomic } from './family-genomic.js';
import { buildIcd10, buildIcd10cm, buildIcdo3, buildRead } from './family-classifications.js';
import { buildLoinc } from './family-loinc.js';
import { buildSnomed, LANGUAGES } from './family-snomed.js';
import { CONCEPT_CLASSES, vocabIndex } from './metadata.js';
import { makePlan } from './plan.js';
import { FULL_RELEASE, PER_CONCEPT } from './shape.js';
import { structuralPairs, synonymFactor, writeConceptsAndSynonyms, writeDrugStrength, writeReferenceTables, writeRelationships } from './writers.js';

export interface SynthOptions {
  outDir: string;
  /** Number of concepts (default: the full release, 4,874,345). */
  concepts?: number;
  seed?: number;
  onProgress?: (line: string) => void;
}

export interface SynthResult {
  outDir: string;
  concepts: number;
  seed: number;
  rows: Record<string, number>;
  /** Concepts per vocabulary. */
  vocabularies: Record<string, number>;
  elapsedMs: number;
  phasesMs: Record<string, number>;
  maxAncestorLevels: number;
  /** Extra-parent multiplier of the clinical hierarchies (1 unless calibrated for a small output). */
  ancestryDensity: number;
}

export const DEFAULT_SEED = 20250829;

/** Below this many concepts the ancestry density is calibrated (see synthesize). */
const CALIBRATE_BELOW = 1_000_000;

/**
 * Extra-parent multiplier that gives the release's ancestor rows per concept, measured with the
 * default seed at 1 %, 10 % and full size (log-linear in between).
 */
const DENSITY_CURVE: Array<[number, number]> = [
  [48_743, 4.6],
  [487_435, 1.8],
  [4_874_345, 1.18],
];

export function densityGuess(concepts: number): number {
  const pts = DENSITY_CURVE;
  if (concepts <= pts[0]![0]) return pts[0]![1];
  for (let k = 1; k < pts.length; k++) {
    const [n1, d1] = pts[k]!;
    if (concepts <= n1) {
      const [n0, d0] = pts[k - 1]!;
      const f = Math.log(concepts / n0) / Math.log(n1 / n0);
      return Math.exp(Math.log(d0) + f * (Math.log(d1) - Math.log(d0)));
    }
  }
  return pts[pts.length - 1]![1];
}

export function buildModel(plan: ReturnType<typeof makePlan>, seed: number, reserved: Set<number>, log: (s: string) => void, density: number): GenContext {
  const ctx = new GenContext(plan, seed, reserved, log, density);
  buildFixed(ctx);
  const drugs = prepareDrugUniverse(ctx);
  buildAtc(ctx, drugs);
  buildDrugVocabulary(ctx, 'RxNorm');
  log(`RxNorm: ${ctx.next.toLocaleString('en-US')} concepts so far`);
  buildDrugVocabulary(ctx, 'RxNorm Extension');
  log(`RxNorm Extension: ${ctx.next.toLocaleString('en-US')} concepts so far`);
  buildDmd(ctx);
  buildSnomed(ctx);
  log(`SNOMED: ${ctx.next.toLocaleString('en-US')} concepts so far`);
  buildIcdo3(ctx);
  buildIcd10(ctx);
  buildIcd10cm(ctx);
  buildRead(ctx);
  buildLoinc(ctx);
  buildHcpcs(ctx);
  buildCpt4(ctx);
  buildGenomic(ctx);
  return ctx;
}

export function synthesize(options: SynthOptions): SynthResult {
  const t0 = Date.now();
  const concepts = options.concepts ?? FULL_RELEASE.concepts;
  const seed = (options.seed ?? DEFAULT_SEED) >>> 0;
  const log = options.onProgress ?? (() => {});
  const phases: Record<string, number> = {};
  let mark = Date.now();
  const phase = (name: string): void => {
    const now = Date.now();
    phases[name] = now - mark;
    mark = now;
    log(`${name} done in ${(phases[name]! / 1000).toFixed(1)} s`);
  };

  mkdirSync(options.outDir, { recursive: true });
  const plan = makePlan(concepts);
  const reserved = new Set<number>([...fixedConceptIds(), ...LANGUAGES.map((l) => l[0])]);
  log(`planning ${concepts.toLocaleString('en-US')} concepts (seed ${seed})`);

  // Small outputs: the clinical hierarchies saturate (a 1 % SNOMED has few distinct branches for
  // multiple parents to come from), so the DAG density is calibrated with a few trial builds until
  // CONCEPT_ANCESTOR has the release's rows per concept. Large outputs use the full-size density.
  let density = densityGuess(concepts);
  if (concepts < CALIBRATE_BELOW) {
    const target = concepts * PER_CONCEPT.conceptAncestors;
    const tried: Array<[number, number]> = [];
    let k = density;
    for (let trial = 0; trial < 5; trial++) {
      const rowsAt = countAncestors(buildModel(plan, seed, reserved, () => {}, k).table);
      tried.push([k, rowsAt]);
      log(`calibration: ancestry density ${k.toFixed(3)} → ${(rowsAt / concepts).toFixed(3)} ancestor rows per concept (target ${PER_CONCEPT.conceptAncestors.toFixed(3)})`);
      if (Math.abs(rowsAt - target) / target < 0.015) break;
      const [k0, a0] = tried.length > 1 ? tried[tried.length - 2]! : [k * 0.7, rowsAt * (1 - 0.3 * 0.25)];
      const slope = (rowsAt - a0) / (k - k0);
      k = Math.min(6, Math.max(0.25, slope > 0 ? k + (target - rowsAt) / slope : k * 1.5));
    }
    density = tried.reduce((best, cur) => (Math.abs(cur[1] - target) < Math.abs(best[1] - target) ? cur : best))[0];
  }
  const ctx = buildModel(plan, seed, reserved, log, density);
  const t = ctx.table;
  if (t.size !== concepts) throw new Error(`internal error: built ${t.size} concepts for ${concepts} requested`);
  phase('model');

  const rows: Record<string, number> = { ...writeReferenceTables(options.outDir) };
  // a few concepts offer fewer synonym candidates than drawn: aim 1.5 % high
  const synTarget = Math.round(t.size * PER_CONCEPT.conceptSynonyms * 1.015);
  const cs = writeConceptsAndSynonyms(options.outDir, t, seed, synonymFactor(t, synTarget), log);
  rows.concept = cs.concepts;
  rows.concept_synonym = cs.synonyms;
  phase('CONCEPT + CONCEPT_SYNONYM');

  const pairTarget = Math.round((t.size * PER_CONCEPT.conceptRelationships) / 2);
  const structural = structuralPairs(t);
  const snomed = vocabIndex('SNOMED');
  const eligible = new Float64Array(CONCEPT_CLASSES.length);
  for (let i = 0; i < t.size; i++) if (t.vocab[i] === snomed && t.invalid[i] === INV_NONE) eligible[t.cls[i]!]!++;
  const attrs = planAttributes(ctx, pairTarget - structural, (c) => eligible[c]!);
  log(`relationships: ${structural.toLocaleString('en-US')} structural pairs, ${Math.round(attrs.expected).toLocaleString('en-US')} attribute pairs planned`);
  rows.concept_relationship = writeRelationships(options.outDir, t, seed, attrs, log);
  phase('CONCEPT_RELATIONSHIP');

  const anc = writeAncestors(options.outDir, t, log);
  rows.concept_ancestor = anc.rows;
  phase('CONCEPT_ANCESTOR');

  rows.drug_strength = writeDrugStrength(options.outDir, t, ctx.shared.get('units') as Map<string, number>);
  phase('DRUG_STRENGTH');

  const vocabularies: Record<string, number> = {};
  for (const [v, n] of plan.vocabularies) vocabularies[v] = n;
  return { outDir: options.outDir, concepts: t.size, seed, rows, vocabularies, elapsedMs: Date.now() - t0, phasesMs: phases, maxAncestorLevels: anc.maxDepth, ancestryDensity: density };
}
