/**
 * Names of clinical concepts (SNOMED-style findings, procedures, body structures, organisms, …): a child's name is
 * derived from its parent's (a qualifier, site, cause or stage added, or a more specific head term), so siblings
 * share prefixes and words propagate down a subtree as in the real hierarchy.
 */
import { capitalizeFirst, lowerFirst } from './context.js';
import * as L from './lexicon.js';
import { type Rng, ZipfSampler } from './random.js';
import { capitalize, pseudoWord } from './words.js';

export interface NodeName {
  name: string;
  /** Index into BODY_SITES (or -1). */
  site: number;
  /** Index into the model's head list (or -1). */
  head: number;
}

export interface NameModel {
  /** Names of the roots and of the first level below them (`k` counts nodes of that level). */
  top(rng: Rng, level: number, k: number): NodeName;
  child(rng: Rng, parent: NodeName, level: number): NodeName;
}

const MAX_DERIVED = 88;

const zSites = new ZipfSampler(L.BODY_SITES.length, 0.95);
const zHeads = new ZipfSampler(L.CONDITION_HEADS.length, 1.05);
const zQual = new ZipfSampler(L.QUALIFIERS.length, 1.0);
const zCause = new ZipfSampler(L.CAUSES.length, 0.9);
const zCompl = new ZipfSampler(L.COMPLICATIONS.length, 0.9);
const zStage = new ZipfSampler(L.STAGES.length, 0.9);
const zProc = new ZipfSampler(L.PROCEDURE_HEADS.length, 1.0);
const zProcQ = new ZipfSampler(L.PROCEDURE_QUALIFIERS.length, 1.0);
const zProcDev = new ZipfSampler(L.PROCEDURE_DEVICES.length, 0.9);
const zDev = new ZipfSampler(L.DEVICE_NOUNS.length, 0.9);
const zMat = new ZipfSampler(L.DEVICE_MATERIALS.length, 0.9);
const zSize = new ZipfSampler(L.SIZES.length, 0.8);
const zObs = new ZipfSampler(L.OBSERVABLE_NOUNS.length, 1.0);
const zHist = new ZipfSampler(L.HISTORY_PREFIXES.length, 1.1);
const zGenus = new ZipfSampler(L.ORGANISM_GENERA.length, 0.9);
const zEpithet = new ZipfSampler(L.ORGANISM_EPITHETS.length, 0.9);
const zSubstClass = new ZipfSampler(L.SUBSTANCE_CLASSES.length, 0.9);
const zNamed = new ZipfSampler(L.NAMED_DISEASES.length, 0.5);

export const site = (i: number): string => L.BODY_SITES[i]!;

function siteOf(rng: Rng, parentSite: number): number {
  return parentSite >= 0 && rng.chance(0.5) ? parentSite : zSites.sample(rng);
}

const PARENTHESIZED = ['acute', 'chronic', 'left', 'right', 'upper limb', 'lower limb', 'in remission', 'clinical', 'primary', 'secondary', 'trunk', 'head and neck', 'morphology', 'disorder', 'situation'];

// ------------------------------------------------------------------------------------------------

export const conditionModel: NameModel = {
  top(rng, level, k) {
    if (level === 0) return { name: k === 0 ? 'Clinical finding' : `${capitalize(pseudoWord(rng, 2, 3))} finding`, site: -1, head: 0 };
    const branches = L.CONDITION_ROOT_BRANCHES;
    if (k < branches.length) return { name: branches[k]!, site: -1, head: 0 };
    const s = (k - branches.length) % L.BODY_SITES.length;
    const round = Math.floor((k - branches.length) / L.BODY_SITES.length);
    return { name: `${['Disorder', 'Finding', 'Complication', 'Injury'][round % 4]} of ${site(s)}${round >= 4 ? ` (${round})` : ''}`, site: s, head: 0 };
  },
  child(rng, p, level) {
    const r = rng.float();
    const long = p.name.length > MAX_DERIVED - 20;
    if (level >= 2 && level <= 4 && r < 0.06) {
      return { name: L.NAMED_DISEASES[zNamed.sample(rng)]!, site: p.site, head: p.head };
    }
    if (long || r < 0.32 || level <= 2) {
      const h = zHeads.sample(rng);
      const s = siteOf(rng, p.site);
      const head = L.CONDITION_HEADS[h]!;
      if (head.endsWith('itis') || head.endsWith('pathy') || head.endsWith('emia') || head.endsWith('oma')) {
        return { name: rng.chance(0.5) ? `${capitalizeFirst(L.QUALIFIERS[zQual.sample(rng)]!)} ${head}` : `${capitalizeFirst(head)} of ${site(s)}`, site: s, head: h };
      }
      return { name: `${capitalizeFirst(head)} of ${site(s)}`, site: s, head: h };
    }
    if (r < 0.5) return { name: `${capitalizeFirst(L.QUALIFIERS[zQual.sample(rng)]!)} ${lowerFirst(p.name)}`, site: p.site, head: p.head };
    if (r < 0.6) {
      const side = rng.chance(0.5) ? 'left' : 'right';
      return p.site >= 0 && p.name.includes(site(p.site))
        ? { name: p.name.replace(site(p.site), `${side} ${site(p.site)}`), site: p.site, head: p.head }
        : { name: `${p.name} of ${side} ${site(siteOf(rng, p.site))}`, site: p.site, head: p.head };
    }
    if (r < 0.7) return { name: `${p.name} ${rng.chance(0.7) ? 'due to' : 'caused by'} ${L.CAUSES[zCause.sample(rng)]!}`, site: p.site, head: p.head };
    if (r < 0.8) return { name: `${p.name} ${L.COMPLICATIONS[zCompl.sample(rng)]!}`, site: p.site, head: p.head };
    if (r < 0.9) return { name: `${p.name}${rng.chance(0.5) ? ',' : ''} ${L.STAGES[zStage.sample(rng)]!}`, site: p.site, head: p.head };
    return { name: `${p.name} (${rng.pick(PARENTHESIZED)})`, site: p.site, head: p.head };
  },
};

// ------------------------------------------------------------------------------------------------

const PROCEDURE_BRANCHES = [
  'Surgical procedure', 'Imaging', 'Evaluation procedure', 'Therapeutic procedure', 'Laboratory procedure',
  'Administrative procedure', 'Education', 'Procedure by site', 'Procedure by method', 'Regime/therapy',
  'Patient encounter procedure', 'Community health procedure', 'Measurement procedure', 'Diagnostic procedure',
  'Preventive procedure', 'Nursing procedure', 'Rehabilitation therapy', 'Anesthesia procedure', 'Psychotherapy',
  'Dental procedure', 'Obstetric procedure', 'Radiotherapy procedure', 'Transfusion procedure', 'Screening procedure',
];

export const procedureModel: NameModel = {
  top(rng, level, k) {
    if (level === 0) return { name: k === 0 ? 'Procedure' : `${capitalize(pseudoWord(rng, 2, 3))} procedure`, site: -1, head: -1 };
    if (k < PROCEDURE_BRANCHES.length) return { name: PROCEDURE_BRANCHES[k]!, site: -1, head: -1 };
    const s = (k - PROCEDURE_BRANCHES.length) % L.BODY_SITES.length;
    const round = Math.floor((k - PROCEDURE_BRANCHES.length) / L.BODY_SITES.length);
    return { name: `${['Procedure on', 'Operation on', 'Imaging of', 'Examination of'][round % 4]} ${site(s)}${round >= 4 ? ` (${round})` : ''}`, site: s, head: -1 };
  },
  child(rng, p, level) {
    const r = rng.float();
    if (p.name.length > MAX_DERIVED - 20 || r < 0.35 || level <= 2) {
      const h = zProc.sample(rng);
      const s = siteOf(rng, p.site);
      return { name: `${capitalizeFirst(L.PROCEDURE_HEADS[h]!)} of ${site(s)}`, site: s, head: h };
    }
    if (r < 0.55) return { name: `${capitalizeFirst(L.PROCEDURE_QUALIFIERS[zProcQ.sample(rng)]!)} ${lowerFirst(p.name)}`, site: p.site, head: p.head };
    if (r < 0.68) return { name: `${p.name} ${L.PROCEDURE_DEVICES[zProcDev.sample(rng)]!}`, site: p.site, head: p.head };
    if (r < 0.78) return { name: `${p.name} of ${rng.chance(0.5) ? 'left' : 'right'} ${site(siteOf(rng, p.site))}`, site: p.site, head: p.head };
    if (r < 0.88) return { name: `${p.name} for ${L.CONDITION_HEADS[zHeads.sample(rng)]!}`, site: p.site, head: p.head };
    return { name: `${p.name} ${rng.chance(0.3) ? 'with' : 'and'} ${L.PROCEDURE_HEADS[zProc.sample(rng)]!}`, site: p.site, head: p.head };
  },
};

// ------------------------------------------------------------------------------------------------

const STRUCTURE_PARTS = ['Structure of', 'Entire', 'Skin structure of', 'Bone structure of', 'Muscle of', 'Artery of', 'Vein of', 'Nerve of', 'Surface of', 'Region of', 'Wall of', 'Apex of', 'Base of', 'Border of', 'Segment of', 'Joint of', 'Mucosa of', 'Lymphatics of', 'Soft tissue of', 'Subcutaneous tissue of'];
const STRUCTURE_BRANCHES = ['Anatomical structure', 'Body region structure', 'Body system structure', 'Cell structure', 'Tissue structure', 'Anatomical organizational pattern', 'Physical anatomical entity', 'Anatomical or acquired body structure', 'Embryological structure', 'Topographic structure'];

export const bodyStructureModel: NameModel = {
  top(rng, level, k) {
    if (level === 0) return { name: k === 0 ? 'Body structure' : `${capitalize(pseudoWord(rng, 2, 3))} structure`, site: -1, head: -1 };
    if (k < STRUCTURE_BRANCHES.length) return { name: STRUCTURE_BRANCHES[k]!, site: -1, head: -1 };
    const s = (k - STRUCTURE_BRANCHES.length) % L.BODY_SITES.length;
    return { name: `${STRUCTURE_PARTS[Math.floor((k - STRUCTURE_BRANCHES.length) / L.BODY_SITES.length) % STRUCTURE_PARTS.length]} ${site(s)}`, site: s, head: -1 };
  },
  child(rng, p) {
    const r = rng.float();
    const s = siteOf(rng, p.site);
    if (p.name.length > 70 || r < 0.5) return { name: `${rng.pick(STRUCTURE_PARTS)} ${site(s)}`, site: s, head: -1 };
    if (r < 0.75) return { name: `${capitalizeFirst(rng.pick(['left', 'right', 'upper', 'lower', 'anterior', 'posterior', 'medial', 'lateral', 'superior', 'inferior', 'proximal', 'distal']))} ${lowerFirst(p.name)}`, site: p.site, head: -1 };
    return { name: `${rng.pick(STRUCTURE_PARTS)} ${lowerFirst(p.name.replace(/^(Structure of|Entire) /, ''))}`, site: p.site, head: -1 };
  },
};

// ------------------------------------------------------------------------------------------------

const TAXA = ['Kingdom', 'Phylum', 'Class', 'Order', 'Family', 'Genus'];

export const organismModel: NameModel = {
  top(rng, level, k) {
    if (level === 0) return { name: k === 0 ? 'Organism' : `${capitalize(pseudoWord(rng, 2, 3))} organism`, site: -1, head: -1 };
    return this.child(rng, { name: 'Organism', site: -1, head: -1 }, level);
  },
  child(rng, p, level) {
    // deep narrow chains: kingdom → phylum → class → order → family → genus → species → strain
    if (level <= 5) {
      const w = capitalize(pseudoWord(rng, 2, 3));
      const suffix = level === 4 ? 'ales' : level === 5 ? 'aceae' : '';
      return { name: `${TAXA[level]!} ${w}${suffix}`, site: -1, head: -1 };
    }
    if (level === 6) return { name: `Genus ${L.ORGANISM_GENERA[zGenus.sample(rng)]!}${rng.chance(0.5) ? '' : ` ${pseudoWord(rng, 1, 2)}`}`, site: -1, head: zGenus.sample(rng) };
    const genus = p.name.startsWith('Genus ') ? p.name.slice(6).split(' ')[0]! : p.name.split(' ')[0]!;
    if (level === 7) return { name: `${genus} ${rng.chance(0.6) ? L.ORGANISM_EPITHETS[zEpithet.sample(rng)]! : pseudoWord(rng, 2, 3)}`, site: -1, head: -1 };
    const base = p.name.split(' serotype')[0]!.split(' strain')[0]!;
    const r = rng.float();
    if (r < 0.4) return { name: `${base} serotype ${rng.range(1, 99)}${rng.chance(0.3) ? String.fromCharCode(65 + rng.int(6)) : ''}`, site: -1, head: -1 };
    if (r < 0.7) return { name: `${base} strain ${pseudoWord(rng, 1, 1).toUpperCase()}${rng.range(1, 9999)}`, site: -1, head: -1 };
    if (r < 0.85) return { name: `${base} subsp. ${pseudoWord(rng, 2, 3)}`, site: -1, head: -1 };
    return { name: `${rng.chance(0.5) ? 'Multidrug resistant' : 'Toxigenic'} ${base}`, site: -1, head: -1 };
  },
};

// ------------------------------------------------------------------------------------------------

const SUBSTANCE_BRANCHES = ['Drug or medicament', 'Biological substance', 'Chemical', 'Allergen or pseudoallergen', 'Dietary substance', 'Body substance', 'Substance categorized functionally', 'Substance categorized structurally', 'Environmental substance', 'Cosmetic material'];

export const substanceModel: NameModel = {
  top(rng, level, k) {
    if (level === 0) return { name: k === 0 ? 'Substance' : `${capitalize(pseudoWord(rng, 2, 3))} substance`, site: -1, head: -1 };
    if (k < SUBSTANCE_BRANCHES.length) return { name: SUBSTANCE_BRANCHES[k]!, site: -1, head: -1 };
    return { name: `${capitalizeFirst(L.SUBSTANCE_CLASSES[zSubstClass.sample(rng)]!)}`, site: -1, head: -1 };
  },
  child(rng, p) {
    const r = rng.float();
    const cls = L.SUBSTANCE_CLASSES[zSubstClass.sample(rng)]!;
    if (r < 0.45) return { name: `${capitalize(pseudoWord(rng, 2, 4))} ${cls}`, site: -1, head: -1 };
    if (r < 0.65) return { name: `${capitalize(pseudoWord(rng, 2, 4))} ${rng.pick(L.SUBSTANCE_SUFFIXES)}`, site: -1, head: -1 };
    if (r < 0.8) return { name: `${lowerFirst(p.name).length < 50 ? capitalizeFirst(p.name) + ' ' : ''}${pseudoWord(rng, 2, 3)} ${cls}`.trim(), site: -1, head: -1 };
    return { name: `Antibody to ${L.ORGANISM_GENERA[zGenus.sample(rng)]!} ${L.ORGANISM_EPITHETS[zEpithet.sample(rng)]!}`, site: -1, head: -1 };
  },
};

// ------------------------------------------------------------------------------------------------

export const observableModel: NameModel = {
  top(rng, level, k) {
    if (level === 0) return { name: 'Observable entity', site: -1, head: -1 };
    const branches = ['Clinical history/examination observable', 'Vital sign', 'Laboratory observable', 'Functional observable', 'Feature of entity', 'Process observable', 'Prognostic score', 'Device observable'];
    return { name: branches[k] ?? `${capitalizeFirst(L.OBSERVABLE_NOUNS[zObs.sample(rng)]!)} observable`, site: -1, head: -1 };
  },
  child(rng, p) {
    const r = rng.float();
    const s = siteOf(rng, p.site);
    if (p.name.length > 60 || r < 0.5) return { name: `${capitalizeFirst(site(s))} ${L.OBSERVABLE_NOUNS[zObs.sample(rng)]!}`, site: s, head: -1 };
    if (r < 0.75) return { name: `${rng.pick(['Systolic', 'Diastolic', 'Mean', 'Average', 'Maximum', 'Minimum', 'Baseline', 'Resting', 'Estimated', 'Measured', 'Calculated'])} ${lowerFirst(p.name)}`, site: p.site, head: -1 };
    return { name: `${p.name} ${rng.pick(['at rest', 'on exertion', 'in 24 hours', '- left', '- right', 'during pregnancy', 'at birth', 'at discharge', 'by self-report'])}`, site: p.site, head: -1 };
  },
};

// ------------------------------------------------------------------------------------------------

const QUALIFIER_BRANCHES = ['Severities', 'Laterality', 'Clinical course', 'Units', 'General descriptor', 'Result', 'Site qualifier', 'Stage/grade', 'Time patterns', 'Numbers', 'Colors', 'Frequency', 'Action', 'Route of administration', 'Language', 'Priority', 'Intent'];

export const qualifierModel: NameModel = {
  top(rng, level, k) {
    if (level === 0) return { name: 'Qualifier value', site: -1, head: -1 };
    return { name: QUALIFIER_BRANCHES[k] ?? `${capitalize(pseudoWord(rng, 2, 3))} value`, site: -1, head: -1 };
  },
  child(rng, p) {
    const r = rng.float();
    if (r < 0.4) return { name: capitalizeFirst(L.QUALIFIERS[zQual.sample(rng)]!), site: -1, head: -1 };
    if (r < 0.55) return { name: `${rng.pick(['Grade', 'Stage', 'Level', 'Class', 'Type', 'Score'])} ${rng.range(0, 12)}${rng.chance(0.2) ? String.fromCharCode(97 + rng.int(3)) : ''}`, site: -1, head: -1 };
    if (r < 0.7) return { name: `${rng.pick(['Every', 'Once every', 'Twice every'])} ${rng.range(1, 72)} ${rng.pick(['hours', 'days', 'weeks', 'months'])}`, site: -1, head: -1 };
    if (r < 0.8) return { name: `Via ${site(zSites.sample(rng))}`, site: -1, head: -1 };
    if (r < 0.9) return { name: `${capitalize(pseudoWord(rng, 2, 3))} ${lowerFirst(p.name)}`.slice(0, 80), site: -1, head: -1 };
    return { name: `${capitalize(pseudoWord(rng, 2, 4))}`, site: -1, head: -1 };
  },
};

// ------------------------------------------------------------------------------------------------

export const physicalObjectModel: NameModel = {
  top(rng, level, k) {
    if (level === 0) return { name: 'Physical object', site: -1, head: -1 };
    const branches = ['Device', 'Drug delivery device', 'Surgical instrument', 'Implant', 'Home furnishings', 'Vehicle', 'Prosthesis', 'Dressing', 'Orthopedic device', 'Monitoring device', 'Assistive device', 'Laboratory device'];
    return { name: branches[k] ?? `${capitalizeFirst(L.DEVICE_NOUNS[zDev.sample(rng)]!)}`, site: -1, head: -1 };
  },
  child(rng, p) {
    const r = rng.float();
    const noun = L.DEVICE_NOUNS[zDev.sample(rng)]!;
    if (p.name.length > 60 || r < 0.45) return { name: `${capitalizeFirst(L.DEVICE_MATERIALS[zMat.sample(rng)]!)} ${noun}`, site: -1, head: -1 };
    if (r < 0.7) return { name: `${p.name}, ${L.SIZES[zSize.sample(rng)]!}`, site: -1, head: -1 };
    if (r < 0.85) return { name: `${capitalizeFirst(site(zSites.sample(rng)))} ${noun}`, site: -1, head: -1 };
    return { name: `${capitalizeFirst(L.DEVICE_MATERIALS[zMat.sample(rng)]!)} ${lowerFirst(p.name)}`, site: -1, head: -1 };
  },
};

// ------------------------------------------------------------------------------------------------

export const contextModel: NameModel = {
  top(rng, level, k) {
    if (level === 0) return { name: 'Situation with explicit context', site: -1, head: -1 };
    const h = L.HISTORY_PREFIXES[k] ?? L.HISTORY_PREFIXES[zHist.sample(rng)]!;
    return { name: `${h} clinical finding`, site: -1, head: -1 };
  },
  child(rng, p) {
    const prefix = p.name.split(' ').slice(0, p.name.startsWith('Family') || p.name.startsWith('No history') || p.name.startsWith('At risk') || p.name.startsWith('Fear') || p.name.startsWith('Personal') || p.name.startsWith('Past') || p.name.startsWith('Under') || p.name.startsWith('Seen') || p.name.startsWith('Not at') ? 3 : 2).join(' ');
    const s = zSites.sample(rng);
    const r = rng.float();
    if (r < 0.6) return { name: `${prefix} ${L.CONDITION_HEADS[zHeads.sample(rng)]!} of ${site(s)}`, site: s, head: -1 };
    if (r < 0.85) return { name: `${prefix} ${L.QUALIFIERS[zQual.sample(rng)]!} ${L.CONDITION_HEADS[zHeads.sample(rng)]!}`, site: s, head: -1 };
    return { name: `${prefix} ${L.PROCEDURE_HEADS[zProc.sample(rng)]!} of ${site(s)}`, site: s, head: -1 };
  },
};

// ------------------------------------------------------------------------------------------------

export const morphologyModel: NameModel = {
  top(_rng, level, k) {
    if (level === 0) return { name: 'Morphologically abnormal structure', site: -1, head: -1 };
    return { name: capitalizeFirst(L.CONDITION_HEADS[k % L.CONDITION_HEADS.length]!), site: -1, head: k % L.CONDITION_HEADS.length };
  },
  child(rng, p) {
    const r = rng.float();
    const head = p.head >= 0 ? L.CONDITION_HEADS[p.head]! : L.CONDITION_HEADS[zHeads.sample(rng)]!;
    if (r < 0.5) return { name: `${capitalizeFirst(L.QUALIFIERS[zQual.sample(rng)]!)} ${head}`, site: -1, head: p.head };
    if (r < 0.8) return { name: `${capitalizeFirst(head)}, ${L.QUALIFIERS[zQual.sample(rng)]!}`, site: -1, head: p.head };
    return { name: `${capitalize(pseudoWord(rng, 2, 3))} ${head}`, site: -1, head: p.head };
  },
};

// ------------------------------------------------------------------------------------------------

/** Small SNOMED classes: a root, branches from a word list, leaves from two word lists. */
export function genericModel(root: string, branches: readonly string[], leafA: readonly string[], leafB: readonly string[]): NameModel {
  const zA = new ZipfSampler(leafA.length, 0.9);
  const zB = new ZipfSampler(leafB.length, 0.9);
  return {
    top(rng, level, k) {
      if (level === 0) return { name: root, site: -1, head: -1 };
      return { name: branches[k] ?? `${capitalize(pseudoWord(rng, 2, 3))} ${leafB[zB.sample(rng)]!}`, site: -1, head: -1 };
    },
    child(rng, p) {
      const r = rng.float();
      if (r < 0.5 || p.name.length > 60) return { name: `${capitalizeFirst(leafA[zA.sample(rng)]!)} ${leafB[zB.sample(rng)]!}`, site: -1, head: -1 };
      if (r < 0.8) return { name: `${capitalize(pseudoWord(rng, 2, 3))} ${lowerFirst(p.name)}`, site: -1, head: -1 };
      return { name: `${p.name} ${rng.pick(['type', 'variant', 'category', 'subtype'])} ${rng.range(1, 40)}`, site: -1, head: -1 };
    },
  };
}

const SOCIAL = ['person', 'family member', 'worker', 'occupation', 'ethnic group', 'religion', 'lifestyle', 'economic status', 'community', 'caregiver', 'household', 'relationship', 'employee', 'student', 'volunteer'];
const PLACES = ['hospital', 'clinic', 'home', 'school', 'workplace', 'residential care', 'region', 'country', 'city', 'ward', 'unit', 'laboratory', 'pharmacy', 'prison', 'shelter', 'farm', 'factory'];
const EVENTS = ['accident', 'fall', 'exposure', 'assault', 'collision', 'poisoning', 'drowning', 'fire', 'explosion', 'injury', 'overexertion', 'bite', 'sting', 'contact', 'incident'];
const RECORDS = ['report', 'document', 'note', 'record', 'summary', 'letter', 'form', 'certificate', 'plan', 'referral', 'request', 'result'];
const SPECIMENS = ['specimen', 'sample', 'swab', 'biopsy specimen', 'aspirate', 'fluid specimen', 'tissue specimen', 'washings', 'scrapings', 'brushings'];
const SCALES = ['score', 'scale', 'staging system', 'grading system', 'index', 'classification', 'assessment tool', 'questionnaire'];
const ADMIN = ['status', 'flag', 'indicator', 'code', 'category', 'reference set', 'module', 'namespace', 'attribute', 'value'];

export function smallClassModel(cls: string): NameModel {
  const sites = L.BODY_SITES.slice(0, 80);
  switch (cls) {
    case 'Event': return genericModel('Event', ['Accident', 'Exposure to substance', 'Injury event', 'Environmental event', 'Transport accident'], [...L.QUALIFIERS.slice(0, 30), 'motor vehicle', 'bicycle', 'domestic', 'occupational', 'sports'], EVENTS);
    case 'Social Context': return genericModel('Social context', ['Person', 'Occupation', 'Ethnic group', 'Religion AND/OR philosophy', 'Economic status', 'Family'], [...L.QUALIFIERS.slice(0, 20), 'health care', 'agricultural', 'industrial', 'retired', 'unemployed', 'self-employed'], SOCIAL);
    case 'Location': return genericModel('Environment or geographical location', ['Environment', 'Geographical and/or political region of the world', 'Health care facility', 'Residential institution'], [...L.QUALIFIERS.slice(0, 20), 'acute care', 'long-term care', 'rural', 'urban', 'private', 'public', 'psychiatric', 'pediatric'], PLACES);
    case 'Specimen': return genericModel('Specimen', ['Specimen from body site', 'Blood specimen', 'Urine specimen', 'Tissue specimen', 'Microbial isolate'], [...sites, 'blood', 'urine', 'cerebrospinal fluid', 'sputum', 'stool'], SPECIMENS);
    case 'Staging / Scales': return genericModel('Staging and scales', ['Assessment scales', 'Tumor staging', 'Grading systems'], [...L.INSTRUMENTS, ...sites.slice(0, 30)], SCALES);
    case 'Record Artifact': return genericModel('Record artifact', ['Clinical document', 'Administrative record', 'Patient-held record'], [...L.PROCEDURE_HEADS.slice(0, 40), 'discharge', 'admission', 'transfer', 'consultation', 'operative', 'pathology', 'radiology'], RECORDS);
    case 'Attribute': return genericModel('Concept model attribute', ['Concept model object attribute', 'Concept model data attribute'], ['has', 'direct', 'indirect', 'associated', 'procedure', 'finding', 'specimen', 'using', 'access'], ADMIN);
    case 'Model Comp': return genericModel('SNOMED CT Model Component', ['Core metadata concept', 'Foundation metadata concept', 'Reference set', 'Module'], ['description', 'refset', 'language', 'association', 'attribute value', 'map', 'simple', 'ordered'], ADMIN);
    case 'Namespace Concept': return genericModel('Namespace concept', ['Extension Namespace'], ['Extension Namespace 1000', 'National Release Center', 'Organisation', 'Affiliate'], ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'].map((d) => `${d}00${d}`));
    case 'Navi Concept': return genericModel('Navigational concept', ['Findings by site', 'Procedures by site', 'Disorders by body system'], [...L.CONDITION_HEADS.slice(0, 40), ...L.PROCEDURE_HEADS.slice(0, 30)], ['(navigational concept)', 'by site', 'by method', 'by type', 'by body system']);
    case 'Disposition': return genericModel('Disposition', ['Chemical disposition', 'Physiological disposition'], ['antagonist', 'agonist', 'inhibitor', 'modulator', 'blocker', 'activator'], ['disposition', 'receptor', 'enzyme', 'channel', 'transporter']);
    case 'Physical Force': return genericModel('Physical force', ['Mechanical force', 'Electricity', 'Radiation', 'Heat', 'Pressure'], ['ionizing', 'non-ionizing', 'thermal', 'kinetic', 'electromagnetic', 'acoustic', 'barometric'], ['force', 'energy', 'radiation', 'wave', 'current', 'field']);
    case 'Admin Concept': return genericModel('Administrative concept', ['Administrative statuses'], ['active', 'inactive', 'pending', 'limited', 'erroneous', 'ambiguous', 'outdated'], ADMIN);
    default: return genericModel('Linkage concept', ['Link assertion', 'Attribute'], ['has', 'is', 'link', 'association'], ADMIN);
  }
}
