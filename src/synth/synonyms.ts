/**
 * CONCEPT_SYNONYM rows, regenerated per concept from its name and a per-concept random stream: fully specified
 * names, word reorderings ("Femur fracture"), abbreviations, LOINC short names, drug names in other languages,
 * HGVS expressions and short descriptors of billing codes.
 */
import { type ConceptTable, STD_NONE } from './concept-table.js';
import { CONCEPT_CLASSES, VOCABULARIES } from './metadata.js';
import { LOINC_PROPERTIES, LOINC_SYSTEMS } from './lexicon.js';
import type { Rng } from './random.js';

export const ENGLISH = 4180186;

/** Relative number of synonyms per concept, by vocabulary (scaled to the release total). */
export const SYNONYM_RATES: Readonly<Record<string, number>> = {
  SNOMED: 1.45, LOINC: 1.3, RxNorm: 0.55, 'RxNorm Extension': 0.42, 'dm+d': 0.6, Read: 0.9, ICD10CM: 0.35, ICD10: 0.3,
  ICDO3: 0.8, 'OMOP Genomic': 1.0, HCPCS: 0.6, CPT4: 0.6, ATC: 0.1, UCUM: 0.3, Race: 0.5, Visit: 0.3,
};

const ABBREVIATIONS: Array<[RegExp, string]> = [
  [/chronic obstructive pulmonary disease/i, 'COPD'], [/myocardial infarction/i, 'MI'], [/type 2 diabetes mellitus/i, 'T2DM'],
  [/type 1 diabetes mellitus/i, 'T1DM'], [/essential hypertension|hypertensive disorder/i, 'HTN'], [/chronic kidney disease/i, 'CKD'],
  [/congestive heart failure/i, 'CHF'], [/computed tomography/i, 'CT'], [/magnetic resonance imaging/i, 'MRI'], [/without/g, 'w/o'],
  [/\bwith\b/g, 'w'], [/history of/i, 'h/o'], [/fracture/g, 'fx'], [/disorder/g, 'd/o'], [/ and /g, ' & '], [/left/g, 'L'], [/right/g, 'R'],
  [/deep venous thrombosis/i, 'DVT'], [/urinary tract infection/i, 'UTI'], [/gastroesophageal reflux disease/i, 'GERD'],
  [/atrial fibrillation/i, 'AF'], [/infection/g, 'inf'], [/examination/g, 'exam'], [/procedure/g, 'proc'],
];

const SEMANTIC_TAGS: Record<string, string> = {
  'Clinical Finding': 'disorder', Procedure: 'procedure', 'Body Structure': 'body structure', Organism: 'organism',
  Substance: 'substance', 'Qualifier Value': 'qualifier value', 'Observable Entity': 'observable entity', 'Physical Object': 'physical object',
  'Context-dependent': 'situation', 'Morph Abnormality': 'morphologic abnormality', Event: 'event', 'Social Context': 'social concept',
  Location: 'environment / location', Specimen: 'specimen', 'Staging / Scales': 'assessment scale', 'Record Artifact': 'record artifact',
  'Pharma/Biol Product': 'product', Attribute: 'attribute', 'Model Comp': 'core metadata concept', 'Namespace Concept': 'namespace concept',
  'Navi Concept': 'navigational concept', Disposition: 'disposition', 'Physical Force': 'physical force', 'Admin Concept': 'administrative concept',
  'Linkage Concept': 'link assertion',
};

const TRANSLATIONS: Array<[number, Record<string, string>]> = [
  [4182504, { 'Oral Tablet': 'Tabletten', 'Oral Capsule': 'Hartkapseln', 'Injectable Solution': 'Injektionslösung', 'Oral Solution': 'Lösung zum Einnehmen', 'Topical Cream': 'Creme', Box: 'Packung', by: 'von' }],
  [4180190, { 'Oral Tablet': 'comprimé', 'Oral Capsule': 'gélule', 'Injectable Solution': 'solution injectable', 'Oral Solution': 'solution buvable', 'Topical Cream': 'crème', Box: 'Boîte', by: 'de' }],
  [4182511, { 'Oral Tablet': 'comprimidos', 'Oral Capsule': 'cápsulas', 'Injectable Solution': 'solución inyectable', 'Oral Solution': 'solución oral', 'Topical Cream': 'crema', Box: 'Caja', by: 'de' }],
  [4182503, { 'Oral Tablet': 'tablet', 'Oral Capsule': 'capsule', 'Injectable Solution': 'oplossing voor injectie', 'Oral Solution': 'drank', 'Topical Cream': 'crème', Box: 'Doos', by: 'van' }],
  [4182507, { 'Oral Tablet': 'compresse', 'Oral Capsule': 'capsule rigide', 'Injectable Solution': 'soluzione iniettabile', 'Oral Solution': 'soluzione orale', 'Topical Cream': 'crema', Box: 'Scatola', by: 'di' }],
];

const PROPERTY_SHORT = new Map(LOINC_PROPERTIES.map((p) => [p[0], p[1]] as const));
const SYSTEM_SHORT = new Map(LOINC_SYSTEMS.map((s) => [s[0], s[1]] as const));

function reorder(name: string): string | null {
  const of = name.indexOf(' of ');
  if (of > 0 && of < name.length - 4) {
    const head = name.slice(0, of);
    const tail = name.slice(of + 4);
    if (!tail.includes(' of ')) return `${tail[0]!.toUpperCase()}${tail.slice(1)} ${head.toLowerCase()}`;
  }
  const words = name.split(' ');
  if (words.length >= 2 && /^[A-Z][a-z]+$/.test(words[0]!) && words[0]!.length > 3) {
    return `${words.slice(1).join(' ')}, ${words[0]!.toLowerCase()}`.replace(/^./, (c) => c.toUpperCase());
  }
  return null;
}

function abbreviate(name: string): string | null {
  let out = name;
  for (const [re, abbr] of ABBREVIATIONS) out = out.replace(re, abbr);
  return out !== name ? out : null;
}

function loincShort(name: string): string | null {
  const m = /^(.*?) \[(.*?)\] in (.*?)(?: by (.*))?$/.exec(name);
  if (!m) return null;
  const comp = m[1]!.split(/[ .]/)[0]!.slice(0, 10);
  const prop = PROPERTY_SHORT.get(m[2]!) ?? m[2]!.slice(0, 5);
  const sys = SYSTEM_SHORT.get(m[3]!.replace(/^24 hour /, '')) ?? m[3]!.slice(0, 6);
  return `${comp} ${sys}-${prop}${m[4] ? ` ${m[4].split(' ')[0]!.slice(0, 6)}` : ''}`;
}

function translate(name: string, dict: Record<string, string>): string | null {
  let out = name;
  let changed = false;
  for (const [en, tr] of Object.entries(dict)) {
    if (en === 'Box' || en === 'by') continue;
    if (out.includes(en)) {
      out = out.replace(en, tr);
      changed = true;
    }
  }
  out = out.replace(/ Box of /, ` ${dict.Box} ` ).replace(/ by /, ` ${dict.by} `);
  out = out.replace(/ MG\b/g, ' mg').replace(/ ML\b/g, ' ml');
  return changed || out !== name ? out : null;
}

const VOCAB_IDS = VOCABULARIES.map((v) => v.vocabulary_id);
const CLASS_IDS = CONCEPT_CLASSES.map((c) => c.concept_class_id);

/**
 * Synonyms of concept i: up to `count` distinct [name, language_concept_id] pairs (fewer when the
 * concept offers fewer candidates).
 */
export function synonymsOf(t: ConceptTable, i: number, count: number, rng: Rng): Array<[string, number]> {
  if (count <= 0) return [];
  const name = t.name(i);
  const vocab = VOCAB_IDS[t.vocab[i]!]!;
  const cls = CLASS_IDS[t.cls[i]!]!;
  // candidates are produced lazily: most concepts take only the first one or two
  const cands: Array<[() => string | null, number]> = [];
  const en = (s: () => string | null): void => {
    cands.push([s, ENGLISH]);
  };
  switch (vocab) {
    case 'SNOMED': {
      const tag = cls === 'Clinical Finding' && t.domain[i] !== undefined && /^(Finding|.* finding)/.test(name) ? 'finding' : SEMANTIC_TAGS[cls] ?? 'qualifier value';
      en(() => `${name} (${tag})`);
      en(() => abbreviate(name));
      en(() => reorder(name));
      en(() => `${name}, NOS`);
      en(() => rng.chance(0.5) ? `${name.toLowerCase()}` : `${name} (${t.std[i] === STD_NONE ? 'inactive concept' : 'clinical'})`);
      break;
    }
    case 'LOINC': {
      en(() => loincShort(name));
      en(() => name.replace(/\[(.*?)\]/, (_m, p: string) => `[${p.replace('volume', 'Vol').replace('Moles', 'Mol')}]`));
      en(() => abbreviate(name));
      en(() => reorder(name));
      en(() => `${name} (${cls})`);
      break;
    }
    case 'RxNorm':
    case 'RxNorm Extension': {
      const langs = rng.chance(vocab === 'RxNorm' ? 0.15 : 0.6);
      if (langs) {
        const [lang, dict] = TRANSLATIONS[rng.int(TRANSLATIONS.length)]!;
        cands.push([() => translate(name, dict), lang]);
      }
      en(() => name.replace(/(^|\s)([a-z])/g, (_m, s: string, c: string) => s + c.toUpperCase()));
      en(() => name.replace(/ MG\b/g, ' mg').replace(/ ML\b/g, ' mL'));
      en(() => abbreviate(name));
      const [lang2, dict2] = TRANSLATIONS[rng.int(TRANSLATIONS.length)]!;
      cands.push([() => translate(name, dict2), lang2]);
      break;
    }
    case 'OMOP Genomic': {
      en(() => t.code(i));
      const m = /p\.([A-Z][a-z]{2})(\d+)([A-Z][a-z]{2}|fs|Ter)$/.exec(name);
      if (m) en(() => `${name.split(' ')[0]} ${m[2]}`);
      en(() => `${name} variant`);
      en(() => reorder(name));
      break;
    }
    case 'HCPCS':
    case 'CPT4': {
      en(() => name.slice(0, 28).toUpperCase().trim());
      en(() => abbreviate(name));
      en(() => name.split(';')[0]!.split(',').slice(0, 2).join(','));
      en(() => reorder(name));
      break;
    }
    case 'Read': {
      en(() => name.slice(0, 30).trim());
      en(() => `${name} NOS`);
      en(() => abbreviate(name));
      en(() => reorder(name));
      break;
    }
    default: {
      en(() => reorder(name));
      en(() => abbreviate(name));
      en(() => `${name}, NOS`);
      en(() => name.toLowerCase());
      en(() => `${name} (${cls})`);
    }
  }
  const out: Array<[string, number]> = [];
  const seen = new Set<string>([name]);
  for (const [make, lang] of cands) {
    if (out.length >= count) break;
    const s = make();
    if (!s || seen.has(s)) continue;
    seen.add(s);
    out.push([s.length > 1000 ? s.slice(0, 1000) : s, lang]);
  }
  return out;
}
