/**
 * The reference tables of the synthetic release (DOMAIN, RELATIONSHIP, CONCEPT_CLASS, VOCABULARY): the rows the
 * generator uses are written by hand with the real release's flags, the rest filled with deterministic, plausible
 * rows so the table sizes match the August 2025 release; nothing depends on the seed.
 */

const TARGET_RELATIONSHIPS = 722;
const TARGET_CONCEPT_CLASSES = 433;

// ---------------------------------------------------------------------------------------------
// Domains

const DOMAIN_NAMES = [
  'Gender', 'Race', 'Ethnicity', 'Metadata', 'Visit', 'Procedure', 'Drug', 'Unit', 'Device', 'Condition',
  'Measurement', 'Observation', 'Meas Value', 'Spec Anatomic Site', 'Specimen', 'Type Concept', 'Relationship',
  'Provider', 'Location', 'Care Site', 'Payer', 'Plan', 'Sponsor', 'Cost', 'Revenue Code', 'Episode', 'Regimen',
  'Route', 'Currency', 'Language', 'Geography', 'Note', 'Place of Service', 'Spec Disease Status',
  'Meas Value Operator', 'Condition Status', 'Condition/Device', 'Condition/Meas', 'Condition/Obs',
  'Condition/Procedure', 'Device/Drug', 'Device/Procedure', 'Drug/Procedure', 'Meas/Procedure',
  'Obs/Procedure', 'Plan Stop Reason', 'Visit Detail', 'Survey', 'Specimen Type', 'Death Type',
] as const;

interface DomainRow {
  domain_id: string;
  domain_name: string;
  domain_concept_id: number;
}

export const DOMAINS: DomainRow[] = DOMAIN_NAMES.map((id, i) => ({
  domain_id: id,
  domain_name: id === 'Spec Anatomic Site' ? 'Specimen Anatomic Site' : id === 'Meas Value' ? 'Measurement Value' : id,
  domain_concept_id: i + 1,
}));

const DOMAIN_INDEX = new Map(DOMAINS.map((d, i) => [d.domain_id, i] as const));

export function domainIndex(id: string): number {
  const i = DOMAIN_INDEX.get(id);
  if (i === undefined) throw new Error(`unknown domain ${id}`);
  return i;
}

// ---------------------------------------------------------------------------------------------
// Relationships

interface RelationshipRow {
  relationship_id: string;
  relationship_name: string;
  is_hierarchical: '0' | '1';
  defines_ancestry: '0' | '1';
  reverse_relationship_id: string;
  relationship_concept_id: number;
}

/** [id, name, hier, ancestry, reverse id, reverse name, reverse hier, reverse ancestry] */
type Pair = [string, string, 0 | 1, 0 | 1, string, string, 0 | 1, 0 | 1];

/**
 * Relationship pairs used by the generator. `defines_ancestry = 1` marks the direction
 * ancestor → descendant; CONCEPT_ANCESTOR is the closure of those rows among valid standard and
 * classification concepts, and each step adds `is_hierarchical` to the levels of separation
 * (so `Has tradename` or `Has quantified form` steps add 0, as in the real drug hierarchy).
 */
const CORE_PAIRS: Pair[] = [
  ['Maps to', 'Non-standard to Standard map (OMOP)', 0, 0, 'Mapped from', 'Standard to Non-standard map (OMOP)', 0, 0],
  ['Maps to value', 'Non-standard to value_as_concept map (OMOP)', 0, 0, 'Value mapped from', 'Value_as_concept to Non-standard map (OMOP)', 0, 0],
  ['Maps to unit', 'Non-standard to unit concept map (OMOP)', 0, 0, 'Unit mapped from', 'Unit concept to Non-standard map (OMOP)', 0, 0],
  ['Is a', 'Is a', 0, 0, 'Subsumes', 'Subsumes', 1, 1],
  ['Concept replaced by', 'Concept replaced by', 0, 0, 'Concept replaces', 'Concept replaces', 0, 0],
  ['Concept was_a to', 'Inactive was_a active (SNOMED)', 0, 0, 'Concept was_a from', 'Active was_a inactive (SNOMED)', 0, 0],
  ['Concept poss_eq to', 'Inactive possibly_equivalent_to active (SNOMED)', 0, 0, 'Concept poss_eq from', 'Active possibly_equivalent_to inactive (SNOMED)', 0, 0],
  ['Concept same_as to', 'Inactive same_as active (SNOMED)', 0, 0, 'Concept same_as from', 'Active same_as inactive (SNOMED)', 0, 0],
  ['RxNorm has ing', 'Has ingredient (RxNorm)', 1, 0, 'RxNorm ing of', 'Ingredient of (RxNorm)', 1, 1],
  ['Consists of', 'Consists of (RxNorm)', 1, 0, 'Constitutes', 'Constitutes (RxNorm)', 1, 1],
  ['RxNorm is a', 'Is a (RxNorm)', 0, 0, 'RxNorm inverse is a', 'Inverse is a (RxNorm)', 1, 1],
  ['Tradename of', 'Tradename of (RxNorm)', 0, 0, 'Has tradename', 'Has tradename (RxNorm)', 0, 1],
  ['Quantified form of', 'Quantified form of (RxNorm)', 0, 0, 'Has quantified form', 'Has quantified form (RxNorm)', 0, 1],
  ['Box of', 'Prepackaged box of (OMOP)', 1, 0, 'Available as box', 'Is available in a prepackaged box (OMOP)', 1, 1],
  ['Marketed form of', 'Marketed form of (OMOP)', 1, 0, 'Has marketed form', 'Has marketed form (OMOP)', 1, 1],
  ['Has brand name', 'Has brand name (OMOP)', 1, 0, 'Brand name of', 'Brand name of (OMOP)', 1, 0],
  ['Has supplier', 'Has supplier or manufacturer (OMOP)', 0, 0, 'Supplier of', 'Supplier or manufacturer of (OMOP)', 0, 0],
  ['RxNorm has dose form', 'Has dose form (RxNorm)', 1, 0, 'RxNorm dose form of', 'Dose form of (RxNorm)', 1, 0],
  ['Has dose form group', 'Has dose form group (RxNorm)', 1, 0, 'Dose form group of', 'Dose form group of (RxNorm)', 1, 1],
  ['Precise ing of', 'Precise ingredient of (RxNorm)', 0, 0, 'Has precise ing', 'Has precise ingredient (RxNorm)', 0, 0],
  ['Contained in', 'Is contained in (RxNorm)', 1, 1, 'Contains', 'Contains (RxNorm)', 1, 0],
  ['RxNorm - ATC', 'RxNorm to ATC (RxNorm)', 0, 0, 'ATC - RxNorm', 'ATC to RxNorm (OMOP)', 1, 1],
  ['Has component', 'Has component', 0, 0, 'Component of', 'Component of', 0, 0],
  ['Has property', 'Has property', 0, 0, 'Property of', 'Property of', 0, 0],
  ['Has time aspect', 'Has time aspect', 0, 0, 'Time aspect of', 'Time aspect of', 0, 0],
  ['Has system', 'Has system', 0, 0, 'System of', 'System of', 0, 0],
  ['Has scale type', 'Has scale type', 0, 0, 'Scale type of', 'Scale type of', 0, 0],
  ['Has method', 'Has method', 0, 0, 'Method of', 'Method of', 0, 0],
  ['Has Answer', 'Has Answer', 0, 0, 'Answer of', 'Answer of', 0, 0],
  ['Contained in panel', 'Contained in panel', 0, 0, 'Panel contains', 'Panel contains', 1, 1],
  ['Has Histology ICDO', 'Has Histology ICDO', 0, 0, 'Histology of ICDO', 'Histology of ICDO', 0, 0],
  ['Has Topography ICDO', 'Has Topography ICDO', 0, 0, 'Topography of ICDO', 'Topography of ICDO', 0, 0],
  ['Is transcribed from', 'mRNA is transcribed from genomic DNA', 0, 0, 'Transcribes to', 'Genomic DNA transcribes to mRNA', 1, 1],
  ['Is translated from', 'Protein is translated from mRNA', 0, 0, 'Translates to', 'mRNA Translates to protein', 1, 1],
  ['Has finding site', 'Has finding site (SNOMED)', 0, 0, 'Finding site of', 'Finding site of (SNOMED)', 0, 0],
  ['Has asso morph', 'Has associated morphology (SNOMED)', 0, 0, 'Asso morph of', 'Associated morphology of (SNOMED)', 0, 0],
  ['Has causative agent', 'Has causative agent (SNOMED)', 0, 0, 'Causative agent of', 'Causative agent of (SNOMED)', 0, 0],
  ['Has pathology', 'Has pathological process (SNOMED)', 0, 0, 'Pathology of', 'Pathological process of (SNOMED)', 0, 0],
  ['Has clinical course', 'Has clinical course (SNOMED)', 0, 0, 'Clinical course of', 'Clinical course of (SNOMED)', 0, 0],
  ['Has severity', 'Has severity (SNOMED)', 0, 0, 'Severity of', 'Severity of (SNOMED)', 0, 0],
  ['Has interprets', 'Has interprets (SNOMED)', 0, 0, 'Interprets of', 'Interprets of (SNOMED)', 0, 0],
  ['Has interpretation', 'Has interpretation (SNOMED)', 0, 0, 'Interpretation of', 'Interpretation of (SNOMED)', 0, 0],
  ['Has due to', 'Has due to (SNOMED)', 0, 0, 'Due to of', 'Due to of (SNOMED)', 0, 0],
  ['Has occurrence', 'Has occurrence (SNOMED)', 0, 0, 'Occurrence of', 'Occurrence of (SNOMED)', 0, 0],
  ['Has laterality', 'Has laterality (SNOMED)', 0, 0, 'Laterality of', 'Laterality of (SNOMED)', 0, 0],
  ['Has dir proc site', 'Has direct procedure site (SNOMED)', 0, 0, 'Dir proc site of', 'Direct procedure site of (SNOMED)', 0, 0],
  ['Has indir proc site', 'Has indirect procedure site (SNOMED)', 0, 0, 'Indir proc site of', 'Indirect procedure site of (SNOMED)', 0, 0],
  ['Has proc site', 'Has procedure site (SNOMED)', 0, 0, 'Proc site of', 'Procedure site of (SNOMED)', 0, 0],
  ['Has dir device', 'Has direct device (SNOMED)', 0, 0, 'Dir device of', 'Direct device of (SNOMED)', 0, 0],
  ['Using device', 'Using device (SNOMED)', 0, 0, 'Device used by', 'Device used by (SNOMED)', 0, 0],
  ['Has dir subst', 'Has direct substance (SNOMED)', 0, 0, 'Dir subst of', 'Direct substance of (SNOMED)', 0, 0],
  ['Using subst', 'Using substance (SNOMED)', 0, 0, 'Subst used by', 'Substance used by (SNOMED)', 0, 0],
  ['Has focus', 'Has focus (SNOMED)', 0, 0, 'Focus of', 'Focus of (SNOMED)', 0, 0],
  ['Has priority', 'Has priority (SNOMED)', 0, 0, 'Priority of', 'Priority of (SNOMED)', 0, 0],
  ['Has access', 'Has access (SNOMED)', 0, 0, 'Access of', 'Access of (SNOMED)', 0, 0],
  ['Has surgical appr', 'Has surgical approach (SNOMED)', 0, 0, 'Surg appr of', 'Surgical approach of (SNOMED)', 0, 0],
  ['Has proc morph', 'Has procedure morphology (SNOMED)', 0, 0, 'Proc morph of', 'Procedure morphology of (SNOMED)', 0, 0],
  ['Has active ing', 'Has active ingredient (SNOMED)', 0, 0, 'Active ing of', 'Active ingredient of (SNOMED)', 0, 0],
  ['Has dose form', 'Has dose form (SNOMED)', 0, 0, 'Dose form of', 'Dose form of (SNOMED)', 0, 0],
  ['Has inherent loc', 'Has inherent location (SNOMED)', 0, 0, 'Inherent location of', 'Inherent location of (SNOMED)', 0, 0],
  ['Has specimen', 'Has specimen (SNOMED)', 0, 0, 'Specimen of', 'Specimen of (SNOMED)', 0, 0],
  ['Has specimen source', 'Has specimen source identity (SNOMED)', 0, 0, 'Specimen identity of', 'Specimen source identity of (SNOMED)', 0, 0],
  ['Has temporal context', 'Has temporal context (SNOMED)', 0, 0, 'Temporal context of', 'Temporal context of (SNOMED)', 0, 0],
  ['Has relat context', 'Has subject relationship context (SNOMED)', 0, 0, 'Relat context of', 'Subject relationship context of (SNOMED)', 0, 0],
  ['Has finding context', 'Has finding context (SNOMED)', 0, 0, 'Finding context of', 'Finding context of (SNOMED)', 0, 0],
  ['Has asso finding', 'Has associated finding (SNOMED)', 0, 0, 'Asso finding of', 'Associated finding of (SNOMED)', 0, 0],
  ['Has proc context', 'Has procedure context (SNOMED)', 0, 0, 'Proc context of', 'Procedure context of (SNOMED)', 0, 0],
  ['Has intent', 'Has intent (SNOMED)', 0, 0, 'Intent of', 'Intent of (SNOMED)', 0, 0],
  ['Has measured comp', 'Has measured component (SNOMED)', 0, 0, 'Measured comp of', 'Measured component of (SNOMED)', 0, 0],
  ['Has part of', 'Has part of (SNOMED)', 0, 0, 'Part of', 'Part of (SNOMED)', 0, 0],
];

/** Vocabulary tags used to fill the RELATIONSHIP and CONCEPT_CLASS tables up to their real sizes. */
const FILLER_VOCABS = [
  'SNOMED', 'LOINC', 'RxNorm', 'ICD10CM', 'ICD10', 'ICD9CM', 'ICD9Proc', 'ICD10PCS', 'CPT4', 'HCPCS', 'NDC', 'SPL',
  'MedDRA', 'MeSH', 'NDFRT', 'MED-RT', 'VA Class', 'VANDF', 'ATC', 'EphMRA ATC', 'HemOnc', 'NAACCR', 'Cancer Modifier',
  'CIEL', 'OPCS4', 'KCD7', 'CIM10', 'ICD10GM', 'ICD10CN', 'OncoTree', 'CDISC', 'Nebraska Lexicon', 'PPI', 'UK Biobank',
  'GGR', 'JMDC', 'BDPM', 'AMT', 'DPD', 'LPD_Australia', 'OMOP Extension', 'CGI', 'CIViC', 'ClinVar', 'JAX', 'NCIt',
  'CVX', 'Multum', 'Gemscript', 'dm+d', 'Read', 'OXMIS', 'ICDO3', 'NUCC', 'CMS Place of Service', 'DRG', 'MDC',
  'APC', 'Revenue Code', 'UB04 Typ bill', 'ABMS', 'Medicare Specialty', 'OSM', 'SNOMED Veterinary', 'ISBT', 'ISBT Attribute',
];

const RELATIONSHIP_CONCEPT_BASE = 44818500;

function buildRelationships(): RelationshipRow[] {
  const rows: RelationshipRow[] = [];
  const seen = new Set<string>();
  const add = (p: Pair): void => {
    if (seen.has(p[0]) || seen.has(p[4])) throw new Error(`duplicate relationship ${p[0]}`);
    seen.add(p[0]);
    seen.add(p[4]);
    rows.push({
      relationship_id: p[0],
      relationship_name: p[1],
      is_hierarchical: p[2] ? '1' : '0',
      defines_ancestry: p[3] ? '1' : '0',
      reverse_relationship_id: p[4],
      relationship_concept_id: 0,
    });
    rows.push({
      relationship_id: p[4],
      relationship_name: p[5],
      is_hierarchical: p[6] ? '1' : '0',
      defines_ancestry: p[7] ? '1' : '0',
      reverse_relationship_id: p[0],
      relationship_concept_id: 0,
    });
  };
  for (const p of CORE_PAIRS) add(p);
  // Fill with cross-vocabulary equivalence pairs, as the real table has dozens of "X - Y eq" rows.
  outer: for (const kind of ['eq', '', 'cat']) {
    for (let i = 0; i < FILLER_VOCABS.length; i++) {
      for (let j = 0; j < FILLER_VOCABS.length; j++) {
        if (rows.length >= TARGET_RELATIONSHIPS) break outer;
        if (i === j) continue;
        const a = FILLER_VOCABS[i]!;
        const b = FILLER_VOCABS[(i + j) % FILLER_VOCABS.length]!;
        if (a === b) continue;
        const fwd = kind ? `${a} - ${b} ${kind}` : `${a} - ${b}`;
        const rev = kind ? `${b} - ${a} ${kind}` : `${b} - ${a}`;
        if (seen.has(fwd) || seen.has(rev) || fwd.length > 20 || rev.length > 20) continue;
        const what = kind === 'eq' ? 'equivalent' : kind === 'cat' ? 'category' : '';
        add([fwd, `${a} to ${b}${what ? ` ${what}` : ''} (OMOP)`, 0, 0, rev, `${b} to ${a}${what ? ` ${what}` : ''} (OMOP)`, 0, 0]);
      }
    }
  }
  if (rows.length !== TARGET_RELATIONSHIPS) throw new Error(`relationship table has ${rows.length} rows`);
  rows.forEach((r, i) => (r.relationship_concept_id = RELATIONSHIP_CONCEPT_BASE + i));
  return rows;
}

export const RELATIONSHIPS: RelationshipRow[] = buildRelationships();
const RELATIONSHIP_INDEX = new Map(RELATIONSHIPS.map((r, i) => [r.relationship_id, i] as const));

export function relIndex(id: string): number {
  const i = RELATIONSHIP_INDEX.get(id);
  if (i === undefined) throw new Error(`unknown relationship ${id}`);
  return i;
}

/** Index of the reverse relationship of each relationship. */
export const REVERSE_REL: Int16Array = Int16Array.from(RELATIONSHIPS, (r) => relIndex(r.reverse_relationship_id));

// ---------------------------------------------------------------------------------------------
// Concept classes

/** Classes the generator assigns to concepts (must all be in CONCEPT_CLASSES). */
const CORE_CLASSES = [
  // metadata and small vocabularies
  'Domain', 'Vocabulary', 'Concept Class', 'Relationship', 'Gender', 'Race', 'Ethnicity', 'Visit', 'Type Concept', 'Unit',
  // drugs
  'Ingredient', 'Precise Ingredient', 'Brand Name', 'Supplier', 'Dose Form', 'Dose Form Group', 'Multiple Ingredients',
  'Clinical Drug Comp', 'Branded Drug Comp', 'Clinical Drug Form', 'Branded Drug Form', 'Clinical Drug', 'Branded Drug',
  'Quant Clinical Drug', 'Quant Branded Drug', 'Clinical Pack', 'Branded Pack', 'Clinical Drug Box', 'Branded Drug Box',
  'Quant Clinical Box', 'Quant Branded Box', 'Marketed Product',
  'VTM', 'VMP', 'AMP', 'VMPP', 'AMPP', 'Device',
  'ATC 1st', 'ATC 2nd', 'ATC 3rd', 'ATC 4th', 'ATC 5th',
  // SNOMED
  'Clinical Finding', 'Procedure', 'Pharma/Biol Product', 'Substance', 'Body Structure', 'Organism', 'Observable Entity',
  'Qualifier Value', 'Physical Object', 'Context-dependent', 'Morph Abnormality', 'Event', 'Social Context', 'Location',
  'Specimen', 'Staging / Scales', 'Record Artifact', 'Attribute', 'Model Comp', 'Namespace Concept', 'Navi Concept',
  'Disposition', 'Physical Force', 'Admin Concept', 'Linkage Concept',
  // LOINC
  'Lab Test', 'Clinical Observation', 'Survey', 'Answer', 'LOINC Component', 'LOINC System', 'LOINC Method',
  'LOINC Property', 'LOINC Time', 'LOINC Scale', 'LOINC Hierarchy', 'LOINC Group', 'LOINC Class',
  'Doc Kind', 'Doc Role', 'Doc Setting', 'Doc Subject Matter', 'Doc Type of Service',
  // classifications and source vocabularies
  'Read', 'ICDO Condition', 'ICDO Histology', 'ICDO Topography',
  'ICD10 Chapter', 'ICD10 SubChapter', 'ICD10 Hierarchy', 'ICD10 code',
  '3-char nonbill code', '3-char billing code', '4-char nonbill code', '4-char billing code', '5-char nonbill code',
  '5-char billing code', '6-char nonbill code', '6-char billing code', '7-char billing code',
  'HCPCS', 'HCPCS Modifier', 'HCPCS Class', 'CPT4', 'CPT4 Hierarchy', 'CPT4 Modifier',
  'Gene', 'Genomic Variant', 'Transcript Variant', 'Protein Variant',
] as const;

export type CoreClassId = (typeof CORE_CLASSES)[number];

const FILLER_CLASS_LEVELS = [
  'Chapter', 'Category', 'Code', 'Hierarchy', 'Group', 'Class', 'Variable', 'Value', 'Term', 'Schema', 'Section',
  'Level 1', 'Level 2', 'Level 3', 'Level 4', 'Modifier',
];

interface ConceptClassRow {
  concept_class_id: string;
  concept_class_name: string;
  concept_class_concept_id: number;
}

const CONCEPT_CLASS_CONCEPT_BASE = 44819300;

function buildConceptClasses(): ConceptClassRow[] {
  const ids: string[] = [...CORE_CLASSES];
  const seen = new Set<string>(ids);
  outer: for (const level of FILLER_CLASS_LEVELS) {
    for (const vocab of FILLER_VOCABS) {
      if (ids.length >= TARGET_CONCEPT_CLASSES) break outer;
      const id = `${vocab} ${level}`;
      if (id.length > 20 || seen.has(id)) continue;
      seen.add(id);
      ids.push(id);
    }
  }
  if (ids.length !== TARGET_CONCEPT_CLASSES) throw new Error(`concept class table has ${ids.length} rows`);
  const longNames: Record<string, string> = {
    'Clinical Drug Comp': 'Clinical Drug Component',
    'Branded Drug Comp': 'Branded Drug Component',
    'Morph Abnormality': 'Morphologic Abnormality',
    'Pharma/Biol Product': 'Pharmaceutical / biologic product',
    'Navi Concept': 'Navigational Concept',
    'Model Comp': 'Model Component',
    'Staging / Scales': 'Staging and Scales',
    'VTM': 'Virtual Therapeutic Moiety',
    'VMP': 'Virtual Medicinal Product',
    'AMP': 'Actual Medicinal Product',
    'VMPP': 'Virtual Medicinal Product Pack',
    'AMPP': 'Actual Medicinal Product Pack',
  };
  return ids.map((id, i) => ({
    concept_class_id: id,
    concept_class_name: longNames[id] ?? id,
    concept_class_concept_id: CONCEPT_CLASS_CONCEPT_BASE + i,
  }));
}

export const CONCEPT_CLASSES: ConceptClassRow[] = buildConceptClasses();
const CONCEPT_CLASS_INDEX = new Map(CONCEPT_CLASSES.map((c, i) => [c.concept_class_id, i] as const));

export function classIndex(id: CoreClassId): number {
  return CONCEPT_CLASS_INDEX.get(id)!;
}

// ---------------------------------------------------------------------------------------------
// Vocabularies

interface VocabularyRow {
  vocabulary_id: string;
  vocabulary_name: string;
  vocabulary_reference: string;
  vocabulary_version: string;
  vocabulary_concept_id: number;
}

const VOCABULARY_CONCEPT_BASE = 44819800;

/** The release the synthetic data imitates: Athena v5 of 29 August 2025. */
const SYNTH_RELEASE_VERSION = 'v5.0 29-AUG-25';
export const SYNTH_RELEASE_DATE = 20250829;

const VOCAB_DEFS: Array<[string, string, string, string]> = [
  ['None', 'OMOP Standardized Vocabularies', 'OMOP generated', SYNTH_RELEASE_VERSION],
  ['SNOMED', 'Systematic Nomenclature of Medicine - Clinical Terms (IHTSDO)', 'http://www.snomed.org/snomed-ct/get-snomedct', '2025-03-01 SNOMED CT International Edition; 2025-03-01 SNOMED CT US Edition; 2025-04-16 SNOMED CT UK Edition'],
  ['RxNorm', 'RxNorm (NLM)', 'http://www.nlm.nih.gov/research/umls/rxnorm/', 'RxNorm 20250707'],
  ['RxNorm Extension', 'OMOP RxNorm Extension', 'OMOP generated', 'RxNorm Extension 2025-08-27'],
  ['dm+d', 'Dictionary of Medicines and Devices (NHS)', 'https://isd.digital.nhs.uk/trud3/user/guest/group/0/pack/6/subpack/24/releases', 'dm+d Version 7.2.0 20250707'],
  ['OMOP Genomic', 'OMOP Genomic vocabulary of known variants involved in disease', 'OMOP generated', 'OMOP Genomic 20250101'],
  ['LOINC', 'Logical Observation Identifiers Names and Codes (Regenstrief Institute)', 'http://loinc.org/downloads/loinc', 'LOINC 2.80'],
  ['Read', 'NHS UK Read Codes Version 2 (HSCIC)', 'http://www.hscic.gov.uk/article/3643/Read-Codes-and-CTV3', 'NHS READV2 21.0.0 20160401000001 + DATAMIGRATION_25.0.0_20180403000001'],
  ['ICDO3', 'International Classification of Diseases for Oncology, Third Edition (WHO)', 'https://seer.cancer.gov/icd-o-3/', 'ICDO3 SEER Site/Histology Released 06/2020'],
  ['ICD10', 'International Classification of Diseases, Tenth Revision (WHO)', 'http://www.who.int/classifications/icd/icdonlineversions/en/', '2021 Release'],
  ['ICD10CM', 'International Classification of Diseases, Tenth Revision, Clinical Modification (NCHS)', 'https://www.cdc.gov/nchs/icd/icd-10-cm.htm', 'ICD10CM FY2025 code descriptions'],
  ['HCPCS', 'Healthcare Common Procedure Coding System (CMS)', 'http://www.nlm.nih.gov/research/umls/licensedcontent/umlsknowledgesources.html', '2025 Alpha Numeric HCPCS File'],
  ['ATC', 'WHO Anatomic Therapeutic Chemical Classification', 'FDB UK distribution package', 'RxNorm 20250707'],
  ['CPT4', 'Current Procedural Terminology version 4 (AMA)', 'http://www.nlm.nih.gov/research/umls/licensedcontent/umlsknowledgesources.html', '2025 Release'],
  ['UCUM', 'Unified Code for Units of Measure (Regenstrief Institute)', 'http://aurora.regenstrief.org/~ucum/ucum.html#section-Alphabetic-Index', 'Version 1.8.2'],
  ['Gender', 'OMOP Gender', 'OMOP generated', 'Gender 20250227'],
  ['Race', 'Race and Ethnicity Code Set (USBC)', 'http://www.cdc.gov/nchs/data/dvs/Race_Ethnicity_CodeSet.pdf', 'Version 1.0'],
  ['Ethnicity', 'OMOP Ethnicity', 'OMOP generated', 'Ethnicity 20250227'],
  ['Visit', 'OMOP Visit', 'OMOP generated', 'Visit 20250227'],
  ['Type Concept', 'OMOP Type Concept', 'OMOP generated', 'Type Concept 20250227'],
  ['Domain', 'OMOP Domain', 'OMOP generated', 'Domain 20250227'],
  ['Vocabulary', 'OMOP Vocabulary', 'OMOP generated', 'Vocabulary 20250227'],
  ['Concept Class', 'OMOP Concept Class', 'OMOP generated', 'Concept Class 20250227'],
  ['Relationship', 'OMOP Relationship', 'OMOP generated', 'Relationship 20250227'],
];

export const VOCABULARIES: VocabularyRow[] = VOCAB_DEFS.map(([id, name, ref, version], i) => ({
  vocabulary_id: id,
  vocabulary_name: name,
  vocabulary_reference: ref,
  vocabulary_version: version,
  vocabulary_concept_id: VOCABULARY_CONCEPT_BASE + i,
}));

const VOCABULARY_INDEX = new Map(VOCABULARIES.map((v, i) => [v.vocabulary_id, i] as const));

export function vocabIndex(id: string): number {
  const i = VOCABULARY_INDEX.get(id);
  if (i === undefined) throw new Error(`unknown vocabulary ${id}`);
  return i;
}
