/**
 * Source classifications mapped to SNOMED (ICDO3 standard; ICD10, ICD10CM and Read non-standard, hierarchical by
 * code, `Maps to` SNOMED), each concept named by rewording its SNOMED target the way the classification words
 * things ("NOS", "[X]", "unspecified"), so source and target names are similar, not equal.
 */
import { icdCode, readChar, readCode } from './codes.js';
import { capitalizeFirst, type GenContext, lowerFirst, type Pool } from './context.js';
import * as L from './lexicon.js';
import { scatter } from './hierarchy.js';
import { apportion, relativeZipf, type Rng } from './random.js';
import { pseudoWord } from './words.js';

/**
 * Children per parent when each parent can hold at most `cap` children: every parent gets one while
 * children last (if `cover`), the rest go popular-first among parents with room.
 */
export function distributeChildren(rng: Rng, children: number, parents: number, cap: number, cover: boolean, attach = 0.05): Int32Array {
  const counts = new Int32Array(parents);
  if (parents === 0) return counts;
  let left = children;
  if (cover) {
    for (let p = 0; p < parents && left > 0; p++) {
      counts[p] = 1;
      left--;
    }
  }
  let guard = 0;
  const perm = scatter(parents, rng);
  while (left > 0) {
    let p = perm(relativeZipf(rng, parents, attach));
    if (counts[p]! >= cap) {
      // linear probe for a parent with room
      let q = p;
      do q = (q + 1) % parents;
      while (counts[q]! >= cap && q !== p);
      if (counts[q]! >= cap) throw new Error('distributeChildren: no capacity left');
      p = q;
    }
    counts[p]!++;
    left--;
    if (++guard > children * 4 + 1000) throw new Error('distributeChildren: stuck');
  }
  return counts;
}

const SUFFIX_CHARS = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** A code from `gen` not yet in `seen` (then `fallback`, which must eventually produce a new one). */
export function uniqueCode(seen: Set<string>, gen: () => string, fallback: () => string = gen): string {
  let c = gen();
  for (let k = 0; seen.has(c); k++) c = k < 4 ? gen() : fallback();
  seen.add(c);
  return c;
}
const SEVENTH = 'ADSBCGHJKMNPQR';

function neighbour(rng: Rng, pool: Pool, around: number, spread: number): number {
  // a concept near `around` in the pool, i.e. in the same SNOMED subtree most of the time
  for (let tries = 0; tries < 4; tries++) {
    const k = around + rng.range(-spread, spread);
    if (k >= 0 && k < pool.size) return pool.at(k);
  }
  return pool.uniform(rng);
}

function poolPosition(pool: Pool, index: number, rng: Rng): number {
  // pools here are single ranges; fall back to a random position otherwise
  const first = pool.at(0);
  const k = index - first;
  return k >= 0 && k < pool.size ? k : rng.int(pool.size);
}

const ICD_LEAF_SUFFIXES = [', unspecified', ', initial encounter', ', subsequent encounter', ', sequela', ', left', ', right', ', bilateral', ' without complication', ' with complication', ', not elsewhere classified', ', in remission', ', uncomplicated', ', recurrent', ', initial encounter for closed fracture', ', unspecified side', ', first trimester', ', unspecified trimester'];

function icdWording(rng: Rng, target: string, leaf: boolean): string {
  let s = capitalizeFirst(target);
  const r = rng.float();
  if (r < 0.12) s = `Other ${lowerFirst(s)}`;
  else if (r < 0.2) s = `Other specified ${lowerFirst(s)}`;
  if (leaf && rng.chance(0.55)) s += rng.pick(ICD_LEAF_SUFFIXES);
  return s;
}

// ------------------------------------------------------------------------------------------------

export function buildIcdo3(ctx: GenContext): void {
  const rng = ctx.rng('ICDO3');
  const findings = ctx.pool('SNOMED/Clinical Finding');
  const bodies = ctx.pool('SNOMED/Body Structure');
  const topo = ctx.classPlan('ICDO3', 'ICDO Topography');
  const hist = ctx.classPlan('ICDO3', 'ICDO Histology');
  const cond = ctx.classPlan('ICDO3', 'ICDO Condition');
  const topoStart = ctx.next;
  let topoNo = 0;
  for (let k = 0; k < topo.core; k++) {
    const cat = Math.floor(topoNo / 10);
    const sub = topoNo % 10;
    topoNo += 1 + (rng.chance(0.2) ? 1 : 0);
    const site = L.BODY_SITES[k % L.BODY_SITES.length]!;
    const i = ctx.add('ICDO3', { cls: 'ICDO Topography', domain: 'Spec Anatomic Site', std: null, code: `C${String(cat % 100).padStart(2, '0')}.${sub}`, name: sub === 9 ? `${capitalizeFirst(site)}, NOS` : `${capitalizeFirst(rng.pick(['upper', 'lower', 'overlapping lesion of', 'central portion of', 'border of', 'base of', 'body of']))} ${site}`, start: 19700101 });
    if (!bodies.empty) ctx.link(i, bodies.uniform(rng), 'Maps to');
  }
  const topoPool = ctx.setPool('ICDO3/ICDO Topography', { start: topoStart, end: ctx.next });
  ctx.addRetired('ICDO3', 'ICDO Topography', () => 'Spec Anatomic Site', topo.deprecated, topo.updated, topoPool, () => `C${rng.range(81, 99)}.${rng.int(10)}`, (_r, n) => `${n} (old)`);

  const histStart = ctx.next;
  const behaviours = [3, 0, 1, 2, 6, 9];
  let morph = 8000;
  const heads = ['carcinoma', 'adenocarcinoma', 'neoplasm', 'sarcoma', 'lymphoma', 'melanoma', 'adenoma', 'glioma', 'leukemia', 'tumor', 'blastoma', 'papilloma', 'myeloma', 'mesothelioma', 'germinoma'];
  for (let k = 0; k < hist.core; k++) {
    const b = behaviours[k % behaviours.length]!;
    if (k % behaviours.length === 0) morph += 1 + (rng.chance(0.3) ? rng.int(4) : 0);
    const name = `${capitalizeFirst(rng.chance(0.5) ? L.QUALIFIERS[relativeZipf(rng, L.QUALIFIERS.length, 0.05)]! : pseudoWord(rng, 2, 3))} ${heads[relativeZipf(rng, heads.length, 0.1)]!}${rng.chance(0.3) ? ', NOS' : ''}`;
    ctx.add('ICDO3', { cls: 'ICDO Histology', domain: 'Observation', std: null, code: `${morph % 10000}/${b}`, name, start: 19700101 });
  }
  const histPool = ctx.setPool('ICDO3/ICDO Histology', { start: histStart, end: ctx.next });
  ctx.addRetired('ICDO3', 'ICDO Histology', () => 'Observation', hist.deprecated, hist.updated, histPool, () => `${rng.range(8000, 9999)}/${rng.pick(behaviours)}`, (_r, n) => n);

  const condStart = ctx.next;
  const seen = new Set<string>();
  for (let k = 0; k < cond.core; k++) {
    let h = histPool.uniform(rng);
    let tp = topoPool.uniform(rng);
    let key = `${ctx.table.code(h)}-${ctx.table.code(tp)}`;
    for (let r = 0; r < 5 && seen.has(key); r++) {
      h = histPool.uniform(rng);
      tp = topoPool.uniform(rng);
      key = `${ctx.table.code(h)}-${ctx.table.code(tp)}`;
    }
    if (seen.has(key)) key = `${key}${seen.size}`;
    seen.add(key);
    const i = ctx.add('ICDO3', { cls: 'ICDO Condition', domain: 'Condition', std: 'S', code: key, name: `${ctx.table.name(h)} of ${lowerFirst(ctx.table.name(tp))}` });
    const p1 = findings.popular(rng, 0.02);
    ctx.link(i, p1, 'Is a');
    if (rng.chance(0.35)) {
      const p2 = neighbour(rng, findings, poolPosition(findings, p1, rng), 30);
      if (p2 !== p1) ctx.link(i, p2, 'Is a');
    }
    ctx.link(i, h, 'Has Histology ICDO');
    ctx.link(i, tp, 'Has Topography ICDO');
  }
  const condPool = ctx.setPool('ICDO3/ICDO Condition', { start: condStart, end: ctx.next });
  ctx.addRetired('ICDO3', 'ICDO Condition', () => 'Condition', cond.deprecated, cond.updated, condPool, () => `${rng.range(8000, 9999)}/${rng.pick(behaviours)}-C${rng.range(0, 80)}.${rng.int(10)}`, (_r, n) => `${n}, NOS`);
}

// ------------------------------------------------------------------------------------------------

interface IcdLevel {
  internalCls: Parameters<GenContext['classPlan']>[1] | null;
  leafCls: Parameters<GenContext['classPlan']>[1] | null;
}

const ICD10CM_LEVELS: IcdLevel[] = [
  { internalCls: '3-char nonbill code', leafCls: '3-char billing code' },
  { internalCls: '4-char nonbill code', leafCls: '4-char billing code' },
  { internalCls: '5-char nonbill code', leafCls: '5-char billing code' },
  { internalCls: '6-char nonbill code', leafCls: '6-char billing code' },
  { internalCls: null, leafCls: '7-char billing code' },
];

const ICD_LETTERS = 'ABCDEFGHIJKLMNOPQRSTVWXYZ';

/**
 * ICD10CM: categories → subcategories → codes down to 7 characters; non-billable headers have
 * children, billable codes are leaves. Each code `Maps to` a SNOMED finding near its parent's target;
 * history codes map to a context concept plus `Maps to value`.
 */
export function buildIcd10cm(ctx: GenContext): void {
  const vocab = 'ICD10CM';
  const rng = ctx.rng(vocab);
  const findings = ctx.pool('SNOMED/Clinical Finding');
  const contexts = ctx.pool('SNOMED/Context-dependent');
  const internal = ICD10CM_LEVELS.map((l) => (l.internalCls ? ctx.classPlan(vocab, l.internalCls).core : 0));
  const leaves = ICD10CM_LEVELS.map((l) => (l.leafCls ? ctx.classPlan(vocab, l.leafCls).core : 0));
  // a level cannot have more internal nodes than the level below has nodes
  for (let lv = 0; lv < internal.length; lv++) {
    const below = lv + 1 < internal.length ? internal[lv + 1]! + leaves[lv + 1]! : 0;
    if (internal[lv]! > below) {
      leaves[lv]! += internal[lv]! - below;
      internal[lv] = below;
    }
  }
  const seen = new Set<string>();
  let prevLevel: number[] = []; // internal nodes of the previous level
  const internalOf = new Set<number>();
  for (let lv = 0; lv < ICD10CM_LEVELS.length; lv++) {
    const n = internal[lv]! + leaves[lv]!;
    const cap = lv === 4 ? SEVENTH.length : SUFFIX_CHARS.length;
    // tiny outputs: children beyond what the parents' code space holds become categories of their own
    const placed = lv === 0 ? n : Math.min(n, prevLevel.length * cap);
    const counts = lv === 0 ? null : distributeChildren(rng, placed, prevLevel.length, cap, true);
    const cur: number[] = [];
    let made = 0;
    const emit = (parent: number, childNo: number): void => {
      const isInternal = made < internal[lv]!;
      made++;
      let code: string;
      if (parent < 0) {
        const letter = ICD_LETTERS[Math.min(ICD_LETTERS.length - 1, Math.floor((childNo * ICD_LETTERS.length) / Math.max(1, n)))]!;
        const perLetter = Math.max(1, Math.ceil(n / ICD_LETTERS.length));
        const step = Math.max(1, Math.floor(100 / perLetter));
        const c = childNo - Math.ceil((ICD_LETTERS.indexOf(letter) * n) / ICD_LETTERS.length);
        code = `${letter}${String(Math.min(99, Math.max(0, c * step))).padStart(2, '0')}`;
        while (seen.has(code)) code = `${letter}${rng.int(10)}${String.fromCharCode(65 + rng.int(26))}`;
      } else {
        const pc = ctx.table.code(parent);
        const ch = lv === 4 ? SEVENTH[childNo]! : SUFFIX_CHARS[childNo]!;
        code = lv === 1 ? icdCode(pc, ch) : `${pc}${ch}`;
      }
      seen.add(code);
      // target: near the parent's target (same SNOMED subtree), fresh for categories
      const parentTarget = parent >= 0 ? ctx.table.p1[parent]! : -1;
      const target = parentTarget >= 0 ? neighbour(rng, findings, poolPosition(findings, parentTarget, rng), 12) : findings.uniform(rng);
      const history = !isInternal && lv > 0 && rng.chance(0.06) && !contexts.empty;
      const base = parent >= 0 && rng.chance(0.35) ? `${ctx.table.name(parent).replace(/, unspecified$/, '')}${rng.pick(L.COMPLICATIONS).replace(/^with/, ' with')}` : ctx.table.name(target);
      let name = history ? `${rng.pick(['Family history of', 'Personal history of'])} ${lowerFirst(ctx.table.name(target))}` : icdWording(rng, base, !isInternal);
      if (name.length > 220) name = name.slice(0, 220);
      const cls = isInternal ? ICD10CM_LEVELS[lv]!.internalCls! : ICD10CM_LEVELS[lv]!.leafCls!;
      const standard = !isInternal && !history && rng.chance(0.015);
      const i = ctx.add(vocab, { cls, domain: history ? 'Observation' : ctx.domainName(target), std: standard ? 'S' : null, code, name, p1: target, start: ctx.startDate(0.5) });
      if (parent >= 0) ctx.link(i, parent, 'Is a');
      if (history) {
        ctx.link(i, contexts.uniform(rng), 'Maps to');
        ctx.link(i, target, 'Maps to value');
      } else if (!standard) {
        ctx.link(i, target, 'Maps to');
        if (rng.chance(0.15)) {
          const second = neighbour(rng, findings, poolPosition(findings, target, rng), 8);
          if (second !== target) ctx.link(i, second, 'Maps to');
        }
      }
      if (isInternal) {
        cur.push(i);
        internalOf.add(i);
      }
    };
    if (lv === 0) for (let k = 0; k < n; k++) emit(-1, k);
    else {
      for (let p = 0; p < prevLevel.length; p++) for (let c = 0; c < counts![p]!; c++) emit(prevLevel[p]!, c);
      for (let k = placed; k < n; k++) emit(-1, k);
    }
    prevLevel = cur;
  }
  // deprecated codes: former billable codes, mapped nowhere
  for (const cls of ICD10CM_LEVELS.flatMap((l) => [l.internalCls, l.leafCls]).filter((c): c is NonNullable<typeof c> => c !== null)) {
    const p = ctx.classPlan(vocab, cls);
    for (let k = 0; k < p.deprecated + p.updated; k++) {
      const t = findings.uniform(rng);
      const code = uniqueCode(seen, () => `${ICD_LETTERS[rng.int(ICD_LETTERS.length)]}${rng.range(0, 99).toString().padStart(2, '0')}.${SUFFIX_CHARS[rng.int(10)]}${SUFFIX_CHARS[rng.int(SUFFIX_CHARS.length)]}${rng.chance(0.5) ? SUFFIX_CHARS[rng.int(SUFFIX_CHARS.length)] : ''}`);
      ctx.add(vocab, { cls, domain: ctx.domainName(t), std: null, invalid: 'D', code, name: icdWording(rng, ctx.table.name(t), true) });
    }
  }
}

// ------------------------------------------------------------------------------------------------

const ICD10_CHAPTERS = [
  'Certain infectious and parasitic diseases', 'Neoplasms', 'Diseases of the blood and blood-forming organs and certain disorders involving the immune mechanism',
  'Endocrine, nutritional and metabolic diseases', 'Mental and behavioural disorders', 'Diseases of the nervous system', 'Diseases of the eye and adnexa',
  'Diseases of the ear and mastoid process', 'Diseases of the circulatory system', 'Diseases of the respiratory system', 'Diseases of the digestive system',
  'Diseases of the skin and subcutaneous tissue', 'Diseases of the musculoskeletal system and connective tissue', 'Diseases of the genitourinary system',
  'Pregnancy, childbirth and the puerperium', 'Certain conditions originating in the perinatal period', 'Congenital malformations, deformations and chromosomal abnormalities',
  'Symptoms, signs and abnormal clinical and laboratory findings, not elsewhere classified', 'Injury, poisoning and certain other consequences of external causes',
  'External causes of morbidity and mortality', 'Factors influencing health status and contact with health services', 'Codes for special purposes',
];
const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII', 'XIII', 'XIV', 'XV', 'XVI', 'XVII', 'XVIII', 'XIX', 'XX', 'XXI', 'XXII'];

export function buildIcd10(ctx: GenContext): void {
  const vocab = 'ICD10';
  const rng = ctx.rng(vocab);
  const findings = ctx.pool('SNOMED/Clinical Finding');
  const chapters = ctx.classPlan(vocab, 'ICD10 Chapter').core;
  const subs = ctx.classPlan(vocab, 'ICD10 SubChapter').core;
  const cats = ctx.classPlan(vocab, 'ICD10 Hierarchy').core;
  const codesPlan = ctx.classPlan(vocab, 'ICD10 code');
  const chapterIdx: number[] = [];
  for (let k = 0; k < chapters; k++) {
    chapterIdx.push(ctx.add(vocab, { cls: 'ICD10 Chapter', domain: 'Condition', std: null, code: ROMAN[k % 22]! + (k >= 22 ? `.${Math.floor(k / 22)}` : ''), name: ICD10_CHAPTERS[k % 22]!, start: 19700101 }));
  }
  const subCounts = distributeChildren(rng, subs, chapterIdx.length, 1000, true);
  const subIdx: number[] = [];
  const subSeen = new Set<string>();
  let letterNo = 0;
  chapterIdx.forEach((ch, c) => {
    for (let k = 0; k < subCounts[c]!; k++) {
      const letter = ICD_LETTERS[Math.floor((letterNo * ICD_LETTERS.length) / Math.max(1, subs))]!;
      const from = (letterNo * 7) % 90;
      letterNo++;
      const t = findings.uniform(rng);
      const subCode = uniqueCode(subSeen, () => `${letter}${String(from).padStart(2, '0')}-${letter}${String(from + 6).padStart(2, '0')}`, () => `${letter}${String(rng.int(93)).padStart(2, '0')}-${letter}${rng.range(93, 99)}`);
      const i = ctx.add(vocab, { cls: 'ICD10 SubChapter', domain: 'Condition', std: null, code: subCode, name: `${capitalizeFirst(L.CONDITION_HEADS[relativeZipf(rng, L.CONDITION_HEADS.length, 0.05)]!)}s of ${L.BODY_SITES[rng.int(120)]}`, p1: t, start: 19700101 });
      ctx.link(i, ch, 'Is a');
      subIdx.push(i);
    }
  });
  // 3-character categories: the first `cats` are headers with 4-character codes below, the rest are codes themselves
  let leafCats = Math.round(codesPlan.core * 0.1);
  let fourChar = codesPlan.core - leafCats;
  if (fourChar > cats * 10) {
    // tiny outputs: a category holds at most ten 4-character codes
    leafCats += fourChar - cats * 10;
    fourChar = cats * 10;
  }
  const catCounts = distributeChildren(rng, cats + leafCats, subIdx.length, Math.max(100, Math.ceil((cats + leafCats) / Math.max(1, subIdx.length))), true);
  const seen = new Set<string>();
  const headers: number[] = [];
  let made = 0;
  subIdx.forEach((sub, s) => {
    const subCode = ctx.table.code(sub);
    for (let k = 0; k < catCounts[s]!; k++) {
      const isHeader = made < cats;
      made++;
      let code = `${subCode[0]}${String((Number(subCode.slice(1, 3)) + k) % 100).padStart(2, '0')}`;
      while (seen.has(code)) code = `${ICD_LETTERS[rng.int(ICD_LETTERS.length)]}${rng.int(10)}${SUFFIX_CHARS[rng.int(SUFFIX_CHARS.length)]}`;
      seen.add(code);
      const t = neighbour(rng, findings, poolPosition(findings, ctx.table.p1[sub]!, rng), 200);
      const i = ctx.add(vocab, { cls: isHeader ? 'ICD10 Hierarchy' : 'ICD10 code', domain: ctx.domainName(t), std: null, code, name: icdWording(rng, ctx.table.name(t), !isHeader), p1: t, start: 19700101 });
      ctx.link(i, sub, 'Is a');
      if (!isHeader) ctx.link(i, t, 'Maps to');
      else headers.push(i);
    }
  });
  const codeCounts = distributeChildren(rng, fourChar, headers.length, 10, true);
  headers.forEach((h, k) => {
    for (let c = 0; c < codeCounts[k]!; c++) {
      const t = neighbour(rng, findings, poolPosition(findings, ctx.table.p1[h]!, rng), 12);
      const i = ctx.add(vocab, { cls: 'ICD10 code', domain: ctx.domainName(t), std: null, code: icdCode(ctx.table.code(h), String(c)), name: icdWording(rng, ctx.table.name(t), true), p1: t, start: 19700101 });
      ctx.link(i, h, 'Is a');
      ctx.link(i, t, 'Maps to');
    }
  });
  for (let k = 0; k < codesPlan.deprecated + codesPlan.updated; k++) {
    const t = findings.uniform(rng);
    const code = uniqueCode(seen, () => `U${rng.range(50, 99)}.${rng.int(10)}${rng.int(10)}`);
    ctx.add(vocab, { cls: 'ICD10 code', domain: ctx.domainName(t), std: null, invalid: 'D', code, name: icdWording(rng, ctx.table.name(t), true) });
  }
}

// ------------------------------------------------------------------------------------------------

const READ_LEVEL_WEIGHTS = [0.0006, 0.01, 0.08, 0.33, 0.58];

function readWording(rng: Rng, name: string): string {
  let s = name.replace(/ and /g, ' & ').replace(/, unspecified/g, ' NOS').replace(/unspecified/g, 'unsp');
  const r = rng.float();
  if (r < 0.06) s = `[X]${s}`;
  else if (r < 0.09) s = `[D]${s}`;
  else if (r < 0.12) s = `[V]${s}`;
  if (rng.chance(0.14)) s += ' NOS';
  if (s.length > 60) {
    const cut = s.lastIndexOf(' ', 60);
    s = s.slice(0, cut > 20 ? cut : 60);
  }
  return s;
}

/** Read v2: code paths one character per level (`G`, `G3`, `G30`, `G301`, `G3011`), mapped to SNOMED. */
export function buildRead(ctx: GenContext): void {
  const vocab = 'Read';
  const rng = ctx.rng(vocab);
  const plan = ctx.classPlan(vocab, 'Read');
  const targets: Array<[Pool, number]> = [
    [ctx.pool('SNOMED/Clinical Finding'), 0.6], [ctx.pool('SNOMED/Procedure'), 0.22], [ctx.pool('SNOMED/Observable Entity'), 0.06],
    [ctx.pool('SNOMED/Context-dependent'), 0.08], [ctx.pool('SNOMED/Body Structure'), 0.04],
  ];
  const pickPool = (): Pool => {
    let x = rng.float();
    for (const [p, w] of targets) {
      if (x < w && !p.empty) return p;
      x -= w;
    }
    return targets[0]![0];
  };
  const total = plan.core;
  const roots = Math.min(total, 62, Math.max(1, Math.round(total * READ_LEVEL_WEIGHTS[0]!)));
  const rest = total - roots;
  const w = READ_LEVEL_WEIGHTS.slice(1);
  const usable = Math.min(w.length, rest);
  const sizes = [roots, ...(usable > 0 ? apportion(rest, w.slice(0, usable), w.slice(0, usable).map(() => 1)) : [])];
  // a Read code has one character per level: at most 62 children per parent
  for (let lv = 1; lv < sizes.length; lv++) {
    const cap = sizes[lv - 1]! * 62;
    if (sizes[lv]! > cap) {
      const excess = sizes[lv]! - cap;
      sizes[lv] = cap;
      if (lv + 1 < sizes.length) sizes[lv + 1]! += excess;
      else sizes[0]! += excess; // cannot happen with the level weights above; keeps the total exact
    }
  }
  let prev: number[] = [];
  const pools = new Map<number, Pool>();
  for (let lv = 0; lv < sizes.length; lv++) {
    const n = sizes[lv]!;
    if (n === 0) break;
    const cur: number[] = [];
    const make = (parent: number, childNo: number): void => {
      const path = parent >= 0 ? `${ctx.table.code(parent).slice(0, 5).replace(/\./g, '')}${readChar(childNo)}` : readChar(childNo + 10);
      let pool: Pool;
      let target: number;
      if (parent >= 0 && pools.has(parent) && rng.chance(0.85)) {
        pool = pools.get(parent)!;
        target = neighbour(rng, pool, poolPosition(pool, ctx.table.p1[parent]!, rng), 15);
      } else {
        pool = pickPool();
        target = pool.uniform(rng);
      }
      const i = ctx.add(vocab, { cls: 'Read', domain: ctx.domainName(target), std: null, code: readCode(path, rng.chance(0.9) ? '00' : rng.pick(['11', '12', '13'])), name: readWording(rng, ctx.table.name(target)), p1: target, start: 19700101 });
      pools.set(i, pool);
      if (parent >= 0) ctx.link(i, parent, 'Is a');
      ctx.link(i, target, 'Maps to');
      cur.push(i);
    };
    if (lv === 0) for (let k = 0; k < n; k++) make(-1, k);
    else {
      const counts = distributeChildren(rng, n, prev.length, 62, false, 0.02);
      for (let p = 0; p < prev.length; p++) for (let c = 0; c < counts[p]!; c++) make(prev[p]!, c);
    }
    prev = cur;
  }
  const seen = new Set<string>();
  for (let k = 0; k < plan.deprecated + plan.updated; k++) {
    const t = targets[0]![0].uniform(rng);
    const code = uniqueCode(seen, () => readCode(`${readChar(rng.int(62))}${readChar(rng.int(62))}${readChar(rng.int(62))}${readChar(rng.int(62))}`, String(20 + rng.int(79))));
    ctx.add(vocab, { cls: 'Read', domain: ctx.domainName(t), std: null, invalid: 'D', code, name: readWording(rng, ctx.table.name(t)) });
  }
}
