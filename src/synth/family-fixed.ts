/**
 * Metadata and small fixed vocabularies (the concepts behind the reference tables, Gender, Race, Ethnicity, Visit,
 * Type Concept, UCUM units), keeping the well-known concept_ids (8507 MALE, 9201 Inpatient Visit, …) that ETL
 * conventions and the FHIR-to-OMOP concept maps refer to.
 */
import type { GenContext } from './context.js';
import { CONCEPT_CLASSES, DOMAINS, RELATIONSHIPS, VOCABULARIES } from './metadata.js';
import { RACES, VISITS } from './lexicon.js';

const GENDERS: Array<[number, string, string, 'D' | null]> = [
  [8507, 'MALE', 'M', null], [8532, 'FEMALE', 'F', null], [8521, 'OTHER', 'O', 'D'], [8551, 'UNKNOWN', 'U', 'D'], [8570, 'AMBIGUOUS', 'A', 'D'],
];

const TYPE_CONCEPTS = [
  'EHR', 'Claim', 'Registry', 'Survey', 'Lab', 'Pharmacy claim', 'Inpatient claim', 'Outpatient claim', 'EHR prescription',
  'EHR dispensing record', 'EHR administration record', 'EHR order', 'EHR encounter record', 'EHR problem list',
  'EHR discharge summary', 'EHR billing record', 'EHR Pathology report', 'EHR physical examination', 'EHR chief complaint',
  'EHR referral record', 'Patient self-report', 'Case report form', 'Death certificate', 'External CDM instance',
  'Genetic test result', 'Claim authorization', 'Claim discharge record', 'Facility claim', 'Professional claim',
  'EHR medication list', 'EHR note', 'EHR episode record', 'Healthcare professional filled survey',
  'Patient filled survey', 'Mail order record', 'NLP derived', 'Trial', 'Cancer registry', 'Government report',
  'Standard algorithm',
];

/** Units: [concept_id or 0, UCUM code, name, drug-strength key]. */
const KNOWN_UNITS: Array<[number, string, string, string]> = [
  [8576, 'mg', 'milligram', 'MG'], [8587, 'mL', 'milliliter', 'ML'], [8554, '%', 'percent', '%'], [8510, '[U]', 'unit', 'UNT'],
  [8718, '[iU]', 'international unit', '[IU]'], [9655, 'ug', 'microgram', 'MCG'], [8504, 'g', 'gram', 'G'], [8519, 'L', 'liter', 'L'],
  [8505, 'h', 'hour', 'HR'], [9529, 'kg', 'kilogram', 'KG'], [8582, 'cm', 'centimeter', 'CM'], [8840, 'mg/dL', 'milligram per deciliter', ''],
  [8753, 'mmol/L', 'millimole per liter', ''], [8713, 'g/dL', 'gram per deciliter', ''], [8876, 'mm[Hg]', 'millimeter mercury column', ''],
  [8541, '/min', 'per minute', ''], [9557, 'meq/L', 'milliequivalent per liter', ''], [9551, 'meq', 'milliequivalent', 'MEQ'],
  [9573, 'mmol', 'millimole', 'MMOL'], [45744809, '{actuat}', 'actuation', 'ACTUAT'], [9325, '[hp_X]', 'homeopathic potency of decimal series', '[hp_X]'],
  [9324, '[hp_C]', 'homeopathic potency of centesimal series', '[hp_C]'], [8985, '[BAU]', 'bioequivalent allergen unit', 'BAU'],
];

const PREFIXES: Array<[string, string]> = [['', ''], ['m', 'milli'], ['u', 'micro'], ['n', 'nano'], ['p', 'pico'], ['k', 'kilo'], ['c', 'centi'], ['d', 'deci'], ['f', 'femto']];
const BASES: Array<[string, string]> = [
  ['g', 'gram'], ['L', 'liter'], ['mol', 'mole'], ['eq', 'equivalent'], ['[iU]', 'international unit'], ['U', 'enzyme unit'], ['m', 'meter'],
  ['s', 'second'], ['Pa', 'pascal'], ['cal', 'calorie'], ['J', 'joule'], ['W', 'watt'], ['Hz', 'hertz'], ['Gy', 'gray'], ['Bq', 'becquerel'],
  ['kat', 'katal'], ['osm', 'osmole'], ['{cells}', 'cells'], ['{copies}', 'copies'], ['[arb\'U]', 'arbitrary unit'],
];
const PER: Array<[string, string]> = [
  ['', ''], ['/L', 'per liter'], ['/dL', 'per deciliter'], ['/mL', 'per milliliter'], ['/uL', 'per microliter'], ['/h', 'per hour'],
  ['/min', 'per minute'], ['/(24.h)', 'per 24 hours'], ['/kg', 'per kilogram'], ['/g', 'per gram'], ['/m2', 'per square meter'],
  ['/d', 'per day'], ['/s', 'per second'], ['/mmol', 'per millimole'], ['/{1.73_m2}', 'per 1.73 square meter'], ['/mg', 'per milligram'],
];

export function buildFixed(ctx: GenContext): void {
  for (const v of VOCABULARIES) {
    ctx.addWithId('Vocabulary', v.vocabulary_concept_id, { cls: 'Vocabulary', domain: 'Metadata', std: null, code: 'OMOP generated', name: v.vocabulary_name, start: 19700101 });
  }
  for (const d of DOMAINS) {
    ctx.addWithId('Domain', d.domain_concept_id, { cls: 'Domain', domain: 'Metadata', std: null, code: 'OMOP generated', name: d.domain_name, start: 19700101 });
  }
  for (const c of CONCEPT_CLASSES) {
    ctx.addWithId('Concept Class', c.concept_class_concept_id, { cls: 'Concept Class', domain: 'Metadata', std: null, code: 'OMOP generated', name: c.concept_class_name, start: 19700101 });
  }
  for (const r of RELATIONSHIPS) {
    ctx.addWithId('Relationship', r.relationship_concept_id, { cls: 'Relationship', domain: 'Metadata', std: null, code: 'OMOP generated', name: r.relationship_name, start: 19700101 });
  }
  for (const [id, name, code, inv] of GENDERS) {
    ctx.addWithId('Gender', id, { cls: 'Gender', domain: 'Gender', std: 'S', invalid: inv, code, name, start: 19700101 });
  }
  const raceByCode = new Map<string, number>();
  for (const [id, name, code] of RACES) {
    const i = ctx.addWithId('Race', id, { cls: 'Race', domain: 'Race', std: 'S', code, name, start: 19700101 });
    raceByCode.set(code, i);
    const parent = code.includes('.') ? raceByCode.get(code.split('.')[0]!) : undefined;
    if (parent !== undefined) ctx.link(i, parent, 'Is a');
  }
  ctx.addWithId('Ethnicity', 38003563, { cls: 'Ethnicity', domain: 'Ethnicity', std: 'S', code: 'Hispanic', name: 'Hispanic or Latino', start: 19700101 });
  ctx.addWithId('Ethnicity', 38003564, { cls: 'Ethnicity', domain: 'Ethnicity', std: 'S', code: 'Not Hispanic', name: 'Not Hispanic or Latino', start: 19700101 });
  for (const [id, name, code] of VISITS) {
    ctx.addWithId('Visit', id, { cls: 'Visit', domain: 'Visit', std: 'S', code, name, start: 19700101 });
  }
  TYPE_CONCEPTS.forEach((name, k) => {
    ctx.addWithId('Type Concept', TYPE_CONCEPT_IDS[k]!, { cls: 'Type Concept', domain: 'Type Concept', std: 'S', code: 'OMOP generated', name, start: 19700101 });
  });
  buildUnits(ctx);
}

export const TYPE_CONCEPT_IDS = TYPE_CONCEPTS.map((_, k) => 32810 + k);

export function fixedConceptIds(): number[] {
  return [
    ...VOCABULARIES.map((v) => v.vocabulary_concept_id),
    ...DOMAINS.map((d) => d.domain_concept_id),
    ...CONCEPT_CLASSES.map((c) => c.concept_class_concept_id),
    ...RELATIONSHIPS.map((r) => r.relationship_concept_id),
    ...GENDERS.map((g) => g[0]),
    ...RACES.map((r) => r[0]),
    38003563, 38003564,
    ...VISITS.map((v) => v[0]),
    ...TYPE_CONCEPT_IDS,
    ...KNOWN_UNITS.map((u) => u[0]),
  ];
}

/** UCUM: the units drug strengths use, then prefix × base × per-denominator combinations. */
function buildUnits(ctx: GenContext): void {
  const plan = ctx.classPlan('UCUM', 'Unit');
  const total = plan.total;
  const units = new Map<string, number>();
  const seen = new Set<string>();
  let made = 0;
  const coreTarget = plan.core;
  const start = ctx.next;
  for (const [id, code, name, key] of KNOWN_UNITS) {
    if (made >= coreTarget) break;
    const i = ctx.addWithId('UCUM', id, { cls: 'Unit', domain: 'Unit', std: 'S', code, name, start: 19700101 });
    seen.add(code);
    if (key) units.set(key, i);
    made++;
  }
  outer: for (const [pc, pn] of PREFIXES) {
    for (const [bc, bn] of BASES) {
      for (const [dc, dn] of PER) {
        if (made >= coreTarget) break outer;
        const code = `${pc}${bc}${dc}`;
        if (seen.has(code)) continue;
        seen.add(code);
        ctx.add('UCUM', { cls: 'Unit', domain: 'Unit', std: 'S', code, name: `${pn}${bn}${dn ? ` ${dn}` : ''}`, start: 19700101 });
        made++;
      }
    }
  }
  const pool = ctx.setPool('UCUM/Unit', { start, end: ctx.next });
  ctx.shared.set('units', units);
  let retiredCode = 0;
  ctx.addRetired('UCUM', 'Unit', () => 'Unit', total - made, 0, pool, () => `{retired_${++retiredCode}}`, (_rng, name) => `${name} (old)`);
}
