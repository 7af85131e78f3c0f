/**
 * SNOMED attribute relationships (finding site, associated morphology, method, …), never stored: the relationship
 * writer draws them per concept from a per-concept random stream, spreading the relationship budget the structural
 * relationships leave over the classes by these relative weights.
 */
import type { GenContext, Pool } from './context.js';
import { classIndex, type CoreClassId, relIndex, vocabIndex } from './metadata.js';

type Spec = Array<[rel: string, target: CoreClassId, weight: number]>;

const SPECS: Partial<Record<CoreClassId, Spec>> = {
  'Clinical Finding': [
    ['Has finding site', 'Body Structure', 1.0], ['Has asso morph', 'Morph Abnormality', 0.8], ['Has causative agent', 'Organism', 0.25],
    ['Has causative agent', 'Substance', 0.1], ['Has pathology', 'Qualifier Value', 0.2], ['Has clinical course', 'Qualifier Value', 0.2],
    ['Has severity', 'Qualifier Value', 0.1], ['Has interprets', 'Observable Entity', 0.15], ['Has due to', 'Clinical Finding', 0.1],
    ['Has occurrence', 'Qualifier Value', 0.1], ['Has laterality', 'Qualifier Value', 0.1],
  ],
  Procedure: [
    ['Has method', 'Qualifier Value', 0.9], ['Has dir proc site', 'Body Structure', 0.6], ['Has indir proc site', 'Body Structure', 0.15],
    ['Has proc site', 'Body Structure', 0.3], ['Using device', 'Physical Object', 0.2], ['Has dir device', 'Physical Object', 0.1],
    ['Has dir subst', 'Substance', 0.15], ['Using subst', 'Substance', 0.1], ['Has focus', 'Clinical Finding', 0.15],
    ['Has priority', 'Qualifier Value', 0.05], ['Has access', 'Qualifier Value', 0.1], ['Has surgical appr', 'Qualifier Value', 0.1],
    ['Has proc morph', 'Morph Abnormality', 0.1], ['Has intent', 'Qualifier Value', 0.05],
  ],
  'Observable Entity': [
    ['Has component', 'Substance', 0.5], ['Has property', 'Qualifier Value', 0.5], ['Has inherent loc', 'Body Structure', 0.4],
    ['Has scale type', 'Qualifier Value', 0.3], ['Has method', 'Qualifier Value', 0.2], ['Has specimen', 'Specimen', 0.2],
  ],
  'Context-dependent': [
    ['Has asso finding', 'Clinical Finding', 1.0], ['Has temporal context', 'Qualifier Value', 0.7], ['Has relat context', 'Qualifier Value', 0.7],
    ['Has finding context', 'Qualifier Value', 0.6],
  ],
  'Body Structure': [['Has laterality', 'Qualifier Value', 0.3], ['Part of', 'Body Structure', 0.5]],
  Specimen: [['Has specimen source', 'Body Structure', 0.6], ['Has proc context', 'Qualifier Value', 0.2]],
  'Pharma/Biol Product': [['Has active ing', 'Substance', 1.0], ['Has dose form', 'Qualifier Value', 0.6]],
  'Morph Abnormality': [['Has clinical course', 'Qualifier Value', 0.1]],
};

export interface AttributePlan {
  /** Per concept class index: the entries to draw (weights already multiplied by the global factor). */
  byClass: Map<number, Array<{ rel: number; pool: Pool; rate: number }>>;
  /** Concept index ranges eligible for attributes (valid core concepts of SNOMED classes). */
  snomedVocab: number;
  expected: number;
}

/**
 * Plans `budget` attribute rows-pairs over the valid SNOMED concepts of the classes above (counted
 * from the table), returning per-class draw rates.
 */
export function planAttributes(ctx: GenContext, budget: number, eligibleCount: (cls: number) => number): AttributePlan {
  const snomed = vocabIndex('SNOMED');
  let weightTotal = 0;
  const entries: Array<{ cls: number; rel: number; pool: Pool; w: number }> = [];
  for (const [cls, spec] of Object.entries(SPECS) as Array<[CoreClassId, Spec]>) {
    const c = classIndex(cls);
    const n = eligibleCount(c);
    for (const [rel, target, w] of spec) {
      const key = `SNOMED/${target}`;
      if (!ctx.hasPool(key) || ctx.pool(key).empty) continue;
      entries.push({ cls: c, rel: relIndex(rel), pool: ctx.pool(key), w });
      weightTotal += n * w;
    }
  }
  const factor = budget > 0 && weightTotal > 0 ? budget / weightTotal : 0;
  const byClass = new Map<number, Array<{ rel: number; pool: Pool; rate: number }>>();
  for (const e of entries) {
    const list = byClass.get(e.cls) ?? [];
    list.push({ rel: e.rel, pool: e.pool, rate: e.w * factor });
    byClass.set(e.cls, list);
  }
  return { byClass, snomedVocab: snomed, expected: factor * weightTotal };
}
