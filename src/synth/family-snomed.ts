/**
 * SNOMED CT: one hierarchy per top-level class (findings and procedures deep with ~1.5 parents per concept,
 * organisms as narrow chains, qualifiers shallow and wide), satellites mapped to a standard concept of their
 * class, deprecated and updated concepts, drug products and substances mapped to RxNorm.
 */
import { sctid } from './codes.js';
import { capitalizeFirst, type GenContext, lowerFirst, type Range } from './context.js';
import type { DrugUniverse } from './family-drugs.js';
import { strengthText } from './family-drugs.js';
import type { CoreClassId } from './metadata.js';
import * as N from './names-clinical.js';
import type { NameModel } from './names-clinical.js';
import { relativeZipf, type Rng } from './random.js';
import { buildTreeClass } from './tree-class.js';
import * as L from './lexicon.js';

/** Language concepts used by CONCEPT_SYNONYM (well-known id for English). */
export const LANGUAGES: Array<[number, string]> = [
  [4180186, 'English language'], [4182504, 'German language'], [4180190, 'French language'],
  [4182511, 'Spanish language'], [4182503, 'Dutch language'], [4182507, 'Italian language'],
];

const DEEP = [1, 0.0003, 0.002, 0.008, 0.02, 0.045, 0.075, 0.1, 0.12, 0.13, 0.125, 0.11, 0.09, 0.065, 0.045, 0.03, 0.018, 0.01, 0.006, 0.003, 0.0015, 0.0008];
const MEDIUM = [1, 0.004, 0.03, 0.12, 0.25, 0.28, 0.18, 0.09, 0.04, 0.012];
const SHALLOW = [1, 0.002, 0.15, 0.5, 0.3];
const ORGANISM = [1, 0.0001, 0.0004, 0.0015, 0.005, 0.02, 0.06, 0.3, 0.4, 0.2];

interface SnomedClassSetup {
  cls: CoreClassId;
  model: NameModel;
  levels: number[];
  extraParents: number;
  domain: (name: string) => string;
}

const findingDomain = (n: string): string => (/^(Finding|Functional|Clinical history|Pain finding|Finding of vital|Finding related)/.test(n) ? 'Observation' : 'Condition');

const SETUPS: SnomedClassSetup[] = [
  { cls: 'Qualifier Value', model: N.qualifierModel, levels: SHALLOW, extraParents: 0.05, domain: (n) => (n === 'Result' ? 'Meas Value' : 'Observation') },
  { cls: 'Body Structure', model: N.bodyStructureModel, levels: MEDIUM, extraParents: 0.55, domain: () => 'Spec Anatomic Site' },
  { cls: 'Organism', model: N.organismModel, levels: ORGANISM, extraParents: 0.02, domain: () => 'Observation' },
  { cls: 'Substance', model: N.substanceModel, levels: MEDIUM, extraParents: 0.3, domain: () => 'Observation' },
  { cls: 'Morph Abnormality', model: N.morphologyModel, levels: MEDIUM, extraParents: 0.2, domain: () => 'Observation' },
  { cls: 'Observable Entity', model: N.observableModel, levels: MEDIUM, extraParents: 0.35, domain: (n) => (/Vital sign|Laboratory/.test(n) ? 'Measurement' : 'Observation') },
  { cls: 'Physical Object', model: N.physicalObjectModel, levels: MEDIUM, extraParents: 0.25, domain: () => 'Device' },
  { cls: 'Clinical Finding', model: N.conditionModel, levels: DEEP, extraParents: 1.0, domain: findingDomain },
  { cls: 'Procedure', model: N.procedureModel, levels: DEEP, extraParents: 1.0, domain: (n) => (/Laboratory|Measurement/.test(n) ? 'Measurement' : /Education|Administrative|Patient encounter|Community/.test(n) ? 'Observation' : 'Procedure') },
  { cls: 'Context-dependent', model: N.contextModel, levels: MEDIUM, extraParents: 0.3, domain: () => 'Observation' },
];

const SMALL: Array<[CoreClassId, string]> = [
  ['Event', 'Observation'], ['Social Context', 'Observation'], ['Location', 'Observation'], ['Specimen', 'Specimen'],
  ['Staging / Scales', 'Measurement'], ['Record Artifact', 'Observation'], ['Disposition', 'Observation'],
  ['Physical Force', 'Observation'], ['Attribute', 'Observation'], ['Model Comp', 'Metadata'], ['Namespace Concept', 'Metadata'],
  ['Navi Concept', 'Observation'], ['Admin Concept', 'Observation'], ['Linkage Concept', 'Observation'],
];

const NAMESPACES = [1000124, 1000000, 1000001, 1000172, 1000146, 1000036];

export function snomedVariant(rng: Rng, name: string): string {
  const r = rng.float();
  const of = name.indexOf(' of ');
  if (r < 0.3 && of > 0) return `${capitalizeFirst(name.slice(of + 4))} ${lowerFirst(name.slice(0, of))}`;
  if (r < 0.45) return `${name}, NOS`;
  if (r < 0.6) return `${capitalizeFirst(name)} (${rng.pick(['disorder', 'finding', 'situation', 'procedure', 'qualifier value', 'morphologic abnormality'])})`;
  if (r < 0.75) return `${capitalizeFirst(L.QUALIFIERS[rng.int(40)]!)} ${lowerFirst(name)}`;
  if (r < 0.88) return `${name} - ${rng.pick(['unspecified', 'other', 'undetermined', 'not otherwise specified'])}`;
  return `${name} [${rng.pick(['ambiguous', 'duplicate', 'erroneous', 'outdated', 'limited'])} concept]`;
}

export function buildSnomed(ctx: GenContext): void {
  const rng = ctx.rng('SNOMED/codes');
  let item = 10_000;
  const code = (): string => {
    item += 1 + rng.int(60);
    return rng.chance(0.15) ? sctid(item, NAMESPACES[rng.int(NAMESPACES.length)]!) : sctid(item);
  };
  const cores = new Map<string, Range>();

  for (const setup of SETUPS) {
    const plan = ctx.classPlan('SNOMED', setup.cls);
    let count = plan.core;
    const langStart = ctx.next;
    if (setup.cls === 'Qualifier Value') {
      for (const [id, name] of LANGUAGES) {
        if (count <= 1) break;
        ctx.addWithId('SNOMED', id, { cls: 'Qualifier Value', domain: 'Observation', std: 'S', code: code(), name, start: 19700101 });
        count--;
      }
      ctx.shared.set('languages', { start: langStart, end: ctx.next });
    }
    const core = buildTreeClass(ctx, {
      vocab: 'SNOMED', cls: setup.cls, count, std: plan.std, model: setup.model, code,
      levelWeights: setup.levels, roots: 1, extraParents: setup.extraParents * ctx.ancestryDensity, cousinSpread: 0.5, attach: 0.02,
      domainOf: (node) => setup.domain(node.name),
    });
    const pool = ctx.setPool(`SNOMED/${setup.cls}`, { start: langStart, end: core.end });
    cores.set(setup.cls, core);
    if (setup.cls === 'Substance') buildDrugSubstances(ctx, plan.satellites, code);
    else ctx.addSatellites('SNOMED', setup.cls, (t) => ctx.domainName(t), plan.satellites, pool, code, snomedVariant);
    ctx.addRetired('SNOMED', setup.cls, (t) => ctx.domainName(t), plan.deprecated, plan.updated, pool, code, snomedVariant, true);
  }

  buildPharmaProducts(ctx, code);

  for (const [cls, domain] of SMALL) {
    const plan = ctx.classPlan('SNOMED', cls);
    const core = buildTreeClass(ctx, {
      vocab: 'SNOMED', cls, count: plan.core, std: plan.std, model: N.smallClassModel(cls), code,
      levelWeights: SHALLOW, roots: 1, extraParents: 0.05, attach: 0.01, domainOf: () => domain,
    });
    const pool = ctx.setPool(`SNOMED/${cls}`, core);
    ctx.addSatellites('SNOMED', cls, () => domain, plan.satellites, pool, code, snomedVariant);
    ctx.addRetired('SNOMED', cls, () => domain, plan.deprecated, plan.updated, pool, code, snomedVariant, true);
  }
}

/** SNOMED drug substances: non-standard, named after an ingredient, `Maps to` it. */
function buildDrugSubstances(ctx: GenContext, count: number, code: () => string): void {
  const u = ctx.shared.get('drugs') as DrugUniverse;
  const rng = ctx.rng('SNOMED/drug-substances');
  const used = new Set<number>();
  for (let k = 0; k < count; k++) {
    let rank = relativeZipf(rng, u.names.length, 0.01);
    for (let r = 0; r < 5 && used.has(rank); r++) rank = rng.int(u.names.length);
    used.add(rank);
    const ing = u.indexByRank[rank]!;
    if (ing < 0) continue;
    const salt = used.size > u.names.length / 2 || rng.chance(0.2) ? ` ${rng.pick(L.SUBSTANCE_SUFFIXES)}` : '';
    const i = ctx.add('SNOMED', { cls: 'Substance', domain: 'Observation', std: null, code: code(), name: capitalizeFirst(u.names[rank]!) + salt });
    ctx.link(i, ing, 'Maps to');
  }
}

/** "Product containing ..." hierarchy, non-standard, mapped to RxNorm ingredients. */
function buildPharmaProducts(ctx: GenContext, code: () => string): void {
  const plan = ctx.classPlan('SNOMED', 'Pharma/Biol Product');
  const u = ctx.shared.get('drugs') as DrugUniverse;
  const routes = ['oral', 'parenteral', 'cutaneous', 'ocular', 'nasal', 'inhalation', 'rectal', 'vaginal', 'transdermal'];
  const forms = ['conventional release oral tablet', 'conventional release oral capsule', 'solution for injection', 'cutaneous cream', 'oral solution', 'prolonged-release oral tablet', 'gastro-resistant oral tablet', 'suspension for injection', 'eye drops', 'nasal spray'];
  const model: NameModel = {
    top(_rng, level, k) {
      const by = ['disposition', 'structure', 'therapeutic role', 'route', 'dose form', 'ingredient class', 'mechanism of action', 'manufacturer'];
      return { name: level === 0 ? 'Medicinal product' : `Medicinal product categorized by ${by[k % by.length]}${k >= by.length ? ` ${Math.floor(k / by.length) + 1}` : ''}`, site: -1, head: -1 };
    },
    child(rng, p, level) {
      if (level <= 2 || p.head < 0) {
        const rank = relativeZipf(rng, u.names.length, 0.003);
        return { name: `Product containing ${u.names[rank]}`, site: -1, head: rank };
      }
      const ing = u.names[p.head]!;
      if (level === 3) {
        return rng.chance(0.3)
          ? { name: `Product containing only ${ing}`, site: -1, head: p.head }
          : { name: `Product containing ${ing} and ${u.names[relativeZipf(rng, u.names.length, 0.01)]}`, site: -1, head: p.head };
      }
      if (level === 4) return { name: `${p.name} in ${rng.pick(routes)} dose form`, site: -1, head: p.head };
      return { name: `Product containing precisely ${ing} ${strengthText((0 << 8) | rng.int(40)).replace(' MG', ' milligram')}/1 each ${rng.pick(forms)}`, site: -1, head: p.head };
    },
  };
  const core = buildTreeClass(ctx, {
    vocab: 'SNOMED', cls: 'Pharma/Biol Product', count: plan.core, std: null, model, code,
    levelWeights: [1, 0.0005, 0.2, 0.25, 0.25, 0.3], roots: 1, extraParents: 0, attach: 0.02, domainOf: () => 'Drug',
    after: (_rng, i, level) => {
      if (level < 2) return;
      const ing = u.indexByRank[ctx.table.p2[i]!]!;
      if (ing >= 0) ctx.link(i, ing, 'Maps to');
    },
  });
  const pool = ctx.setPool('SNOMED/Pharma/Biol Product', core);
  ctx.addRetired('SNOMED', 'Pharma/Biol Product', () => 'Drug', plan.deprecated, plan.updated, pool, code, snomedVariant, true);
}
