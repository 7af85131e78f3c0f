/**
 * dm+d (NHS Dictionary of Medicines and Devices): non-standard drug concepts named in dm+d style
 * ("Amlodipine 5mg tablets", "... (Supplier Ltd) 28 tablet") that `Maps to` the RxNorm / RxNorm
 * Extension drug they correspond to, plus standard device products in the Device domain.
 */
import { sctid } from './codes.js';
import { capitalizeFirst, type GenContext } from './context.js';
import { linksOf, type DrugUniverse } from './family-drugs.js';
import * as L from './lexicon.js';
import { relativeZipf, type Rng } from './random.js';
import { companyName } from './words.js';

const FORM_MAP: Record<string, string> = {
  'Oral Tablet': 'tablets', 'Oral Capsule': 'capsules', 'Injectable Solution': 'solution for injection ampoules',
  'Oral Solution': 'oral solution', 'Extended Release Oral Tablet': 'modified-release tablets', 'Topical Cream': 'cream',
  Injection: 'injection', 'Delayed Release Oral Tablet': 'gastro-resistant tablets', 'Oral Suspension': 'oral suspension',
  'Topical Ointment': 'ointment', 'Prefilled Syringe': 'solution for injection pre-filled syringes', 'Chewable Tablet': 'chewable tablets',
  'Ophthalmic Solution': 'eye drops', 'Nasal Spray': 'nasal spray', 'Transdermal System': 'transdermal patches',
  'Metered Dose Inhaler': 'pressurised inhaler', 'Rectal Suppository': 'suppositories', 'Effervescent Oral Tablet': 'effervescent tablets',
};
const PACK_UNITS = ['tablet', 'capsule', 'ampoule', 'ml', 'gram', 'dose', 'patch', 'vial', 'sachet', 'pre-filled disposable injection'];
const PACK_SIZES = [28, 30, 56, 7, 14, 100, 10, 5, 60, 84, 1, 20, 50, 500, 2, 3, 4, 6, 8, 12, 15, 21, 24, 25, 40, 42, 90, 98, 112, 120, 168, 200, 250, 1000];

export function dmdName(rxName: string): string {
  let s = rxName;
  for (const [rx, dmd] of Object.entries(FORM_MAP)) {
    if (s.endsWith(` ${rx}`)) {
      s = `${s.slice(0, -rx.length - 1)} ${dmd}`;
      break;
    }
  }
  s = s.replace(/ MG\/ML/g, 'mg/ml').replace(/ MCG/g, 'microgram').replace(/ MG/g, 'mg').replace(/ UNT\/ML/g, 'units/ml').replace(/ UNT/g, 'units');
  return capitalizeFirst(s.replace(/ Oral /, ' oral ').replace(/ Topical /, ' '));
}

export function buildDmd(ctx: GenContext): void {
  const t = ctx.table;
  const u = ctx.shared.get('drugs') as DrugUniverse;
  const rng = ctx.rng('dm+d');
  let item = 300_000;
  const code = (): string => {
    item += 1 + rng.int(30);
    return rng.chance(0.6) ? sctid(item, 1000001) : sctid(item);
  };
  const plan = (cls: Parameters<GenContext['classPlan']>[1]) => ctx.classPlan('dm+d', cls);
  const cds = ctx.pool('drug/Clinical Drug');
  const bdOfCd = ctx.shared.get('bdOfCd') as Map<number, number[]>;
  const variant = (_r: Rng, n: string): string => `${n} (old)`;
  const rxForms = ctx.shared.get('rxnormForms') as number[];
  const rxFormPosition = new Map(rxForms.map((f, k) => [f, k] as const));
  const dmdFormOf = (cd: number): number => {
    const k = rxFormPosition.get(t.p2[cd]!);
    return k === undefined || !formByPosition.length ? -1 : formByPosition[k % formByPosition.length]!;
  };

  const suppliers: number[] = [];
  {
    const p = plan('Supplier');
    const start = ctx.next;
    for (let k = 0; k < p.core; k++) suppliers.push(ctx.add('dm+d', { cls: 'Supplier', domain: 'Drug', std: null, code: code(), name: companyName(rng, ['Ltd', 'Limited', 'UK Ltd', 'Pharma Ltd', 'Healthcare Ltd', 'plc']) }));
    ctx.addRetired('dm+d', 'Supplier', () => 'Drug', p.deprecated, p.updated, ctx.setPool('dm+d/Supplier', { start, end: ctx.next }), code, variant);
  }
  const dmdIngredientOfRank = new Map<number, number>();
  {
    const p = plan('Ingredient');
    const start = ctx.next;
    for (let k = 0; k < p.core; k++) {
      const rank = k < u.names.length ? k : rng.int(u.names.length);
      const i = ctx.add('dm+d', { cls: 'Ingredient', domain: 'Drug', std: null, code: code(), name: capitalizeFirst(u.names[rank]!) + (k >= u.names.length ? ` ${rng.pick(L.SUBSTANCE_SUFFIXES)}` : '') });
      const ing = u.indexByRank[rank]!;
      if (ing >= 0) ctx.link(i, ing, 'Maps to');
      if (!dmdIngredientOfRank.has(rank)) dmdIngredientOfRank.set(rank, i);
    }
    ctx.addRetired('dm+d', 'Ingredient', () => 'Drug', p.deprecated, p.updated, ctx.setPool('dm+d/Ingredient', { start, end: ctx.next }), code, variant);
  }
  const formByPosition: number[] = [];
  {
    const p = plan('Dose Form');
    for (let k = 0; k < p.core; k++) {
      const f = L.DOSE_FORMS[k % L.DOSE_FORMS.length]!;
      formByPosition.push(ctx.add('dm+d', { cls: 'Dose Form', domain: 'Drug', std: null, code: code(), name: (FORM_MAP[f] ?? f.toLowerCase()) + (k >= L.DOSE_FORMS.length ? ` ${Math.floor(k / L.DOSE_FORMS.length) + 1}` : '') }));
    }
  }
  const vtmOfIng = new Map<number, number>();
  {
    const p = plan('VTM');
    const start = ctx.next;
    for (let k = 0; k < p.core; k++) {
      const rank = k < u.names.length ? k : rng.int(u.names.length);
      const ing = u.indexByRank[rank]!;
      const i = ctx.add('dm+d', { cls: 'VTM', domain: 'Drug', std: null, code: code(), name: capitalizeFirst(u.names[rank]!) + (k >= u.names.length ? ' and combinations' : '') });
      if (ing >= 0) {
        ctx.link(i, ing, 'Maps to');
        if (!vtmOfIng.has(ing)) vtmOfIng.set(ing, i);
      }
    }
    ctx.addRetired('dm+d', 'VTM', () => 'Drug', p.deprecated, p.updated, ctx.setPool('dm+d/VTM', { start, end: ctx.next }), code, variant);
  }
  // VMP ↔ clinical drug, AMP ↔ branded drug or clinical drug from a supplier, packs ↔ boxes
  const vmps: number[] = [];
  const simple = (cls: 'VMP' | 'AMP' | 'VMPP' | 'AMPP', list: number[], make: (r: Rng, inv: 'D' | 'U' | null) => number): void => {
    const p = plan(cls);
    const r = ctx.rng(`dm+d/${cls}`);
    for (let k = 0; k < p.core; k++) list.push(make(r, null));
    for (let k = 0; k < p.deprecated + p.updated; k++) {
      const i = make(r, k < p.deprecated ? 'D' : 'U');
      if (k >= p.deprecated && list.length) ctx.link(i, list[r.int(list.length)]!, 'Concept replaced by');
    }
  };
  const usedCd = new Set<number>();
  simple('VMP', vmps, (r, inv) => {
    let cd = cds.popular(r, 0.01);
    for (let k = 0; k < 6 && usedCd.has(cd); k++) cd = k < 3 ? cds.popular(r, 0.01) : cds.uniform(r);
    usedCd.add(cd);
    const i = ctx.add('dm+d', { cls: 'VMP', domain: 'Drug', std: null, invalid: inv, code: code(), name: dmdName(t.name(cd)), p1: cd });
    const ing = firstIngredient(ctx, cd);
    const vtm = ing >= 0 ? vtmOfIng.get(ing) : undefined;
    if (vtm !== undefined) ctx.link(i, vtm, 'Is a');
    if (!inv) ctx.link(i, cd, 'Maps to');
    const form = dmdFormOf(cd);
    if (form >= 0) ctx.link(i, form, 'Has dose form');
    for (const ingredient of ingredientsOf(ctx, cd)) {
      const d = dmdIngredientOfRank.get(t.p1[ingredient]!);
      if (d !== undefined) ctx.link(i, d, 'Has active ing');
    }
    return i;
  });
  const amps: number[] = [];
  const ampKeys = new Set<number>();
  simple('AMP', amps, (r, inv) => {
    let vmp = 0;
    let supplier = 0;
    for (let k = 0; k < 6; k++) {
      vmp = vmps[relativeZipf(r, vmps.length, 0.01)]!;
      supplier = suppliers[relativeZipf(r, suppliers.length, 0.01)]!;
      if (!ampKeys.has(vmp * 8_388_608 + supplier)) break;
    }
    ampKeys.add(vmp * 8_388_608 + supplier);
    const cd = t.p1[vmp]!;
    const bds = bdOfCd.get(cd);
    const target = bds && bds.length && r.chance(0.6) ? bds[r.int(bds.length)]! : cd;
    const i = ctx.add('dm+d', { cls: 'AMP', domain: 'Drug', std: null, invalid: inv, code: code(), name: `${t.name(vmp)} (${t.name(supplier)})`, p1: target });
    ctx.link(i, vmp, 'Tradename of');
    ctx.link(i, supplier, 'Has supplier');
    const form = dmdFormOf(cd);
    if (form >= 0) ctx.link(i, form, 'Has dose form');
    if (!inv) ctx.link(i, target, 'Maps to');
    return i;
  });
  const pack = (r: Rng): string => {
    const n = PACK_SIZES[r.int(PACK_SIZES.length)]!;
    const unit = PACK_UNITS[r.int(PACK_UNITS.length)]!;
    return r.chance(0.3) ? `${n} ${unit} ${r.range(1, 4)} x ${Math.max(1, Math.round(n / 2))} ${unit}s` : `${n} ${unit}`;
  };
  const vmpps: number[] = [];
  const packNames = new Set<string>();
  const uniquePack = (r: Rng, base: string): string => {
    let name = `${base} ${pack(r)}`;
    for (let k = 0; k < 6 && packNames.has(name); k++) name = `${base} ${pack(r)}`;
    packNames.add(name);
    return name;
  };
  simple('VMPP', vmpps, (r, inv) => {
    const vmp = vmps[relativeZipf(r, vmps.length, 0.01)]!;
    const i = ctx.add('dm+d', { cls: 'VMPP', domain: 'Drug', std: null, invalid: inv, code: code(), name: uniquePack(r, t.name(vmp)), p1: t.p1[vmp]! });
    ctx.link(i, vmp, 'Box of');
    if (!inv) ctx.link(i, t.p1[vmp]!, 'Maps to');
    return i;
  });
  simple('AMPP', [], (r, inv) => {
    const amp = amps[relativeZipf(r, amps.length, 0.01)]!;
    const i = ctx.add('dm+d', { cls: 'AMPP', domain: 'Drug', std: null, invalid: inv, code: code(), name: uniquePack(r, t.name(amp)) });
    ctx.link(i, amp, 'Box of');
    if (!inv) ctx.link(i, t.p1[amp]!, 'Maps to');
    return i;
  });

  // devices: standard, a shallow two-level tree under device categories
  {
    const p = plan('Device');
    const start = ctx.next;
    const cats = Math.max(1, Math.round(p.core * 0.03));
    const catIdx: number[] = [];
    for (let k = 0; k < p.core; k++) {
      const isCat = k < cats;
      const noun = L.DEVICE_NOUNS[relativeZipf(rng, L.DEVICE_NOUNS.length, 0.05)]!;
      const name = isCat
        ? `${capitalizeFirst(L.DEVICE_MATERIALS[rng.int(L.DEVICE_MATERIALS.length)]!)} ${noun}`
        : `${capitalizeFirst(L.DEVICE_MATERIALS[rng.int(L.DEVICE_MATERIALS.length)]!)} ${noun} ${L.SIZES[rng.int(L.SIZES.length)]} (${t.name(suppliers[relativeZipf(rng, suppliers.length, 0.01)]!)})`;
      const i = ctx.add('dm+d', { cls: 'Device', domain: 'Device', std: 'S', code: code(), name });
      if (isCat) catIdx.push(i);
      else ctx.link(i, catIdx[relativeZipf(rng, catIdx.length, 0.05)]!, 'Is a');
    }
    const pool = ctx.setPool('dm+d/Device', { start, end: ctx.next });
    ctx.addRetired('dm+d', 'Device', () => 'Device', p.deprecated, p.updated, pool, code, variant);
  }
}

function ingredientsOf(ctx: GenContext, cd: number): number[] {
  return [...linksOf(ctx, cd, 'Consists of').map((c) => ctx.table.p1[c]!), ...linksOf(ctx, cd, 'RxNorm has ing')];
}

function firstIngredient(ctx: GenContext, cd: number): number {
  const comps = linksOf(ctx, cd, 'Consists of');
  if (comps.length) return ctx.table.p1[comps[0]!]!;
  const bare = linksOf(ctx, cd, 'RxNorm has ing');
  return bare.length ? bare[0]! : -1;
}
