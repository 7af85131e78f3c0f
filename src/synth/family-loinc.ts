/**
 * LOINC: the six-axis parts, the classification side (classes → multiaxial hierarchy, groups), lab tests named
 * "<Component> [<Property>] in <System> by <Method>", observations and survey items contained in panels, and
 * answers (domain Meas Value) linked to their questions.
 */
import { loincCode } from './codes.js';
import { capitalizeFirst, type GenContext, lowerFirst } from './context.js';
import type { DrugUniverse } from './family-drugs.js';
import * as L from './lexicon.js';
import type { NameModel } from './names-clinical.js';
import { relativeZipf, type Rng, ZipfSampler } from './random.js';
import { buildTreeClass } from './tree-class.js';
import { capitalize, pseudoWord } from './words.js';

const TIMES = ['Pt', '24H', 'XXX', '8H', '12H', '1H', '2H', '4H', '6H', '48H', '72H', '1W', '1M', 'Stdy', 'Episode', 'Encounter', 'Lifetime', '10M', '30M', '3H'];
const SCALES = ['Qn', 'Ord', 'Nom', 'Nar', 'Doc', 'OrdQn', 'Multi', 'Set', '-', 'Ratio', 'Titer', 'Nom.Multi'];
const DOC_PARTS: Record<string, string[]> = {
  'Doc Kind': ['Note', 'Consult note', 'Discharge summary', 'History and physical note', 'Procedure note', 'Progress note', 'Referral note', 'Transfer summary note', 'Plan of care note', 'Letter', 'Report', 'Study report', 'Summary note', 'Evaluation and management note', 'Administrative note'],
  'Doc Role': ['Physician', 'Nurse', 'Pharmacist', 'Therapist', 'Dentist', 'Midwife', 'Social worker', 'Dietitian', 'Case manager', 'Counselor', 'Psychologist', 'Technician', 'Patient', 'Caregiver', 'Attending', 'Resident', 'Student', 'Clinical coordinator', 'Chaplain', 'Podiatrist'],
  'Doc Setting': ['Hospital', 'Outpatient', 'Emergency department', 'Intensive care unit', 'Home health', 'Nursing home', 'Telehealth', 'Clinic', 'Urgent care', 'Rehabilitation', 'Hospice', 'Labor and delivery', 'Operating room', 'Pharmacy', 'School', 'Workplace'],
  'Doc Subject Matter': [],
  'Doc Type of Service': ['Consultation', 'Evaluation and management', 'Procedure', 'Education', 'Counseling', 'Discharge', 'Admission', 'Transfer', 'Follow-up', 'Screening', 'Assessment', 'Plan of care', 'Triage', 'Case management', 'Supervision'],
};

const zProp = new ZipfSampler(L.LOINC_PROPERTIES.length, 1.2);
const zSys = new ZipfSampler(L.LOINC_SYSTEMS.length, 1.1);
const zMethod = new ZipfSampler(L.LOINC_METHODS.length, 0.9);
const zTime = new ZipfSampler(TIMES.length, 2.2);
const zAns = new ZipfSampler(L.ANSWERS.length, 0.7);

function scaleFor(propCode: string): string {
  if (propCode === 'PrThr' || propCode === 'Titr' || propCode === 'Imp') return 'Ord';
  if (propCode === 'Prid' || propCode === 'Type') return 'Nom';
  if (propCode === 'Score') return 'OrdQn';
  return 'Qn';
}

export function buildLoinc(ctx: GenContext): void {
  const vocab = 'LOINC';
  const rng = ctx.rng(vocab);
  const t = ctx.table;
  let lp = 6_000;
  let ln = 1_000;
  let la = 3_000;
  let lg = 1_000;
  const partCode = (): string => loincCode((lp += 1 + rng.int(40)), 'LP');
  const testCode = (): string => loincCode((ln += 1 + rng.int(12)));
  const answerCode = (): string => loincCode((la += 1 + rng.int(6)), 'LA');
  const groupCode = (): string => loincCode((lg += 1 + rng.int(8)), 'LG');
  const plan = (cls: Parameters<GenContext['classPlan']>[1]) => ctx.classPlan(vocab, cls);
  const u = ctx.shared.get('drugs') as DrugUniverse;

  // ---- parts
  const part = (cls: Parameters<GenContext['classPlan']>[1], names: (k: number) => string, domain = 'Measurement'): number[] => {
    const p = plan(cls);
    const out: number[] = [];
    const seen = new Set<string>();
    for (let k = 0; k < p.core; k++) {
      let name = names(k);
      for (let r = 0; r < 6 && seen.has(name); r++) name = names(k + 1_000_000 + r);
      seen.add(name);
      out.push(ctx.add(vocab, { cls, domain, std: null, code: partCode(), name, start: 19700101 }));
    }
    if (p.deprecated + p.updated > 0 && out.length) {
      ctx.addRetired(vocab, cls, () => domain, p.deprecated, p.updated, ctx.setPool(`LOINC/${cls}`, { start: out[0]!, end: out[out.length - 1]! + 1 }), partCode, (_r, n) => n);
    }
    return out;
  };
  const componentName = (k: number): string => {
    if (k < L.LOINC_COMPONENTS.length) return L.LOINC_COMPONENTS[k]!;
    const r = rng.float();
    if (r < 0.3) return `${L.ORGANISM_GENERA[relativeZipf(rng, L.ORGANISM_GENERA.length, 0.05)]} ${L.ORGANISM_EPITHETS[rng.int(L.ORGANISM_EPITHETS.length)]} ${rng.pick(['Ab.IgG', 'Ab.IgM', 'Ag', 'DNA', 'RNA', 'IgE Ab', 'IgG Ab', 'rRNA', 'Ab', 'toxin'])}`;
    if (r < 0.5) return capitalizeFirst(u.names[relativeZipf(rng, u.names.length, 0.01)]!) + (rng.chance(0.3) ? ` ${rng.pick(['metabolite', '+Metabolites', 'trough', 'peak', 'free', 'glucuronide'])}` : '');
    if (r < 0.65) return `${rng.pick(L.GENES)} gene ${rng.pick(['mutations tested for', 'deletion', 'duplication', 'targeted mutation analysis', 'copy number', 'methylation', 'fusion transcript'])}`;
    if (r < 0.8) return `${capitalize(pseudoWord(rng, 2, 3))} ${rng.pick(['IgE Ab', 'IgG4 Ab', 'allergen', 'pollen IgE Ab', 'dander IgE Ab'])}`;
    return `${capitalize(pseudoWord(rng, 2, 4))}${rng.pick(['', '.free', '.total', '/Creatinine', ' Ab', ' Ag', ' receptor Ab', ' activity'])}`;
  };
  const components = part('LOINC Component', componentName);
  const systems = part('LOINC System', (k) => (k < L.LOINC_SYSTEMS.length ? L.LOINC_SYSTEMS[k]![0] : `${capitalizeFirst(L.BODY_SITES[k % L.BODY_SITES.length]!)} ${rng.pick(['tissue', 'fluid', 'specimen', 'aspirate', 'swab', 'biopsy'])}`));
  const methods = part('LOINC Method', (k) => (k < L.LOINC_METHODS.length ? L.LOINC_METHODS[k]!.slice(3) : `${capitalize(pseudoWord(rng, 2, 3))} ${rng.pick(['method', 'assay', 'stain', 'probe', 'panel', 'technique'])}`));
  const properties = part('LOINC Property', (k) => (k < L.LOINC_PROPERTIES.length ? L.LOINC_PROPERTIES[k]![2] : `${L.LOINC_PROPERTIES[k % L.LOINC_PROPERTIES.length]![2]}.${k}`));
  const times = part('LOINC Time', (k) => TIMES[k] ?? `${k}H`);
  const scales = part('LOINC Scale', (k) => SCALES[k] ?? `Scale${k}`);
  for (const cls of ['Doc Kind', 'Doc Role', 'Doc Setting', 'Doc Subject Matter', 'Doc Type of Service'] as const) {
    const list = DOC_PARTS[cls]!;
    part(cls, (k) => list[k] ?? (cls === 'Doc Subject Matter' ? capitalizeFirst(L.PROCEDURE_HEADS[k % L.PROCEDURE_HEADS.length]!) + (k >= L.PROCEDURE_HEADS.length ? ` ${L.BODY_SITES[k % L.BODY_SITES.length]}` : '') : `${list[k % list.length]} ${Math.floor(k / list.length) + 1}`), 'Observation');
  }

  // ---- classification: classes → hierarchy; groups
  const classes: number[] = [];
  {
    const p = plan('LOINC Class');
    for (let k = 0; k < p.core; k++) {
      const name = L.LOINC_CLASS_NAMES[k] ?? `${L.LOINC_CLASS_NAMES[k % L.LOINC_CLASS_NAMES.length]}.${pseudoWord(rng, 1, 2).toUpperCase()}${k}`;
      classes.push(ctx.add(vocab, { cls: 'LOINC Class', domain: 'Measurement', std: 'C', code: name, name, start: 19700101 }));
    }
  }
  const hierModel: NameModel = {
    top(r, _level, k) {
      return { name: L.LOINC_HIERARCHY_HEADS[k] ?? `${L.LOINC_HIERARCHY_HEADS[k % L.LOINC_HIERARCHY_HEADS.length]} ${capitalize(pseudoWord(r, 1, 2))}`, site: -1, head: -1 };
    },
    child(r, p, level) {
      const comp = t.name(components[relativeZipf(r, components.length, 0.003)]!);
      const prop = L.LOINC_PROPERTIES[zProp.sample(r)]![2];
      if (level <= 2) return { name: `${p.name.split('|')[0]}|${comp}`, site: -1, head: -1 };
      const sys = L.LOINC_SYSTEMS[zSys.sample(r)]![1];
      return { name: `${comp}|${prop}|${TIMES[zTime.sample(r)]}|${sys}`, site: -1, head: -1 };
    },
  };
  const hp = plan('LOINC Hierarchy');
  const hier = buildTreeClass(ctx, {
    vocab, cls: 'LOINC Hierarchy', count: hp.core, std: 'C', model: hierModel, code: partCode,
    levelWeights: [Math.max(1, Math.min(classes.length, L.LOINC_HIERARCHY_HEADS.length)), 0.1, 0.2, 0.3, 0.25, 0.15],
    roots: Math.max(1, Math.min(classes.length, L.LOINC_HIERARCHY_HEADS.length)), extraParents: 0.1, attach: 0.01,
    domainOf: () => 'Measurement',
    externalParents: (r, _node, level) => (level === 0 && classes.length ? [classes[r.int(classes.length)]!] : []),
  });
  ctx.setPool('LOINC/LOINC Hierarchy', hier);
  // tests hang under the deeper (more specific) half of the hierarchy
  const deepHier = ctx.setPool('LOINC/LOINC Hierarchy/deep', { start: hier.start + Math.floor((hier.end - hier.start) * 0.45), end: hier.end });
  const groups: number[] = [];
  {
    const p = plan('LOINC Group');
    const start = ctx.next;
    const cats = Math.max(1, Math.round(p.core * 0.06));
    const catIdx: number[] = [];
    for (let k = 0; k < p.core; k++) {
      const comp = t.name(components[relativeZipf(rng, components.length, 0.003)]!);
      const isCat = k < cats;
      const name = isCat ? `${comp}|${rng.pick(['ANYBldSerPl', 'Urine', 'XXX', 'Bld', 'CSF'])}` : `${comp}|${L.LOINC_PROPERTIES[zProp.sample(rng)]![2]}|${TIMES[zTime.sample(rng)]}|${L.LOINC_SYSTEMS[zSys.sample(rng)]![1]}|${rng.pick(SCALES.slice(0, 3))}`;
      const i = ctx.add(vocab, { cls: 'LOINC Group', domain: 'Measurement', std: 'C', code: groupCode(), name, start: ctx.startDate(0.8) });
      if (isCat) catIdx.push(i);
      else {
        groups.push(i);
        ctx.link(i, catIdx[relativeZipf(rng, catIdx.length, 0.05)]!, 'Is a');
      }
    }
    ctx.addRetired(vocab, 'LOINC Group', () => 'Measurement', p.deprecated, p.updated, ctx.setPool('LOINC/LOINC Group', { start, end: ctx.next }), groupCode, (_r, n) => n);
  }

  // ---- survey panels (standard, nested through `Contained in panel`)
  const sp = plan('Survey');
  const panelModel: NameModel = {
    top(r, level, k) {
      const inst = L.INSTRUMENTS[k % L.INSTRUMENTS.length]!;
      return { name: level === 0 ? `${inst} panel` : `${inst} ${capitalize(pseudoWord(r, 2, 3))} panel`, site: -1, head: -1 };
    },
    child(r, p) {
      return { name: `${p.name.replace(/ panel.*$/, '')} - ${lowerFirst(r.pick(L.SURVEY_OBJECTS))} panel`.slice(0, 200), site: -1, head: -1 };
    },
  };
  const panels = buildTreeClass(ctx, {
    vocab, cls: 'Survey', count: sp.core, std: 'S', model: panelModel, code: testCode, rel: 'Contained in panel',
    levelWeights: [0.55, 0.3, 0.15], roots: Math.max(1, Math.round(sp.core * 0.55)), attach: 0.05, domainOf: () => 'Observation',
  });
  const panelPool = ctx.setPool('LOINC/Survey', panels);
  ctx.addRetired(vocab, 'Survey', () => 'Observation', sp.deprecated, sp.updated, panelPool, testCode, (_r, n) => n);

  // ---- lab tests
  const questions: number[] = [];
  // the well-known analytes (Glucose, Sodium, ...) carry many tests each, the rest a long tail
  const zKnown = new ZipfSampler(Math.min(components.length, L.LOINC_COMPONENTS.length), 0.8);
  const pickComponent = (r: Rng): number => (r.chance(0.2) ? components[zKnown.sample(r)]! : components[relativeZipf(r, components.length, 0.0025)]!);
  const lt = plan('Lab Test');
  const labStart = ctx.next;
  const seen = new Set<string>();
  const ordinalTests: number[] = [];
  for (let k = 0; k < lt.core; k++) {
    let comp = 0;
    let pi = 0;
    let si = 0;
    let mi = -1;
    let ti = 0;
    let key = '';
    for (let r = 0; r < 6; r++) {
      comp = pickComponent(rng);
      pi = zProp.sample(rng) % properties.length;
      si = zSys.sample(rng) % systems.length;
      mi = rng.chance(0.45) ? zMethod.sample(rng) % methods.length : -1;
      ti = rng.chance(0.85) ? 0 : zTime.sample(rng) % times.length;
      key = `${comp}|${pi}|${si}|${mi}|${ti}`;
      if (!seen.has(key)) break;
    }
    seen.add(key);
    const prop = L.LOINC_PROPERTIES[pi % L.LOINC_PROPERTIES.length]!;
    const sysName = t.name(systems[si]!);
    const time = TIMES[ti]!;
    const timeText = time === 'Pt' ? '' : time === '24H' ? ' 24 hour' : ` ${time}`;
    const name = `${t.name(comp)} [${prop[0]}] in${timeText} ${sysName}${mi >= 0 ? ` by ${t.name(methods[mi]!)}` : ''}`;
    const i = ctx.add(vocab, { cls: 'Lab Test', domain: 'Measurement', std: 'S', code: testCode(), name, p1: comp, p2: (pi << 8) | si, start: ctx.startDate(0.4) });
    if (!deepHier.empty) ctx.link(i, deepHier.popular(rng, 0.05), 'Is a');
    if (groups.length && rng.chance(0.35)) ctx.link(i, groups[relativeZipf(rng, groups.length, 0.01)]!, 'Is a');
    ctx.link(i, comp, 'Has component');
    ctx.link(i, properties[pi]!, 'Has property');
    ctx.link(i, times[ti % times.length]!, 'Has time aspect');
    ctx.link(i, systems[si]!, 'Has system');
    const scaleName = scaleFor(prop[2]);
    ctx.link(i, scales[Math.max(0, SCALES.indexOf(scaleName)) % scales.length]!, 'Has scale type');
    if (mi >= 0) ctx.link(i, methods[mi]!, 'Has method');
    if (scaleName !== 'Qn') ordinalTests.push(i);
  }
  const labPool = ctx.setPool('LOINC/Lab Test', { start: labStart, end: ctx.next });
  ctx.addRetired(vocab, 'Lab Test', () => 'Measurement', lt.deprecated, lt.updated, labPool, testCode, (_r, n) => n);

  // ---- clinical observations: measurements and questionnaire items
  const co = plan('Clinical Observation');
  const coStart = ctx.next;
  const obsSeen = new Set<string>();
  for (let k = 0; k < co.core; k++) {
    const question = !panelPool.empty && rng.chance(0.45);
    let name = '';
    for (let r = 0; r < 6 && (!name || obsSeen.has(name)); r++) {
      if (question) {
        const inst = L.INSTRUMENTS[relativeZipf(rng, L.INSTRUMENTS.length, 0.05)]!;
        name = `${rng.pick(L.SURVEY_STEMS)} ${rng.pick(L.SURVEY_OBJECTS)}${rng.chance(0.3) ? ` ${pseudoWord(rng, 2, 3)}` : ''}?${rng.chance(0.6) ? ` [${inst}]` : ''}`;
      } else {
        const site = L.BODY_SITES[relativeZipf(rng, L.BODY_SITES.length, 0.01)]!;
        const prop = L.LOINC_PROPERTIES[zProp.sample(rng)]![0];
        name = `${capitalizeFirst(site)} ${L.OBSERVABLE_NOUNS[relativeZipf(rng, L.OBSERVABLE_NOUNS.length, 0.02)]} [${prop}]${rng.chance(0.5) ? ` - ${rng.pick(['Measured', 'Estimated', 'Reported', 'Resting', 'Left', 'Right', 'Sitting', 'Standing', '--pre therapy', '--post therapy'])}` : ''}`;
      }
    }
    obsSeen.add(name);
    const i = ctx.add(vocab, { cls: 'Clinical Observation', domain: question ? 'Observation' : rng.chance(0.6) ? 'Measurement' : 'Observation', std: 'S', code: testCode(), name, start: ctx.startDate(0.5) });
    if (question) {
      const p1 = panelPool.popular(rng, 0.02);
      ctx.link(i, p1, 'Contained in panel');
      if (rng.chance(0.2)) {
        const p2 = panelPool.uniform(rng);
        if (p2 !== p1) ctx.link(i, p2, 'Contained in panel');
      }
      questions.push(i);
    } else if (!deepHier.empty && rng.chance(0.6)) {
      ctx.link(i, deepHier.popular(rng, 0.05), 'Is a');
    }
    ctx.link(i, properties[zProp.sample(rng) % properties.length]!, 'Has property');
    ctx.link(i, times[0]!, 'Has time aspect');
    ctx.link(i, systems[zSys.sample(rng) % systems.length]!, 'Has system');
    ctx.link(i, scales[(question ? 2 : 0) % scales.length]!, 'Has scale type');
  }
  const coPool = ctx.setPool('LOINC/Clinical Observation', { start: coStart, end: ctx.next });
  ctx.addRetired(vocab, 'Clinical Observation', () => 'Observation', co.deprecated, co.updated, coPool, testCode, (_r, n) => n);

  // ---- answers, linked to questionnaire items and ordinal lab tests
  const ap = plan('Answer');
  const ansStart = ctx.next;
  const ansSeen = new Set<string>();
  const askers = [...questions, ...ordinalTests];
  for (let k = 0; k < ap.core; k++) {
    let name = k < L.ANSWERS.length ? L.ANSWERS[k]! : '';
    for (let r = 0; r < 8 && (!name || ansSeen.has(name)); r++) name = answerText(rng);
    if (ansSeen.has(name)) name = `${name} (${k})`;
    ansSeen.add(name);
    const i = ctx.add(vocab, { cls: 'Answer', domain: 'Meas Value', std: 'S', code: answerCode(), name, start: ctx.startDate(0.5) });
    const n = askers.length ? 1 + rng.geometric(0.45, 4) : 0;
    const used = new Set<number>();
    for (let a = 0; a < n; a++) {
      const q = askers[relativeZipf(rng, askers.length, 0.01)]!;
      if (used.has(q)) continue;
      used.add(q);
      ctx.link(i, q, 'Answer of');
    }
  }
  ctx.addRetired(vocab, 'Answer', () => 'Meas Value', ap.deprecated, ap.updated, ctx.setPool('LOINC/Answer', { start: ansStart, end: ctx.next }), answerCode, (_r, n) => n);
}

function answerText(rng: Rng): string {
  const r = rng.float();
  if (r < 0.25) return `${L.ANSWERS[zAns.sample(rng)]} ${lowerFirst(rng.pick(L.SURVEY_OBJECTS))}`.slice(0, 120);
  if (r < 0.4) return `${rng.range(1, 10)}-${rng.range(11, 30)} ${rng.pick(['times per week', 'days', 'hours', 'drinks', 'cigarettes per day', 'minutes', 'years'])}`;
  if (r < 0.55) return `${L.ORGANISM_GENERA[rng.int(L.ORGANISM_GENERA.length)]} ${L.ORGANISM_EPITHETS[rng.int(L.ORGANISM_EPITHETS.length)]}`;
  if (r < 0.7) return `${capitalizeFirst(L.QUALIFIERS[rng.int(L.QUALIFIERS.length)]!)} ${L.CONDITION_HEADS[rng.int(L.CONDITION_HEADS.length)]}`;
  if (r < 0.85) return `${rng.pick(['Less than', 'More than', 'About', 'At least'])} ${rng.range(1, 60)} ${rng.pick(['minutes', 'hours', 'days', 'weeks', 'months', 'years'])}`;
  return `${capitalize(pseudoWord(rng, 2, 3))} ${rng.pick(['type', 'pattern', 'variant', 'response', 'level', 'category'])}`;
}
