/**
 * HCPCS and CPT4: billing code systems with a small classification hierarchy on top, long
 * descriptive names ("Injection, <drug>, 10 mg"; "Excision, ...; each additional ..."), procedures
 * and devices standard, HCPCS drug codes non-standard and mapped to RxNorm.
 */
import { capitalizeFirst, type GenContext, lowerFirst } from './context.js';
import type { DrugUniverse } from './family-drugs.js';
import * as L from './lexicon.js';
import { relativeZipf, type Rng, WeightedSampler } from './random.js';
import { buildTreeClass } from './tree-class.js';
import type { NameModel } from './names-clinical.js';
import { capitalize, pseudoWord } from './words.js';

const HCPCS_LETTERS: Array<[string, string, number, string]> = [
  // letter, section title, weight, domain kind
  ['J', 'Drugs Administered Other Than Oral Method', 15, 'drug'], ['A', 'Transportation, Medical & Surgical Supplies, Miscellaneous & Experimental', 20, 'device'],
  ['E', 'Durable Medical Equipment', 12, 'device'], ['G', 'Procedures/Professional Services (Temporary)', 18, 'procedure'],
  ['L', 'Orthotic Procedures and Devices', 10, 'device'], ['Q', 'Temporary Codes', 5, 'procedure'], ['K', 'Temporary Codes for Durable Medical Equipment', 3, 'device'],
  ['C', 'Outpatient PPS', 5, 'procedure'], ['S', 'Temporary National Codes (Non-Medicare)', 5, 'procedure'], ['H', 'Alcohol and Drug Abuse Treatment Services', 2, 'observation'],
  ['T', 'National Codes Established for State Medicaid Agencies', 1.5, 'procedure'], ['V', 'Vision, Hearing and Speech-Language Pathology Services', 1.5, 'device'],
  ['B', 'Enteral and Parenteral Therapy', 0.5, 'device'], ['P', 'Pathology and Laboratory Services', 0.5, 'measurement'], ['R', 'Diagnostic Radiology Services', 0.5, 'procedure'],
  ['M', 'Medical Services', 0.5, 'procedure'],
];

function procedurePhrase(rng: Rng): string {
  const head = L.PROCEDURE_HEADS[relativeZipf(rng, L.PROCEDURE_HEADS.length, 0.02)]!;
  const site = L.BODY_SITES[relativeZipf(rng, L.BODY_SITES.length, 0.01)]!;
  const q = L.PROCEDURE_QUALIFIERS[relativeZipf(rng, L.PROCEDURE_QUALIFIERS.length, 0.02)]!;
  return `${capitalizeFirst(head)}, ${site}${rng.chance(0.5) ? `, ${q}` : ''}`;
}

function devicePhrase(rng: Rng): string {
  const noun = L.DEVICE_NOUNS[relativeZipf(rng, L.DEVICE_NOUNS.length, 0.03)]!;
  return `${capitalizeFirst(noun)}, ${L.DEVICE_MATERIALS[rng.int(L.DEVICE_MATERIALS.length)]}${rng.chance(0.5) ? `, ${L.SIZES[rng.int(L.SIZES.length)]}` : ''}${rng.chance(0.4) ? `, ${rng.pick(['each', 'per pair', 'per month', 'per 10', 'per box of 100', 'rental', 'purchase'])}` : ''}`;
}

export function buildHcpcs(ctx: GenContext): void {
  const vocab = 'HCPCS';
  const rng = ctx.rng(vocab);
  const u = ctx.shared.get('drugs') as DrugUniverse;
  const cds = ctx.pool('drug/Clinical Drug');
  const classes = ctx.classPlan(vocab, 'HCPCS Class');
  const letterSampler = new WeightedSampler(HCPCS_LETTERS.map((l) => l[2]));
  // classes: one root per letter, sub-classes under them
  const roots = Math.min(classes.core, HCPCS_LETTERS.length);
  const rootIdx: number[] = [];
  const subsOf = new Map<number, number[]>();
  let classNo = 0;
  for (let k = 0; k < classes.core; k++) {
    const isRoot = k < roots;
    const letter = isRoot ? k : rng.int(roots);
    const [l, title] = HCPCS_LETTERS[letter]!;
    const name = isRoot ? `${l} Codes - ${title}` : `${capitalizeFirst(rng.chance(0.5) ? L.PROCEDURE_HEADS[rng.int(L.PROCEDURE_HEADS.length)]! : L.DEVICE_NOUNS[rng.int(L.DEVICE_NOUNS.length)]!)}${rng.chance(0.5) ? ` and ${L.DEVICE_NOUNS[rng.int(L.DEVICE_NOUNS.length)]}` : ''} (${l} codes)`;
    const i = ctx.add(vocab, { cls: 'HCPCS Class', domain: 'Observation', std: 'C', code: `${l}${isRoot ? '' : `-${++classNo}`}`, name, start: 19700101 });
    if (isRoot) rootIdx.push(i);
    else {
      ctx.link(i, rootIdx[letter]!, 'Is a');
      const l2 = subsOf.get(letter) ?? [];
      l2.push(i);
      subsOf.set(letter, l2);
    }
  }
  const codes = ctx.classPlan(vocab, 'HCPCS');
  const counters = new Map<string, number>();
  const nextCode = (letter: string): string => {
    const n = (counters.get(letter) ?? 0) + 1 + (rng.chance(0.3) ? rng.int(5) : 0);
    counters.set(letter, n);
    return `${letter}${String(n % 10000).padStart(4, '0')}`;
  };
  const make = (inv: 'D' | null): number => {
    let letter = letterSampler.sample(rng);
    if (letter >= roots) letter = rng.int(roots);
    const [l, , , kind] = HCPCS_LETTERS[letter]!;
    let name: string;
    let domain: string;
    let drugTarget = -1;
    if (kind === 'drug') {
      const rank = relativeZipf(rng, u.names.length, 0.01);
      name = `Injection, ${u.names[rank]}, ${rng.pick(['1 mg', '5 mg', '10 mg', '50 mg', '100 mg', '0.1 mg', '1 unit', '100 units', '1 mcg', '500 mg'])}`;
      domain = 'Drug';
      drugTarget = rng.chance(0.5) || cds.empty ? u.indexByRank[rank]! : cds.popular(rng, 0.01);
    } else if (kind === 'device') {
      name = devicePhrase(rng);
      domain = 'Device';
    } else if (kind === 'measurement') {
      name = `${procedurePhrase(rng)}, laboratory analysis`;
      domain = 'Measurement';
    } else {
      name = procedurePhrase(rng);
      domain = kind === 'observation' || rng.chance(0.12) ? 'Observation' : 'Procedure';
    }
    const i = ctx.add(vocab, { cls: 'HCPCS', domain, std: kind === 'drug' ? null : 'S', invalid: inv, code: nextCode(l), name, start: ctx.startDate(0.6) });
    const subs = subsOf.get(letter);
    ctx.link(i, subs && subs.length && rng.chance(0.8) ? subs[relativeZipf(rng, subs.length, 0.05)]! : rootIdx[letter]!, 'Is a');
    if (drugTarget >= 0 && !inv) ctx.link(i, drugTarget, 'Maps to');
    return i;
  };
  for (let k = 0; k < codes.core; k++) make(null);
  for (let k = 0; k < codes.deprecated + codes.updated; k++) make('D');

  const mods = ctx.classPlan(vocab, 'HCPCS Modifier');
  const seen = new Set<string>();
  const chars = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
  for (let k = 0; k < mods.total; k++) {
    let code = `${chars[rng.int(24)]}${chars[rng.int(chars.length)]}`;
    while (seen.has(code)) code = `${chars[rng.int(24)]}${chars[rng.int(chars.length)]}`;
    seen.add(code);
    const name = `${capitalizeFirst(L.QUALIFIERS[relativeZipf(rng, L.QUALIFIERS.length, 0.05)]!)} ${rng.pick(['service', 'procedure', 'side', 'provider', 'visit', 'supply', 'item', 'claim', 'encounter'])}${rng.chance(0.4) ? ` ${rng.pick(['by physician', 'in rural area', 'during global period', 'for the same patient', 'not separately payable'])}` : ''}`;
    ctx.add(vocab, { cls: 'HCPCS Modifier', domain: 'Observation', std: null, invalid: k >= mods.core ? 'D' : null, code, name, start: 19700101 });
  }
}

// ------------------------------------------------------------------------------------------------

const CPT_SECTIONS = [
  'Evaluation and Management Services', 'Anesthesia Services', 'Surgical Procedures', 'Radiology Procedures',
  'Pathology and Laboratory Procedures', 'Medicine Services and Procedures', 'Category II Codes', 'Category III Codes',
  'Multianalyte Assays with Algorithmic Analyses', 'Proprietary Laboratory Analyses',
];

export function buildCpt4(ctx: GenContext): void {
  const vocab = 'CPT4';
  const rng = ctx.rng(vocab);
  let mdr = 1_000_000;
  const hcode = (): string => String((mdr += 1 + rng.int(50)));
  const hp = ctx.classPlan(vocab, 'CPT4 Hierarchy');
  const model: NameModel = {
    top(r, level, k) {
      if (level === 0) return { name: CPT_SECTIONS[k % CPT_SECTIONS.length]! + (k >= CPT_SECTIONS.length ? ` ${Math.floor(k / CPT_SECTIONS.length) + 1}` : ''), site: -1, head: k % CPT_SECTIONS.length };
      const s = L.BODY_SITES[r.int(L.BODY_SITES.length)]!;
      return { name: `Procedures on the ${s}`, site: -1, head: -1 };
    },
    child(r, p) {
      const head = L.PROCEDURE_HEADS[relativeZipf(r, L.PROCEDURE_HEADS.length, 0.02)]!;
      const s = L.BODY_SITES[relativeZipf(r, L.BODY_SITES.length, 0.01)]!;
      return { name: `${capitalizeFirst(head)} Procedures on the ${s}${p.name.length < 40 && r.chance(0.3) ? ` (${lowerFirst(p.name)})` : ''}`, site: -1, head: p.head };
    },
  };
  const hier = buildTreeClass(ctx, {
    vocab, cls: 'CPT4 Hierarchy', count: hp.core, std: 'C', model, code: hcode,
    levelWeights: [0.015, 0.1, 0.4, 0.485], roots: Math.min(hp.core, CPT_SECTIONS.length), attach: 0.05, domainOf: () => 'Procedure',
  });
  const hierPool = ctx.setPool('CPT4/CPT4 Hierarchy', hier);
  ctx.addRetired(vocab, 'CPT4 Hierarchy', () => 'Procedure', hp.deprecated, hp.updated, hierPool, hcode, (_r, n) => n);

  const cp = ctx.classPlan(vocab, 'CPT4');
  let num = 10_000;
  let cat = 0;
  const seen = new Set<string>();
  const code = (): string => {
    const r = rng.float();
    let c: string;
    if (r < 0.88) c = String((num += 1 + rng.int(6)) % 100000).padStart(5, '0');
    else c = `${String((cat += 1 + rng.int(3)) % 10000).padStart(4, '0')}${r < 0.93 ? 'F' : r < 0.97 ? 'T' : 'U'}`;
    while (seen.has(c)) c = `${String(rng.int(10000)).padStart(4, '0')}${rng.pick(['F', 'T', 'U', 'M'])}`;
    seen.add(c);
    return c;
  };
  const start = ctx.next;
  for (let k = 0; k < cp.core; k++) {
    const lab = rng.chance(0.12);
    let name = lab
      ? `${rng.pick(L.LOINC_COMPONENTS)}; ${rng.pick(['quantitative', 'qualitative', 'screen', 'each specimen', 'blood', 'urine', 'serum'])}`
      : `${procedurePhrase(rng)}${rng.chance(0.45) ? `; ${rng.pick(['each additional', 'first', 'with', 'without', 'including'])} ${rng.pick(L.PROCEDURE_HEADS)}` : ''}`;
    if (rng.chance(0.25)) name += ` (eg, ${lowerFirst(rng.pick(L.PROCEDURE_HEADS))}, ${lowerFirst(rng.pick(L.PROCEDURE_HEADS))})`;
    if (rng.chance(0.12)) name += ` (List separately in addition to code for primary procedure)`;
    const i = ctx.add(vocab, { cls: 'CPT4', domain: lab ? 'Measurement' : rng.chance(0.07) ? 'Observation' : 'Procedure', std: 'S', code: code(), name, start: ctx.startDate(0.5) });
    if (!hierPool.empty) ctx.link(i, hierPool.popular(rng, 0.02), 'Is a');
  }
  const pool = ctx.setPool('CPT4/CPT4', { start, end: ctx.next });
  ctx.addRetired(vocab, 'CPT4', (t) => ctx.domainName(t), cp.deprecated, cp.updated, pool, code, (_r, n) => n);

  const mp = ctx.classPlan(vocab, 'CPT4 Modifier');
  const modSeen = new Set<string>();
  for (let k = 0; k < mp.total; k++) {
    let c = String(rng.range(20, 99));
    while (modSeen.has(c)) c = `${String.fromCharCode(65 + rng.int(26))}${rng.int(10)}${rng.chance(0.5) ? rng.int(10) : ''}`;
    modSeen.add(c);
    ctx.add(vocab, { cls: 'CPT4 Modifier', domain: 'Observation', std: null, invalid: k >= mp.core ? 'D' : null, code: c, name: `${capitalizeFirst(L.QUALIFIERS[rng.int(L.QUALIFIERS.length)]!)} ${rng.pick(['procedural service', 'services', 'procedure', 'surgical team', 'anesthesia', 'professional component'])}${rng.chance(0.3) ? ` ${capitalize(pseudoWord(rng, 1, 2))}` : ''}`, start: 19700101 });
  }
}
