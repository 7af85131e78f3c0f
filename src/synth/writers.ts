/**
 * Writers of the Athena tables other than CONCEPT_ANCESTOR (see ancestors.ts). Each streams rows
 * straight from the concept table; nothing row-shaped is accumulated.
 */
import { join } from 'node:path';
import type { AttributePlan } from './attributes.js';
import { type ConceptTable, INV_NONE, STD_S } from './concept-table.js';
import { CONCEPT_CLASSES, DOMAINS, REVERSE_REL, RELATIONSHIPS, VOCABULARIES, classIndex, relIndex, vocabIndex } from './metadata.js';
import { strengthOf } from './family-drugs.js';
import { QUANTITIES } from './lexicon.js';
import { Rng } from './random.js';
import { synonymsOf, SYNONYM_RATES } from './synonyms.js';
import { TsvWriter } from './tsv-writer.js';

export const FILES = {
  concept: 'CONCEPT.csv',
  conceptRelationship: 'CONCEPT_RELATIONSHIP.csv',
  conceptAncestor: 'CONCEPT_ANCESTOR.csv',
  conceptSynonym: 'CONCEPT_SYNONYM.csv',
  drugStrength: 'DRUG_STRENGTH.csv',
  vocabulary: 'VOCABULARY.csv',
  domain: 'DOMAIN.csv',
  conceptClass: 'CONCEPT_CLASS.csv',
  relationship: 'RELATIONSHIP.csv',
} as const;

const VOCAB_IDS = VOCABULARIES.map((v) => v.vocabulary_id);
const CLASS_IDS = CONCEPT_CLASSES.map((c) => c.concept_class_id);
const DOMAIN_IDS = DOMAINS.map((d) => d.domain_id);
const REL_IDS = RELATIONSHIPS.map((r) => r.relationship_id);
const STD_TEXT = ['', 'S', 'C'];
const INV_TEXT = ['', 'D', 'U'];

/** Streams for per-concept regeneration (must never change, or output changes). */
export const STREAM_SYNONYMS = 0x5e7a;
export const STREAM_ATTRIBUTES = 0xa771;

export function writeReferenceTables(dir: string): Record<string, number> {
  const v = new TsvWriter(join(dir, FILES.vocabulary), ['vocabulary_id', 'vocabulary_name', 'vocabulary_reference', 'vocabulary_version', 'vocabulary_concept_id']);
  for (const r of VOCABULARIES) v.line(`${r.vocabulary_id}\t${r.vocabulary_name}\t${r.vocabulary_reference}\t${r.vocabulary_version}\t${r.vocabulary_concept_id}\n`);
  v.close();
  const d = new TsvWriter(join(dir, FILES.domain), ['domain_id', 'domain_name', 'domain_concept_id']);
  for (const r of DOMAINS) d.line(`${r.domain_id}\t${r.domain_name}\t${r.domain_concept_id}\n`);
  d.close();
  const c = new TsvWriter(join(dir, FILES.conceptClass), ['concept_class_id', 'concept_class_name', 'concept_class_concept_id']);
  for (const r of CONCEPT_CLASSES) c.line(`${r.concept_class_id}\t${r.concept_class_name}\t${r.concept_class_concept_id}\n`);
  c.close();
  const r = new TsvWriter(join(dir, FILES.relationship), ['relationship_id', 'relationship_name', 'is_hierarchical', 'defines_ancestry', 'reverse_relationship_id', 'relationship_concept_id']);
  for (const x of RELATIONSHIPS) r.line(`${x.relationship_id}\t${x.relationship_name}\t${x.is_hierarchical}\t${x.defines_ancestry}\t${x.reverse_relationship_id}\t${x.relationship_concept_id}\n`);
  r.close();
  return { vocabulary: v.rows, domain: d.rows, concept_class: c.rows, relationship: r.rows };
}

/** Synonym rate factor so that the expected total equals `target`. */
export function synonymFactor(t: ConceptTable, target: number): number {
  const perVocab = new Float64Array(VOCABULARIES.length);
  for (let i = 0; i < t.size; i++) perVocab[t.vocab[i]!]!++;
  let expected = 0;
  VOCABULARIES.forEach((v, k) => (expected += perVocab[k]! * (SYNONYM_RATES[v.vocabulary_id] ?? 0)));
  return expected > 0 ? target / expected : 0;
}

export function writeConceptsAndSynonyms(dir: string, t: ConceptTable, seed: number, synFactor: number, progress: (s: string) => void): { concepts: number; synonyms: number } {
  const cw = new TsvWriter(join(dir, FILES.concept), ['concept_id', 'concept_name', 'domain_id', 'vocabulary_id', 'concept_class_id', 'standard_concept', 'concept_code', 'valid_start_date', 'valid_end_date', 'invalid_reason']);
  const sw = new TsvWriter(join(dir, FILES.conceptSynonym), ['concept_id', 'concept_synonym_name', 'language_concept_id']);
  const rates = VOCABULARIES.map((v) => (SYNONYM_RATES[v.vocabulary_id] ?? 0) * synFactor);
  const rng = new Rng(seed, STREAM_SYNONYMS);
  for (let i = 0; i < t.size; i++) {
    const id = t.id[i]!;
    const name = t.name(i);
    cw.line(`${id}\t${name}\t${DOMAIN_IDS[t.domain[i]!]}\t${VOCAB_IDS[t.vocab[i]!]}\t${CLASS_IDS[t.cls[i]!]}\t${STD_TEXT[t.std[i]!]}\t${t.code(i)}\t${t.start[i]}\t${t.end[i]}\t${INV_TEXT[t.invalid[i]!]}\n`);
    const rate = rates[t.vocab[i]!]!;
    if (rate > 0) {
      rng.reseed(seed, STREAM_SYNONYMS, i);
      const n = rng.count(rate);
      for (const [s, lang] of synonymsOf(t, i, n, rng)) sw.line(`${id}\t${s}\t${lang}\n`);
    }
    if ((i & 0xfffff) === 0 && i) progress(`concepts ${i.toLocaleString('en-US')}/${t.size.toLocaleString('en-US')}`);
  }
  cw.close();
  sw.close();
  return { concepts: cw.rows, synonyms: sw.rows };
}

/** Relationship pairs fixed by the model: stored links plus `Maps to` self rows of standard concepts. */
export function structuralPairs(t: ConceptTable): number {
  let selfMaps = 0;
  for (let i = 0; i < t.size; i++) if (t.std[i] === STD_S && t.invalid[i] === INV_NONE) selfMaps++;
  return t.links.count + selfMaps;
}

export function writeRelationships(dir: string, t: ConceptTable, seed: number, attrs: AttributePlan, progress: (s: string) => void): number {
  const w = new TsvWriter(join(dir, FILES.conceptRelationship), ['concept_id_1', 'concept_id_2', 'relationship_id', 'valid_start_date', 'valid_end_date', 'invalid_reason']);
  const { start, target, rel } = t.links;
  const mapsTo = relIndex('Maps to');
  const mappedFrom = relIndex('Mapped from');
  const rng = new Rng(seed, STREAM_ATTRIBUTES);
  const picked: number[] = [];
  for (let i = 0; i < t.size; i++) {
    const id = t.id[i]!;
    const si = t.start[i]!;
    for (let k = start[i]!; k < start[i + 1]!; k++) {
      const j = target[k]!;
      const r = rel[k]!;
      const d = si > t.start[j]! ? si : t.start[j]!;
      w.line(`${id}\t${t.id[j]}\t${REL_IDS[r]}\t${d}\t20991231\t\n`);
      w.line(`${t.id[j]}\t${id}\t${REL_IDS[REVERSE_REL[r]!]}\t${d}\t20991231\t\n`);
    }
    if (t.std[i] === STD_S && t.invalid[i] === INV_NONE) {
      w.line(`${id}\t${id}\t${REL_IDS[mapsTo]}\t${si}\t20991231\t\n`);
      w.line(`${id}\t${id}\t${REL_IDS[mappedFrom]}\t${si}\t20991231\t\n`);
    }
    if (t.vocab[i] === attrs.snomedVocab && t.invalid[i] === INV_NONE) {
      const spec = attrs.byClass.get(t.cls[i]!);
      if (spec) {
        rng.reseed(seed, STREAM_ATTRIBUTES, i);
        for (const e of spec) {
          const n = rng.count(e.rate);
          picked.length = 0;
          for (let a = 0; a < n; a++) {
            const j = e.pool.uniform(rng);
            if (j === i || picked.includes(j)) continue;
            picked.push(j);
            const d = si > t.start[j]! ? si : t.start[j]!;
            w.line(`${id}\t${t.id[j]}\t${REL_IDS[e.rel]}\t${d}\t20991231\t\n`);
            w.line(`${t.id[j]}\t${id}\t${REL_IDS[REVERSE_REL[e.rel]!]}\t${d}\t20991231\t\n`);
          }
        }
      }
    }
    if ((i & 0xfffff) === 0 && i) progress(`relationships: concept ${i.toLocaleString('en-US')}/${t.size.toLocaleString('en-US')}, ${w.rows.toLocaleString('en-US')} rows`);
  }
  w.close();
  return w.rows;
}

// ------------------------------------------------------------------------------------------------
// DRUG_STRENGTH

const DS_CLASSES = [
  'Clinical Drug Comp', 'Branded Drug Comp', 'Clinical Drug', 'Branded Drug', 'Quant Clinical Drug', 'Quant Branded Drug',
  'Clinical Drug Box', 'Branded Drug Box', 'Quant Clinical Box', 'Quant Branded Box', 'Marketed Product',
] as const;

export function writeDrugStrength(dir: string, t: ConceptTable, units: Map<string, number>): number {
  const w = new TsvWriter(join(dir, FILES.drugStrength), [
    'drug_concept_id', 'ingredient_concept_id', 'amount_value', 'amount_unit_concept_id', 'numerator_value', 'numerator_unit_concept_id',
    'denominator_value', 'denominator_unit_concept_id', 'box_size', 'valid_start_date', 'valid_end_date', 'invalid_reason',
  ]);
  const rxnorm = vocabIndex('RxNorm');
  const rxe = vocabIndex('RxNorm Extension');
  const cls = Object.fromEntries(DS_CLASSES.map((c) => [c, classIndex(c)])) as Record<(typeof DS_CLASSES)[number], number>;
  const isDs = new Uint8Array(CONCEPT_CLASSES.length);
  for (const c of DS_CLASSES) isDs[cls[c]] = 1;
  const consistsOf = relIndex('Consists of');
  const hasIng = relIndex('RxNorm has ing');
  const unitId = (key: string): string => {
    const i = units.get(key);
    return i === undefined ? '' : String(t.id[i]);
  };
  const { start, target, rel } = t.links;
  for (let i = 0; i < t.size; i++) {
    const v = t.vocab[i];
    if ((v !== rxnorm && v !== rxe) || !isDs[t.cls[i]!]) continue;
    // walk down the base chain to the clinical drug (or component), collecting quantity and box size
    let x = i;
    let qty = -1;
    let box = 0;
    for (let guard = 0; guard < 8; guard++) {
      const c = t.cls[x]!;
      if (c === cls['Clinical Drug'] || c === cls['Clinical Drug Comp']) break;
      if (c === cls['Quant Clinical Drug'] || c === cls['Quant Branded Drug']) qty = qty < 0 ? t.p2[x]! : qty;
      if (c === cls['Clinical Drug Box'] || c === cls['Branded Drug Box'] || c === cls['Quant Clinical Box'] || c === cls['Quant Branded Box']) box = box || t.p2[x]!;
      x = t.p1[x]!;
    }
    const parts: Array<[number, number]> = [];
    if (t.cls[x] === cls['Clinical Drug Comp']) parts.push([t.p1[x]!, t.p2[x]!]);
    else if (t.cls[x] === cls['Clinical Drug']) {
      for (let k = start[x]!; k < start[x + 1]!; k++) {
        if (rel[k] === consistsOf) parts.push([t.p1[target[k]!]!, t.p2[target[k]!]!]);
        else if (rel[k] === hasIng) parts.push([target[k]!, (target[k]! * 7) & 0x0f]); // strength unknown: first unit, a stable value
      }
    }
    const qtyText = qty >= 0 ? QUANTITIES[qty]! : '';
    const qtyValue = qty >= 0 ? Number(qtyText.split(' ')[0]) : 0;
    const qtyUnit = qty >= 0 ? qtyText.split(' ')[1]!.replace('GM', 'G') : '';
    const tail = `\t${box || ''}\t${t.start[i]}\t${t.end[i]}\t${INV_TEXT[t.invalid[i]!]}\n`;
    for (const [ing, code] of parts) {
      const { value, unit } = strengthOf(code);
      const [num, den] = unit.includes('/') ? unit.split('/') as [string, string] : [unit, ''];
      let line: string;
      if (!den) {
        line = `${t.id[i]}\t${t.id[ing]}\t${value}\t${unitId(num)}\t\t\t\t`;
      } else if (qty >= 0 && (den === 'ML' || den === 'ACTUAT' || den === 'HR' || den === 'G')) {
        line = `${t.id[i]}\t${t.id[ing]}\t\t\t${Number((value * qtyValue).toPrecision(6))}\t${unitId(num)}\t${qtyValue}\t${unitId(qtyUnit)}`;
      } else {
        line = `${t.id[i]}\t${t.id[ing]}\t\t\t${value}\t${unitId(num)}\t\t${unitId(den)}`;
      }
      w.line(line + tail);
    }
  }
  w.close();
  return w.rows;
}

