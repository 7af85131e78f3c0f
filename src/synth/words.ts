/**
 * Made-up but pronounceable words: ingredient names with real pharmacological stems ("-pril",
 * "-sartan", "-tinib"), brand names, company names and gene symbols. The lexicon's real names
 * come first; these fill the long tail, so tail words match only a handful of concepts.
 */
import { COMMON_INGREDIENTS, GENES } from './lexicon.js';
import type { Rng } from './random.js';

const ONSETS = ['b', 'c', 'd', 'f', 'g', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'z', 'br', 'cl', 'dr', 'fl', 'gr', 'pr', 'tr', 'st', 'x', 'k', 'h', 'th', 'ph', 'qu', 'ch', 'sp'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'a', 'e', 'i', 'o', 'y', 'ae', 'ia', 'io', 'ou', 'ei'];
const CODAS = ['', '', '', 'n', 'r', 'l', 's', 'x', 'm', 't', 'nd', 'rt', 'st', 'lt'];

const DRUG_STEMS = [
  'pril', 'sartan', 'olol', 'statin', 'dipine', 'prazole', 'tidine', 'floxacin', 'cycline', 'mycin', 'cillin', 'azole',
  'conazole', 'vir', 'navir', 'tinib', 'mab', 'zumab', 'ximab', 'umab', 'parin', 'gliptin', 'gliflozin', 'glutide',
  'afil', 'triptan', 'setron', 'lukast', 'sone', 'olone', 'terol', 'tropium', 'dronate', 'caine', 'curium', 'azepam',
  'oxetine', 'aline', 'apine', 'idone', 'profen', 'coxib', 'fenac', 'barbital', 'thiazide', 'semide', 'pamide',
  'formin', 'glitazone', 'teplase', 'cept', 'kinra', 'ciclib', 'rafenib', 'lisib', 'parib', 'degib', 'zomib',
  'lutamide', 'relin', 'tide', 'vastatin', 'adol', 'orphan', 'ine', 'ol', 'ate', 'ium', 'one', 'ide', 'in', 'amine',
  'azine', 'azosin', 'bactam', 'bital', 'cort', 'dopa', 'erol', 'fungin', 'gab', 'ilide', 'lamide', 'mustine', 'nidazole',
  'oxib', 'penem', 'platin', 'rubicin', 'taxel', 'trexate', 'vudine', 'zepine', 'zolamide',
];

const SALTS = ['hydrochloride', 'sodium', 'potassium', 'calcium', 'sulfate', 'phosphate', 'acetate', 'citrate', 'maleate', 'tartrate', 'besylate', 'mesylate', 'succinate', 'fumarate', 'bromide'];

export function syllable(rng: Rng): string {
  return rng.pick(ONSETS) + rng.pick(VOWELS) + (rng.chance(0.35) ? rng.pick(CODAS) : '');
}

export function pseudoWord(rng: Rng, minSyllables: number, maxSyllables: number): string {
  const n = rng.range(minSyllables, maxSyllables);
  let w = '';
  for (let i = 0; i < n; i++) w += syllable(rng);
  return w;
}

export function capitalize(s: string): string {
  return s.length ? s[0]!.toUpperCase() + s.slice(1) : s;
}

/**
 * `count` distinct ingredient names: the real common ones first, then generated names with drug
 * stems (about 12 % with a salt, e.g. "zelvoprazole sodium").
 */
export function ingredientNames(rng: Rng, count: number): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const name of COMMON_INGREDIENTS) {
    if (out.length >= count) break;
    if (!seen.has(name)) {
      seen.add(name);
      out.push(name);
    }
  }
  while (out.length < count) {
    let base = pseudoWord(rng, 1, 3) + rng.pick(DRUG_STEMS);
    if (rng.chance(0.12)) base += ` ${rng.pick(SALTS)}`;
    else if (rng.chance(0.03)) base = `${pseudoWord(rng, 1, 2)} ${base}`;
    if (base.length < 6 || seen.has(base)) continue;
    seen.add(base);
    out.push(base);
  }
  return out;
}

/** A brand name such as "Zorvex" or "Norvalin XR". */
export function brandName(rng: Rng, suffixes: readonly string[]): string {
  let name = capitalize(pseudoWord(rng, 2, 3));
  if (rng.chance(0.18)) name += ` ${rng.pick(suffixes)}`;
  return name;
}

/** A company name such as "Alvora Pharma GmbH". */
export function companyName(rng: Rng, suffixes: readonly string[]): string {
  const words = rng.chance(0.25) ? `${capitalize(pseudoWord(rng, 1, 2))} ${capitalize(pseudoWord(rng, 2, 3))}` : capitalize(pseudoWord(rng, 2, 3));
  return `${words} ${rng.pick(suffixes)}`;
}

/** `count` distinct gene symbols: real well-known ones first, then symbols like "ZNF482" or "SLC7A11". */
export function geneSymbols(rng: Rng, count: number): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const g of GENES) {
    if (out.length >= count) break;
    seen.add(g);
    out.push(g);
  }
  const letters = 'ABCDEFGHIKLMNPRSTVWZ';
  while (out.length < count) {
    let s = '';
    const n = rng.range(2, 5);
    for (let i = 0; i < n; i++) s += letters[rng.int(letters.length)];
    s += String(rng.range(1, 99));
    if (rng.chance(0.3)) s += letters[rng.int(letters.length)]! + String(rng.range(1, 20));
    if (seen.has(s)) continue;
    seen.add(s);
    out.push(s);
  }
  return out;
}
