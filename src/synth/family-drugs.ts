/**
 * Drugs: ATC classes, RxNorm and RxNorm Extension built as one drug universe following the RxNorm product graph
 * (ingredient, clinical and branded drugs and forms, quantified, boxed and marketed products), with ingredients
 * and bases picked popular-first; the model is drawn in docs/internals.md.
 */
import type { GenContext } from './context.js';
import * as L from './lexicon.js';
import { classIndex, type CoreClassId } from './metadata.js';
import { relativeZipf, type Rng, ZipfSampler } from './random.js';
import { brandName, companyName, ingredientNames } from './words.js';

export interface DrugUniverse {
  /** Ingredient names by popularity rank (RxNorm's first, then RxNorm Extension's). */
  names: string[];
  rxnormCount: number;
  /** Concept index of the ingredient with each rank (-1 before it exists). */
  indexByRank: Int32Array;
  /** ATC 5th classes of each ranked ingredient. */
  atcOfRank: Map<number, number[]>;
}

const zForm = new ZipfSampler(L.DOSE_FORMS.length, 1.15);
const zUnit = new ZipfSampler(L.STRENGTH_UNITS.length, 1.4);
const zQty = new ZipfSampler(L.QUANTITIES.length, 0.9);
const zBox = new ZipfSampler(L.BOX_SIZES.length, 1.0);

/** Popularity skew of ingredients (relative-rank Zipf). */
const INGREDIENT_EPS = 0.0015;

/**
 * Number of ingredients of a drug form: mostly 1, a long tail up to 25. `u` comes from a
 * low-discrepancy sequence over the creation order, so any run of forms — in particular the popular
 * first ones, which most products use — has the intended mix at every scale.
 */
function ingredientCount(rng: Rng, u: number): number {
  const r = u;
  if (r < 0.83) return 1;
  if (r < 0.93) return 2;
  if (r < 0.965) return 3;
  if (r < 0.982) return 4;
  if (r < 0.995) return rng.range(5, 8);
  return rng.range(9, 25);
}

export function formatNumber(v: number): string {
  return String(Number(v.toPrecision(6)));
}

export function strengthText(code: number): string {
  const unit = L.STRENGTH_UNITS[code >> 8]!;
  const values = L.STRENGTH_VALUES[unit]!;
  return `${formatNumber(values[code & 0xff]!)} ${unit}`;
}

export function strengthOf(code: number): { value: number; unit: string } {
  const unit = L.STRENGTH_UNITS[code >> 8]!;
  return { value: L.STRENGTH_VALUES[unit]![code & 0xff]!, unit };
}

function pickStrength(rng: Rng): number {
  const u = zUnit.sample(rng);
  const values = L.STRENGTH_VALUES[L.STRENGTH_UNITS[u]!]!;
  return (u << 8) | Math.min(values.length - 1, Math.floor(Math.pow(rng.float(), 1.3) * values.length));
}

export function prepareDrugUniverse(ctx: GenContext): DrugUniverse {
  const rx = ctx.classPlan('RxNorm', 'Ingredient').core;
  const rxe = ctx.classPlan('RxNorm Extension', 'Ingredient').core;
  const names = ingredientNames(ctx.rng('ingredient-names'), rx + rxe);
  const u: DrugUniverse = { names, rxnormCount: rx, indexByRank: new Int32Array(rx + rxe).fill(-1), atcOfRank: new Map() };
  ctx.shared.set('drugs', u);
  return u;
}

// ------------------------------------------------------------------------------------------------
// ATC

export function buildAtc(ctx: GenContext, u: DrugUniverse): void {
  const rng = ctx.rng('ATC');
  const levels: CoreClassId[] = ['ATC 1st', 'ATC 2nd', 'ATC 3rd', 'ATC 4th', 'ATC 5th'];
  const counts = levels.map((c) => ctx.classPlan('ATC', c).core);
  let prev: number[] = [];
  const childCount = new Map<number, number>();
  const zClass = new ZipfSampler(L.PHARMACOLOGIC_CLASSES.length, 0.6);
  const zSub = new ZipfSampler(L.PHARMACOLOGIC_SUBCLASSES.length, 0.6);
  const ranks = u.names.length;
  let nextRank = 0;
  for (let lv = 0; lv < 5; lv++) {
    const cur: number[] = [];
    const start = ctx.next;
    for (let k = 0; k < counts[lv]!; k++) {
      let parent = -1;
      let code: string;
      let name: string;
      if (lv === 0) {
        const [letter, title] = L.ATC_FIRST_LEVEL[k % L.ATC_FIRST_LEVEL.length]!;
        code = k < L.ATC_FIRST_LEVEL.length ? letter : `${letter}${k}`;
        name = title;
      } else {
        // the first children cover each parent once, the rest go popular-first
        parent = k < prev.length ? prev[k]! : prev[relativeZipf(rng, prev.length, 0.05)]!;
        const n = (childCount.get(parent) ?? 0) + 1;
        childCount.set(parent, n);
        const pc = ctx.table.code(parent);
        if (lv === 1 || lv === 4) code = `${pc}${String(n).padStart(2, '0')}`;
        else code = `${pc}${n <= 26 ? String.fromCharCode(64 + n) : `${String.fromCharCode(64 + ((n - 1) % 26) + 1)}${Math.floor((n - 1) / 26)}`}`;
        if (lv === 1 || lv === 2) name = L.PHARMACOLOGIC_CLASSES[zClass.sample(rng)]!;
        else if (lv === 3) name = L.PHARMACOLOGIC_SUBCLASSES[zSub.sample(rng)]!;
        else {
          // ATC 5th: named after the ingredient(s) it classifies
          const rank = nextRank < ranks ? nextRank++ : rng.int(ranks);
          const combo = rng.chance(0.08) && nextRank < ranks;
          const rank2 = combo ? nextRank++ : -1;
          name = combo ? `${u.names[rank]} and ${u.names[rank2]}` : u.names[rank]!;
          const i = ctx.add('ATC', { cls: 'ATC 5th', domain: 'Drug', std: 'C', code, name, start: 19700101 });
          ctx.link(i, parent, 'Is a');
          for (const r of combo ? [rank, rank2] : [rank]) {
            const list = u.atcOfRank.get(r) ?? [];
            list.push(i);
            u.atcOfRank.set(r, list);
          }
          // some popular ingredients sit in a second class
          if (rank < ranks / 20 && rng.chance(0.15)) {
            const other = rng.int(Math.max(1, nextRank));
            if (other !== rank) {
              const l2 = u.atcOfRank.get(other) ?? [];
              if (!l2.includes(i)) l2.push(i);
              u.atcOfRank.set(other, l2);
            }
          }
          cur.push(i);
          continue;
        }
      }
      const i = ctx.add('ATC', { cls: levels[lv]!, domain: 'Drug', std: 'C', code, name, start: 19700101 });
      if (parent >= 0) ctx.link(i, parent, 'Is a');
      cur.push(i);
    }
    ctx.setPool(`ATC/${levels[lv]}`, { start, end: ctx.next });
    if (lv === 4 && cur.length) {
      // ATC covers the ingredients that make up ~80 % of product draws, whatever the scale: at small
      // scales some 5th-level classes take several ingredients
      const eps = Math.max(INGREDIENT_EPS, 2 / ranks);
      const covered = Math.min(ranks, Math.ceil((eps * Math.pow((1 + eps) / eps, 0.8) - eps) * ranks));
      for (let r = nextRank; r < covered; r++) {
        const atc = cur[r % cur.length]!;
        const list = u.atcOfRank.get(r) ?? [];
        if (!list.includes(atc)) list.push(atc);
        u.atcOfRank.set(r, list);
      }
    }
    prev = cur;
  }
  const p5 = ctx.classPlan('ATC', 'ATC 5th');
  ctx.addRetired('ATC', 'ATC 5th', () => 'Drug', p5.deprecated, p5.updated, ctx.pool('ATC/ATC 5th'), () => `${ctx.table.code(ctx.pool('ATC/ATC 5th').uniform(rng))}${rng.range(10, 99)}`, (_r, n) => n);
}

// ------------------------------------------------------------------------------------------------
// RxNorm and RxNorm Extension

const DOSE_FORM_GROUPS = [
  'Oral Product', 'Pill', 'Injectable Product', 'Topical Product', 'Inhalant Product', 'Nasal Product', 'Ophthalmic Product',
  'Otic Product', 'Rectal Product', 'Vaginal Product', 'Transdermal Product', 'Oral Liquid Product', 'Mucosal Product',
  'Dental Product', 'Buccal Product', 'Sublingual Product', 'Urethral Product', 'Intrauterine Product', 'Irrigation Product',
  'Chewable Product', 'Disintegrating Oral Product', 'Extended Release Product', 'Delayed Release Product', 'Oral Cream Product',
  'Prefilled Syringe Product', 'Pen Injector Product', 'Auto-Injector Product', 'Cartridge Product', 'Implant Product',
  'Intrathecal Product', 'Intravenous Product', 'Intramuscular Product', 'Subcutaneous Product', 'Epidural Product',
  'Shampoo Product', 'Soap Product', 'Lozenge Product', 'Gum Product', 'Paste Product', 'Drops Product', 'Spray Product',
  'Foam Product', 'Gel Product', 'Powder Product', 'Film Product',
];

interface DrugState {
  u: DrugUniverse;
  forms: number[];
  brandsRx: number[];
  brandsRxe: number[];
  suppliers: number[];
  cdc: number[];
  cdf: number[];
  cd: number[];
  bdc: number[];
  bdf: number[];
  bd: number[];
  qcd: number[];
  qbd: number[];
  cdBox: number[];
  qcBox: number[];
  bdBox: number[];
  qbBox: number[];
  cdcByIng: Map<number, number[]>;
  bdcByKey: Map<number, number>;
  bdfByKey: Map<number, number>;
  brandsOfCdf: Map<number, number[]>;
  qcdByKey: Map<number, number>;
  qtyOfCd: Map<number, number[]>;
  cdBoxByKey: Map<number, number>;
  bdOfCd: Map<number, number[]>;
}

const K = 8_388_608; // 2^23: keys (a, b) → a * K + b stay below 2^53

function drugState(ctx: GenContext): DrugState {
  let s = ctx.shared.get('drug-state') as DrugState | undefined;
  if (!s) {
    s = {
      u: ctx.shared.get('drugs') as DrugUniverse,
      forms: [], brandsRx: [], brandsRxe: [], suppliers: [], cdc: [], cdf: [], cd: [], bdc: [], bdf: [], bd: [], qcd: [], qbd: [],
      cdBox: [], qcBox: [], bdBox: [], qbBox: [],
      cdcByIng: new Map(), bdcByKey: new Map(), bdfByKey: new Map(), brandsOfCdf: new Map(), qcdByKey: new Map(), qtyOfCd: new Map(),
      cdBoxByKey: new Map(), bdOfCd: new Map(),
    };
    ctx.shared.set('drug-state', s);
  }
  return s;
}

function push<K2>(m: Map<K2, number[]>, k: K2, v: number): void {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}

/** Drug concepts of RxNorm (`vocab = 'RxNorm'`) or RxNorm Extension. */
export function buildDrugVocabulary(ctx: GenContext, vocab: 'RxNorm' | 'RxNorm Extension'): void {
  const s = drugState(ctx);
  const u = s.u;
  const rx = vocab === 'RxNorm';
  const rng = ctx.rng(`${vocab}/products`);
  const t = ctx.table;
  let codeNo = rx ? 1000 : 0;
  const code = (): string => {
    codeNo += 1 + (rng.chance(0.4) ? rng.int(40) : 0);
    return rx ? String(codeNo) : `OMOP${4_700_000 + codeNo}`;
  };
  const plan = (cls: CoreClassId) => ctx.classPlan(vocab, cls);
  const start = (): number => ctx.startDate(rx ? 0.3 : 0.85);

  // ---- dose form groups, dose forms
  if (rx) {
    const g = plan('Dose Form Group');
    const gStart = ctx.next;
    for (let k = 0; k < g.core; k++) ctx.add(vocab, { cls: 'Dose Form Group', domain: 'Drug', std: 'C', code: code(), name: DOSE_FORM_GROUPS[k % DOSE_FORM_GROUPS.length]! + (k >= DOSE_FORM_GROUPS.length ? ` ${Math.floor(k / DOSE_FORM_GROUPS.length) + 1}` : ''), start: 19700101 });
    ctx.setPool('RxNorm/Dose Form Group', { start: gStart, end: ctx.next });
  }
  {
    const f = plan('Dose Form');
    const fStart = ctx.next;
    for (let k = 0; k < f.core; k++) {
      const base = L.DOSE_FORMS[k % L.DOSE_FORMS.length]!;
      const name = rx ? (k < L.DOSE_FORMS.length ? base : `${base} ${['Pack', 'Kit', 'Set', 'Bag'][Math.floor(k / L.DOSE_FORMS.length) % 4]}`) : `${base} ${['Unit Dose', 'Blister', 'Vial', 'Ampoule', 'Sachet'][k % 5]}`;
      const i = ctx.add(vocab, { cls: 'Dose Form', domain: 'Drug', std: null, code: code(), name, start: 19700101 });
      if (rx && ctx.hasPool('RxNorm/Dose Form Group')) {
        const groups = ctx.pool('RxNorm/Dose Form Group');
        if (!groups.empty) {
          const g1 = groups.at(k % groups.size);
          ctx.link(i, g1, 'Has dose form group');
          const g2 = groups.uniform(rng);
          if (g2 !== g1 && rng.chance(0.5)) ctx.link(i, g2, 'Has dose form group');
        }
      }
      if (rx) s.forms.push(i);
    }
    const pool = ctx.setPool(`${vocab}/Dose Form`, { start: fStart, end: ctx.next });
    ctx.addRetired(vocab, 'Dose Form', () => 'Drug', f.deprecated, f.updated, pool, code, (_r, n) => `${n} (old)`);
  }

  // ---- ingredients
  {
    const p = plan('Ingredient');
    const iStart = ctx.next;
    const first = rx ? 0 : u.rxnormCount;
    for (let k = 0; k < p.core; k++) {
      const rank = first + k;
      const i = ctx.add(vocab, { cls: 'Ingredient', domain: 'Drug', std: 'S', code: code(), name: u.names[rank]!, start: 19700101, p1: rank });
      u.indexByRank[rank] = i;
      for (const atc of u.atcOfRank.get(rank) ?? []) ctx.link(i, atc, 'RxNorm - ATC');
    }
    const pool = ctx.setPool(`${vocab}/Ingredient`, { start: iStart, end: ctx.next });
    ctx.addRetired(vocab, 'Ingredient', () => 'Drug', p.deprecated, p.updated, pool, code, (r, n) => (r.chance(0.5) ? `${n} ${r.pick(L.SUBSTANCE_SUFFIXES)}` : `${n} extract`));
  }
  const ingCount = rx ? u.rxnormCount : u.names.length;
  const pickIngredient = (r: Rng): number => {
    for (;;) {
      const i = u.indexByRank[relativeZipf(r, ingCount, INGREDIENT_EPS)]!;
      if (i >= 0) return i;
    }
  };

  // ---- names-only classes
  const brands = rx ? s.brandsRx : s.brandsRxe;
  {
    const p = plan('Brand Name');
    const seen = new Set<string>();
    const bStart = ctx.next;
    for (let k = 0; k < p.core; k++) {
      let name = brandName(rng, L.BRAND_SUFFIXES);
      while (seen.has(name)) name = brandName(rng, L.BRAND_SUFFIXES);
      seen.add(name);
      brands.push(ctx.add(vocab, { cls: 'Brand Name', domain: 'Drug', std: null, code: code(), name, start: start() }));
    }
    const pool = ctx.setPool(`${vocab}/Brand Name`, { start: bStart, end: ctx.next });
    ctx.addRetired(vocab, 'Brand Name', () => 'Drug', p.deprecated, p.updated, pool, code, (r, n) => `${n} ${r.pick(L.BRAND_SUFFIXES)}`);
  }
  if (!rx) {
    const p = plan('Supplier');
    const sStart = ctx.next;
    for (let k = 0; k < p.core; k++) s.suppliers.push(ctx.add(vocab, { cls: 'Supplier', domain: 'Drug', std: null, code: code(), name: companyName(rng, L.COMPANY_SUFFIXES), start: start() }));
    const pool = ctx.setPool(`${vocab}/Supplier`, { start: sStart, end: ctx.next });
    ctx.addRetired(vocab, 'Supplier', () => 'Drug', p.deprecated, p.updated, pool, code, (_r, n) => n.toUpperCase());
  } else {
    const p = plan('Precise Ingredient');
    const pStart = ctx.next;
    for (let k = 0; k < p.core; k++) {
      const ing = pickIngredient(rng);
      const i = ctx.add(vocab, { cls: 'Precise Ingredient', domain: 'Drug', std: null, code: code(), name: `${t.name(ing)} ${rng.pick(L.SUBSTANCE_SUFFIXES)}`, start: start() });
      ctx.link(i, ing, 'Precise ing of');
      ctx.link(i, ing, 'Maps to');
    }
    const pool = ctx.setPool('RxNorm/Precise Ingredient', { start: pStart, end: ctx.next });
    ctx.addRetired(vocab, 'Precise Ingredient', () => 'Drug', p.deprecated, p.updated, pool, code, (_r, n) => `${n} anhydrous`);
    const m = plan('Multiple Ingredients');
    const mStart = ctx.next;
    for (let k = 0; k < m.core; k++) {
      const a = pickIngredient(rng);
      let b = pickIngredient(rng);
      if (b === a) b = u.indexByRank[rng.int(u.rxnormCount)]!;
      if (b === a || b < 0) continue;
      const i = ctx.add(vocab, { cls: 'Multiple Ingredients', domain: 'Drug', std: null, code: code(), name: `${t.name(a)} / ${t.name(b)}`, start: start() });
      ctx.link(i, Math.min(a, b), 'Maps to');
      ctx.link(i, Math.max(a, b), 'Maps to');
    }
    const mpool = ctx.setPool('RxNorm/Multiple Ingredients', { start: mStart, end: ctx.next });
    ctx.addRetired(vocab, 'Multiple Ingredients', () => 'Drug', m.deprecated + (m.core - (ctx.next - mStart)), m.updated, mpool.empty ? pool : mpool, code, (_r, n) => n);
  }
  const forms = s.forms.length ? s.forms : [];
  const pickForm = (r: Rng): number => forms[Math.min(forms.length - 1, zForm.sample(r))]!;
  const pickBrand = (r: Rng): number => {
    if (!rx && s.brandsRx.length && r.chance(0.3)) return s.brandsRx[relativeZipf(r, s.brandsRx.length, 0.01)]!;
    return brands[relativeZipf(r, brands.length, 0.01)]!;
  };

  /** Runs `make` for the valid then the retired concepts of a product class. */
  const productClass = (cls: CoreClassId, list: number[], make: (r: Rng, invalid: 'D' | 'U' | null) => number): void => {
    const p = plan(cls);
    const cRng = ctx.rng(`${vocab}/${cls}`);
    const validBefore = list.length;
    for (let k = 0, made = 0; made < p.core && k < p.core * 4; k++) {
      const i = make(cRng, null);
      if (i >= 0) {
        list.push(i);
        made++;
      }
    }
    const valid = list.slice(validBefore);
    const missing = p.core - valid.length;
    for (let k = 0, made = 0; made < p.deprecated + p.updated + missing && k < (p.deprecated + p.updated + missing) * 4; k++) {
      const isU = made >= p.deprecated + missing;
      const i = make(cRng, isU ? 'U' : 'D');
      if (i < 0) continue;
      made++;
      if (isU && valid.length) {
        const target = valid[cRng.int(valid.length)]!;
        if (target < i) {
          ctx.link(i, target, 'Concept replaced by');
          ctx.link(i, target, 'Maps to');
        }
      }
    }
  };

  // ---- Clinical Drug Comp: ingredient + strength
  {
    const keys = new Set<number>();
    productClass('Clinical Drug Comp', s.cdc, (r, inv) => {
      const ing = pickIngredient(r);
      const str = pickStrength(r);
      const key = ing * 65536 + str;
      if (!inv && keys.has(key)) return -1;
      keys.add(key);
      const i = ctx.add(vocab, { cls: 'Clinical Drug Comp', domain: 'Drug', std: 'S', invalid: inv, code: code(), name: `${t.name(ing)} ${strengthText(str)}`, start: start(), p1: ing, p2: str });
      ctx.link(i, ing, 'RxNorm has ing');
      if (!inv) push(s.cdcByIng, ing, i);
      return i;
    });
  }

  // ---- Clinical Drug Form: ingredients + dose form
  {
    const keys = new Set<string>();
    let formNo = 0;
    productClass('Clinical Drug Form', s.cdf, (r, inv) => {
      const n = ingredientCount(r, inv ? r.float() : ((formNo + 1) * 0.6180339887498949) % 1);
      const ings = new Set<number>();
      for (let k = 0; k < n * 3 && ings.size < n; k++) ings.add(pickIngredient(r));
      const list = [...ings].sort((a, b) => a - b);
      const form = pickForm(r);
      const key = `${list.join(',')}|${form}`;
      if (!inv && keys.has(key)) return -1;
      keys.add(key);
      if (!inv) formNo++;
      const byName = [...list].sort((a, b) => (t.name(a) < t.name(b) ? -1 : 1));
      const i = ctx.add(vocab, { cls: 'Clinical Drug Form', domain: 'Drug', std: 'S', invalid: inv, code: code(), name: `${byName.map((x) => t.name(x)).join(' / ')} ${t.name(form)}`, start: start(), p1: form });
      for (const ing of list) ctx.link(i, ing, 'RxNorm has ing');
      ctx.link(i, form, 'RxNorm has dose form');
      return i;
    });
  }

  // ---- Clinical Drug: a form plus one component per ingredient
  {
    const keys = new Set<string>();
    productClass('Clinical Drug', s.cd, (r, inv) => {
      const cdf = s.cdf[relativeZipf(r, s.cdf.length, 0.01)]!;
      const ings = linksOf(ctx, cdf, 'RxNorm has ing');
      const form = t.p1[cdf]!;
      const comps: number[] = [];
      const bare: number[] = [];
      for (const ing of ings) {
        const options = s.cdcByIng.get(ing);
        if (options && options.length) comps.push(options[relativeZipf(r, options.length, 0.05)]!);
        else bare.push(ing);
      }
      const key = `${cdf}|${comps.join(',')}`;
      if (!inv && keys.has(key)) return -1;
      keys.add(key);
      const parts = [...comps.map((c) => t.name(c)), ...bare.map((b) => `${t.name(b)} ${strengthText(pickStrength(r))}`)].sort();
      const i = ctx.add(vocab, { cls: 'Clinical Drug', domain: 'Drug', std: 'S', invalid: inv, code: code(), name: `${parts.join(' / ')} ${t.name(form)}`, start: start(), p1: cdf, p2: form });
      ctx.link(i, cdf, 'RxNorm is a');
      for (const c of [...comps].sort((a, b) => a - b)) ctx.link(i, c, 'Consists of');
      for (const b of bare) ctx.link(i, b, 'RxNorm has ing');
      ctx.link(i, form, 'RxNorm has dose form');
      return i;
    });
  }

  // ---- Branded Drug Comp / Form
  {
    const keys = new Set<number>();
    productClass('Branded Drug Comp', s.bdc, (r, inv) => {
      const cdc = s.cdc[relativeZipf(r, s.cdc.length, 0.01)]!;
      const brand = pickBrand(r);
      const key = cdc * K + brand;
      if (!inv && keys.has(key)) return -1;
      keys.add(key);
      const i = ctx.add(vocab, { cls: 'Branded Drug Comp', domain: 'Drug', std: 'S', invalid: inv, code: code(), name: `${t.name(cdc)} [${t.name(brand)}]`, start: start(), p1: cdc, p2: brand });
      ctx.link(i, cdc, 'Tradename of');
      ctx.link(i, brand, 'Has brand name');
      if (!inv) s.bdcByKey.set(key, i);
      return i;
    });
  }
  {
    const keys = new Set<number>();
    productClass('Branded Drug Form', s.bdf, (r, inv) => {
      const cdf = s.cdf[relativeZipf(r, s.cdf.length, 0.01)]!;
      const brand = pickBrand(r);
      const key = cdf * K + brand;
      if (!inv && keys.has(key)) return -1;
      keys.add(key);
      const form = t.p1[cdf]!;
      const i = ctx.add(vocab, { cls: 'Branded Drug Form', domain: 'Drug', std: 'S', invalid: inv, code: code(), name: `${t.name(cdf)} [${t.name(brand)}]`, start: start(), p1: cdf, p2: brand });
      ctx.link(i, cdf, 'Tradename of');
      ctx.link(i, brand, 'Has brand name');
      ctx.link(i, form, 'RxNorm has dose form');
      if (!inv) {
        s.bdfByKey.set(key, i);
        push(s.brandsOfCdf, cdf, brand);
      }
      return i;
    });
  }

  // ---- Branded Drug: clinical drug + brand, linked to the matching branded form and components
  {
    const keys = new Set<number>();
    productClass('Branded Drug', s.bd, (r, inv) => {
      const cd = s.cd[relativeZipf(r, s.cd.length, 0.01)]!;
      const cdf = t.p1[cd]!;
      const known = s.brandsOfCdf.get(cdf);
      const brand = known && known.length && r.chance(0.85) ? known[r.int(known.length)]! : pickBrand(r);
      const key = cd * K + brand;
      if (!inv && keys.has(key)) return -1;
      keys.add(key);
      const i = ctx.add(vocab, { cls: 'Branded Drug', domain: 'Drug', std: 'S', invalid: inv, code: code(), name: `${t.name(cd)} [${t.name(brand)}]`, start: start(), p1: cd, p2: brand });
      ctx.link(i, cd, 'Tradename of');
      const bdf = s.bdfByKey.get(cdf * K + brand);
      if (bdf !== undefined) ctx.link(i, bdf, 'RxNorm is a');
      for (const cdc of linksOf(ctx, cd, 'Consists of')) {
        const bdc = s.bdcByKey.get(cdc * K + brand);
        if (bdc !== undefined) ctx.link(i, bdc, 'Consists of');
      }
      ctx.link(i, brand, 'Has brand name');
      ctx.link(i, t.p2[cd]!, 'RxNorm has dose form');
      if (!inv) push(s.bdOfCd, cd, i);
      return i;
    });
  }

  // ---- Quantified drugs
  const quantity = (qty: number): string => L.QUANTITIES[qty]!;
  {
    const keys = new Set<number>();
    productClass('Quant Clinical Drug', s.qcd, (r, inv) => {
      const cd = s.cd[relativeZipf(r, s.cd.length, 0.01)]!;
      const qty = zQty.sample(r);
      const key = cd * K + qty;
      if (!inv && keys.has(key)) return -1;
      keys.add(key);
      const i = ctx.add(vocab, { cls: 'Quant Clinical Drug', domain: 'Drug', std: 'S', invalid: inv, code: code(), name: `${quantity(qty)} ${t.name(cd)}`, start: start(), p1: cd, p2: qty });
      ctx.link(i, cd, 'Quantified form of');
      ctx.link(i, t.p2[cd]!, 'RxNorm has dose form');
      if (!inv) {
        s.qcdByKey.set(key, i);
        push(s.qtyOfCd, cd, qty);
      }
      return i;
    });
  }
  {
    const keys = new Set<number>();
    productClass('Quant Branded Drug', s.qbd, (r, inv) => {
      const bd = s.bd[relativeZipf(r, s.bd.length, 0.01)]!;
      const cd = t.p1[bd]!;
      const known = s.qtyOfCd.get(cd);
      const qty = known && known.length && r.chance(0.85) ? known[r.int(known.length)]! : zQty.sample(r);
      const key = bd * K + qty;
      if (!inv && keys.has(key)) return -1;
      keys.add(key);
      const i = ctx.add(vocab, { cls: 'Quant Branded Drug', domain: 'Drug', std: 'S', invalid: inv, code: code(), name: `${quantity(qty)} ${t.name(bd)}`, start: start(), p1: bd, p2: qty });
      ctx.link(i, bd, 'Quantified form of');
      const qcd = s.qcdByKey.get(cd * K + qty);
      if (qcd !== undefined) ctx.link(i, qcd, 'Tradename of');
      ctx.link(i, t.p2[bd]!, 'Has brand name');
      ctx.link(i, t.p2[cd]!, 'RxNorm has dose form');
      return i;
    });
  }

  if (rx) {
    // ---- packs: several clinical (or branded) drugs in one package
    const packName = (r: Rng, drugs: number[]): string => `{${drugs.map((d) => `${r.pick([7, 21, 28, 14, 84, 1, 2, 4])} (${t.name(d)})`).join(' / ')} } Pack`;
    const clinicalPacks: number[] = [];
    productClass('Clinical Pack', clinicalPacks, (r, inv) => {
      const n = r.range(2, 4);
      const drugs = new Set<number>();
      for (let k = 0; k < n; k++) drugs.add(s.cd[relativeZipf(r, s.cd.length, 0.01)]!);
      const list = [...drugs].sort((a, b) => a - b);
      const i = ctx.add(vocab, { cls: 'Clinical Pack', domain: 'Drug', std: 'S', invalid: inv, code: code(), name: packName(r, list), start: start() });
      for (const d of list) ctx.link(i, d, 'Contains');
      return i;
    });
    const branded: number[] = [];
    productClass('Branded Pack', branded, (r, inv) => {
      if (!clinicalPacks.length) return -1;
      const cp = clinicalPacks[relativeZipf(r, clinicalPacks.length, 0.05)]!;
      const brand = pickBrand(r);
      const i = ctx.add(vocab, { cls: 'Branded Pack', domain: 'Drug', std: 'S', invalid: inv, code: code(), name: `${t.name(cp)} [${t.name(brand)}]`, start: start() });
      ctx.link(i, cp, 'Tradename of');
      for (const d of linksOf(ctx, cp, 'Contains')) ctx.link(i, d, 'Contains');
      ctx.link(i, brand, 'Has brand name');
      return i;
    });
    ctx.setPool('RxNorm/Clinical Drug', ...rangesOf(s.cd));
    return;
  }

  // ---- RxNorm Extension only: boxes and marketed products
  const cdClass = classIndex('Clinical Drug');
  /** Dose form of a product: follow the base chain down to the clinical drug. */
  const formOf = (x: number): number => {
    for (let guard = 0; guard < 8 && t.cls[x] !== cdClass; guard++) x = t.p1[x]!;
    return t.cls[x] === cdClass ? t.p2[x]! : -1;
  };
  const boxClass = (cls: CoreClassId, list: number[], bases: number[], branded: boolean, clinicalBoxes?: number[]): void => {
    const keys = new Set<number>();
    productClass(cls, list, (r, inv) => {
      if (!bases.length) return -1;
      const base = bases[relativeZipf(r, bases.length, 0.01)]!;
      const box = L.BOX_SIZES[zBox.sample(r)]!;
      const key = base * K + box;
      if (!inv && keys.has(key)) return -1;
      keys.add(key);
      const i = ctx.add(vocab, { cls, domain: 'Drug', std: 'S', invalid: inv, code: code(), name: `${t.name(base)} Box of ${box}`, start: start(), p1: base, p2: box });
      ctx.link(i, base, 'Box of');
      const form = formOf(base);
      if (form >= 0) ctx.link(i, form, 'RxNorm has dose form');
      if (branded) {
        const clinicalBase = t.p1[base]!; // BD → CD, QBD → BD (then no clinical box key)
        const cb = s.cdBoxByKey.get(clinicalBase * K + box);
        if (cb !== undefined && cb < i) ctx.link(i, cb, 'Tradename of');
        const brand = brandOf(ctx, base);
        if (brand >= 0) ctx.link(i, brand, 'Has brand name');
      } else if (!inv && clinicalBoxes) {
        s.cdBoxByKey.set(key, i);
      }
      return i;
    });
  };
  boxClass('Clinical Drug Box', s.cdBox, s.cd, false, s.cdBox);
  boxClass('Quant Clinical Box', s.qcBox, s.qcd, false);
  boxClass('Branded Drug Box', s.bdBox, s.bd, true);
  boxClass('Quant Branded Box', s.qbBox, s.qbd, true);

  {
    const keys = new Set<number>();
    const baseLists = [s.cd, s.bd, s.qcd, s.qbd, s.cdBox, s.bdBox, s.qcBox, s.qbBox];
    const baseWeights = [0.12, 0.2, 0.08, 0.12, 0.12, 0.24, 0.04, 0.08];
    productClass('Marketed Product', [], (r, inv) => {
      let x = r.float();
      let li = 0;
      while (li < baseWeights.length - 1 && x >= baseWeights[li]!) x -= baseWeights[li++]!;
      const list = baseLists[li]!.length ? baseLists[li]! : s.cd;
      const base = list[relativeZipf(r, list.length, 0.01)]!;
      const supplier = s.suppliers[relativeZipf(r, s.suppliers.length, 0.005)]!;
      const key = base * K + supplier;
      if (!inv && keys.has(key)) return -1;
      keys.add(key);
      const i = ctx.add(vocab, { cls: 'Marketed Product', domain: 'Drug', std: 'S', invalid: inv, code: code(), name: `${t.name(base)} by ${t.name(supplier)}`, start: start(), p1: base, p2: supplier });
      ctx.link(i, base, 'Marketed form of');
      ctx.link(i, supplier, 'Has supplier');
      const form = formOf(base);
      if (form >= 0) ctx.link(i, form, 'RxNorm has dose form');
      const brand = brandOf(ctx, base);
      if (brand >= 0) ctx.link(i, brand, 'Has brand name');
      return i;
    });
  }
  ctx.setPool('drug/Clinical Drug', ...rangesOf(s.cd));
  ctx.setPool('drug/Branded Drug', ...rangesOf(s.bd));
  ctx.setPool('drug/Quant Clinical Drug', ...rangesOf(s.qcd));
  ctx.setPool('drug/Clinical Drug Box', ...rangesOf(s.cdBox));
  ctx.setPool('drug/Ingredient', ...rangesOf(Array.from(u.indexByRank).filter((i) => i >= 0)));
  ctx.shared.set('bdOfCd', s.bdOfCd);
  ctx.shared.set('rxnormForms', s.forms);
}

/** Targets of the links of concept i with the given relationship. */
export function linksOf(ctx: GenContext, i: number, rel: string): number[] {
  const { links } = ctx.table;
  const r = relIdx(rel);
  const out: number[] = [];
  for (let k = links.start[i]!; k < links.start[i + 1]!; k++) if (links.rel[k] === r) out.push(links.target[k]!);
  return out;
}

import { relIndex } from './metadata.js';
const relCache = new Map<string, number>();
function relIdx(rel: string): number {
  let r = relCache.get(rel);
  if (r === undefined) {
    r = relIndex(rel);
    relCache.set(rel, r);
  }
  return r;
}

function brandOf(ctx: GenContext, i: number): number {
  const b = linksOf(ctx, i, 'Has brand name');
  return b.length ? b[0]! : -1;
}

/** Sorted index list → contiguous ranges (for pools). */
export function rangesOf(list: number[]): Array<{ start: number; end: number }> {
  const sorted = [...list].sort((a, b) => a - b);
  const out: Array<{ start: number; end: number }> = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && last.end === i) last.end = i + 1;
    else out.push({ start: i, end: i + 1 });
  }
  return out;
}

