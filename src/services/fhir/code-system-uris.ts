/**
 * FHIR code-system URIs and the OMOP vocabularies they name (canonical URIs from HL7 THO, with OIDs and aliases):
 * the resolver turns a system into a vocabulary here, forgiving harmless spelling slips, and the FHIR surface
 * turns it back.
 */
import { typoDistance } from '../../search-model/semantic/lexicon/typo-matching.js';

/** The OMOP concept system (THO NamingSystem OMOP): the code is an OMOP concept_id. */
export const OMOP_CONCEPT_SYSTEM = 'https://fhir-terminology.ohdsi.org';

export interface CodeSystemEntry {
  /** The canonical URI (THO preferred, unless `source` says otherwise). */
  uri: string;
  vocabularyId: string;
  name: string;
  /** Preferred OID; matched as `urn:oid:<oid>` or bare. */
  oid?: string;
  /** Other URIs (and OIDs as `urn:oid:`) of the same codes. */
  aliases: readonly string[];
  /** Where the canonical URI is registered, when not in THO. */
  source?: string;
}

/**
 * ICD-9-CM diagnoses and procedures share THO's `http://hl7.org/fhir/sid/icd-9-cm` (the OIDs
 * differ: .6.103 diagnoses, .6.104 procedures), while OMOP keeps them apart as ICD9CM and
 * ICD9Proc. matchSystem answers ICD9CM for the shared URI; the code's shape tells them apart
 * (procedures have 2 digits before the dot, 88.55; diagnoses 3, 250.00, or a V/E prefix), so a
 * resolver that does not find the code in ICD9CM tries this vocabulary next. tx.fhir.org's
 * `http://hl7.org/fhir/sid/icd-9-proc` and the procedure OID name ICD9Proc alone.
 */
export const ICD9_PROCEDURE_VOCABULARY = 'ICD9Proc';

/** Order matters where two entries share a URI: the first one is the URI's vocabulary (ICD9CM before ICD9Proc). */
export const CODE_SYSTEMS: readonly CodeSystemEntry[] = [
  { uri: 'http://snomed.info/sct', vocabularyId: 'SNOMED', name: 'SNOMED CT', oid: '2.16.840.1.113883.6.96', aliases: [] },
  { uri: 'http://loinc.org', vocabularyId: 'LOINC', name: 'LOINC', oid: '2.16.840.1.113883.6.1', aliases: [] },
  { uri: 'http://www.nlm.nih.gov/research/umls/rxnorm', vocabularyId: 'RxNorm', name: 'RxNorm', oid: '2.16.840.1.113883.6.88', aliases: [] },
  {
    uri: 'http://hl7.org/fhir/sid/icd-10-cm',
    vocabularyId: 'ICD10CM',
    name: 'ICD-10-CM',
    oid: '2.16.840.1.113883.6.90',
    aliases: ['http://terminology.hl7.org/CodeSystem/icd10CM'],
  },
  { uri: 'http://hl7.org/fhir/sid/icd-10', vocabularyId: 'ICD10', name: 'ICD-10 (WHO)', oid: '2.16.840.1.113883.6.3', aliases: ['http://terminology.hl7.org/CodeSystem/icd10'] },
  {
    uri: 'http://hl7.org/fhir/sid/icd-9-cm',
    vocabularyId: 'ICD9CM',
    name: 'ICD-9-CM',
    oid: '2.16.840.1.113883.6.103',
    // THO's retired icd9cm code system (diagnoses and procedures together).
    aliases: ['urn:oid:2.16.840.1.113883.6.2'],
  },
  {
    uri: 'http://hl7.org/fhir/sid/icd-9-cm',
    vocabularyId: ICD9_PROCEDURE_VOCABULARY,
    name: 'ICD-9-CM procedures',
    oid: '2.16.840.1.113883.6.104',
    // tx.fhir.org's URI, and the hosted OMOPHub service's (client-compatibility.md §2.1).
    aliases: ['http://hl7.org/fhir/sid/icd-9-proc', 'http://hl7.org/fhir/sid/icd-9'],
  },
  {
    uri: 'http://www.cms.gov/Medicare/Coding/ICD10',
    vocabularyId: 'ICD10PCS',
    name: 'ICD-10-PCS',
    oid: '2.16.840.1.113883.6.4',
    aliases: ['http://terminology.hl7.org/CodeSystem/icd10PCS', 'http://hl7.org/fhir/sid/icd-10-pcs'],
  },
  { uri: 'http://www.ama-assn.org/go/cpt', vocabularyId: 'CPT4', name: 'CPT', oid: '2.16.840.1.113883.6.12', aliases: [] },
  {
    uri: 'http://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets',
    vocabularyId: 'HCPCS',
    name: 'HCPCS Level II',
    oid: '2.16.840.1.113883.6.285',
    // tx.fhir.org's OMOP provider; THO marks it retired in favour of Level II.
    // tx.fhir.org's OMOP provider (first) and the hosted OMOPHub service's URI.
    aliases: ['http://terminology.hl7.org/CodeSystem/HCPCS-all-codes', 'http://www.nlm.nih.gov/research/umls/hcpcs'],
  },
  { uri: 'http://hl7.org/fhir/sid/ndc', vocabularyId: 'NDC', name: 'NDC', oid: '2.16.840.1.113883.6.69', aliases: [] },
  { uri: 'http://hl7.org/fhir/sid/cvx', vocabularyId: 'CVX', name: 'CVX', oid: '2.16.840.1.113883.12.292', aliases: ['http://terminology.hl7.org/CodeSystem/CVX'] },
  { uri: 'http://www.whocc.no/atc', vocabularyId: 'ATC', name: 'ATC', oid: '2.16.840.1.113883.6.73', aliases: [] },
  { uri: 'http://unitsofmeasure.org', vocabularyId: 'UCUM', name: 'UCUM', oid: '2.16.840.1.113883.6.8', aliases: [] },
  { uri: 'http://nucc.org/provider-taxonomy', vocabularyId: 'NUCC', name: 'NUCC Health Care Provider Taxonomy', oid: '2.16.840.1.113883.6.101', aliases: [] },
  {
    uri: 'https://www.nlm.nih.gov/mesh',
    vocabularyId: 'MeSH',
    name: 'MeSH',
    oid: '2.16.840.1.113883.6.177',
    aliases: ['http://terminology.hl7.org/CodeSystem/MSH', 'http://id.nlm.nih.gov/mesh'],
  },
  { uri: 'http://terminology.hl7.org/CodeSystem/icd-o-3', vocabularyId: 'ICDO3', name: 'ICD-O-3', oid: '2.16.840.1.113883.6.43.1', aliases: ['http://hl7.org/fhir/sid/icd-o-3'] },
  { uri: 'http://www.ada.org/cdt', vocabularyId: 'CDT', name: 'CDT', oid: '2.16.840.1.113883.6.13', aliases: ['http://terminology.hl7.org/CodeSystem/CD2'] },
  { uri: 'http://hl7.org/fhir/ndfrt', vocabularyId: 'NDFRT', name: 'NDF-RT', oid: '2.16.840.1.113883.6.209', aliases: [] },
  { uri: 'http://va.gov/terminology/medrt', vocabularyId: 'MEDRT', name: 'MED-RT', oid: '2.16.840.1.113883.6.345', aliases: [] },
  { uri: 'http://terminology.hl7.org/CodeSystem/mdr', vocabularyId: 'MedDRA', name: 'MedDRA', oid: '2.16.840.1.113883.6.163', aliases: [] },
  { uri: 'http://ncicb.nci.nih.gov/xml/owl/EVS/Thesaurus.owl', vocabularyId: 'NCIt', name: 'NCI Thesaurus', oid: '2.16.840.1.113883.3.26.1.1', aliases: [] },
  {
    uri: 'https://www.cms.gov/Medicare/Coding/place-of-service-codes/Place_of_Service_Code_Set',
    vocabularyId: 'CMS Place of Service',
    name: 'CMS Place of Service',
    oid: '2.16.840.1.113883.15.5',
    aliases: [],
  },
  {
    uri: 'https://www.cms.gov/Medicare/Medicare-Fee-for-Service-Payment/AcuteInpatientPPS/MS-DRG-Classifications-and-Software',
    vocabularyId: 'DRG',
    name: 'MS-DRG',
    aliases: [],
  },
  { uri: 'https://www.nubc.org/CodeSystem/RevenueCodes', vocabularyId: 'Revenue Code', name: 'NUBC Revenue Codes', aliases: [] },
  { uri: 'https://www.nubc.org/CodeSystem/TypeOfBill', vocabularyId: 'UB04 Typ bill', name: 'NUBC Type of Bill', aliases: [] },
  { uri: 'https://www.nubc.org/CodeSystem/PointOfOrigin', vocabularyId: 'UB04 Point of Origin', name: 'NUBC Point of Origin', aliases: [] },
  { uri: 'https://www.nubc.org/CodeSystem/PriorityTypeOfAdmitOrVisit', vocabularyId: 'UB04 Pri Typ of Adm', name: 'NUBC Priority (Type) of Admission or Visit', aliases: [] },
  {
    uri: 'https://www.nubc.org/CodeSystem/PatDischargeStatus',
    vocabularyId: 'UB04 Pt dis status',
    name: 'NUBC Patient Discharge Status',
    oid: '2.16.840.1.113883.6.301.5',
    // The FHIR R4 list of known code systems.
    aliases: ['http://www.nubc.org/patient-discharge'],
  },
  // ISO 4217 as FHIR names it (the Money data type's currency codes).
  { uri: 'urn:iso:std:iso:4217', vocabularyId: 'Currency', name: 'ISO 4217 currencies', aliases: [] },
  { uri: 'https://dmd.nhs.uk', vocabularyId: 'dm+d', name: 'NHS Dictionary of Medicines and Devices', aliases: [], source: 'HL7 UK / NHS England NamingSystem' },
  { uri: 'http://read.info/readv2', vocabularyId: 'Read', name: 'Read Codes version 2', oid: '2.16.840.1.113883.6.6', aliases: [], source: 'HL7 UK registry' },
  { uri: 'https://fhir.nhs.uk/Id/opcs-4', vocabularyId: 'OPCS4', name: 'OPCS-4', aliases: [], source: 'NHS England (used by NHS FHIR systems)' },
  {
    uri: 'http://fhir.de/CodeSystem/bfarm/icd-10-gm',
    vocabularyId: 'ICD10GM',
    name: 'ICD-10-GM',
    aliases: ['http://fhir.de/CodeSystem/dimdi/icd-10-gm', 'http://hl7.org/fhir/sid/icd-10-gm'],
    source: 'HL7 Germany (Basisprofil DE)',
  },
  // Vocabularies with no THO or national URI, as the hosted OMOPHub service names them (client-compatibility.md §2.1).
  { uri: 'http://hl7.org/fhir/sid/icd-10-cn', vocabularyId: 'ICD10CN', name: 'ICD-10 Chinese edition', aliases: [], source: 'OMOPHub (client-compatibility.md §2.1)' },
  { uri: 'http://hl7.org/fhir/sid/icd-9-cn', vocabularyId: 'ICD9ProcCN', name: 'ICD-9 procedures, Chinese edition', aliases: [], source: 'OMOPHub (client-compatibility.md §2.1)' },
];

export type SystemMatch =
  | { kind: 'vocabulary'; vocabularyId: string; canonical: string }
  /** OMOP_CONCEPT_SYSTEM (and aliases): the code is a concept_id. */
  | { kind: 'omop-concept-id' }
  /** A system of administrative-concept-maps.ts. */
  | { kind: 'administrative'; canonical: string };

/** A matchable form of a URI: the scheme is dropped for http(s) (and any `scheme://`), case folded where URIs ignore it. */
interface UriKey {
  key: string;
  /** The URI is http(s), an URN or a bare OID: the key may match a known one exactly. */
  matchable: boolean;
}

function uriKey(system: string): UriKey | undefined {
  const withoutVersion = system.split('|')[0]!.trim();
  if (withoutVersion === '') return undefined;
  if (/^\d+(?:\.\d+)+$/.test(withoutVersion)) return { key: `urn:oid:${withoutVersion}`, matchable: true };
  if (/^urn:/i.test(withoutVersion)) return { key: withoutVersion.toLowerCase(), matchable: true };
  const web = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(.*)$/i.exec(withoutVersion);
  if (!web) return { key: withoutVersion, matchable: false };
  const [, scheme = '', host = '', rest = ''] = web;
  return { key: `${host.toLowerCase()}${rest.replace(/\/+$/, '')}`, matchable: /^https?$/i.test(scheme) };
}

/** A SNOMED CT edition (and version) URI: http://snomed.info/sct/<module>[/version/<yyyymmdd>]. */
const SNOMED_EDITION = /^snomed\.info\/sct\/\d+(?:\/version\/\d+)?$/;

interface KnownSystem {
  canonical: string;
  match: SystemMatch;
}

/** Known key → its system; the first registration of a key wins. */
const KNOWN = new Map<string, KnownSystem>();

function register(uri: string, known: KnownSystem): void {
  const key = uriKey(uri)?.key;
  if (key !== undefined && !KNOWN.has(key)) KNOWN.set(key, known);
}

/** A FHIR code system the administrative maps use: its canonical URI and the other URIs that carry the same codes. */
export interface AdministrativeCodeSystem {
  uri: string;
  name: string;
  aliases: readonly string[];
}

export const ADMINISTRATIVE_CODE_SYSTEMS: readonly AdministrativeCodeSystem[] = [
  { uri: 'http://hl7.org/fhir/administrative-gender', name: 'FHIR AdministrativeGender', aliases: [] },
  { uri: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', name: 'HL7 v3 ActCode (encounter class)', aliases: [] },
  { uri: 'http://terminology.hl7.org/CodeSystem/admit-source', name: 'FHIR Encounter admit source', aliases: [] },
  { uri: 'http://terminology.hl7.org/CodeSystem/discharge-disposition', name: 'FHIR Encounter discharge disposition', aliases: [] },
  { uri: 'http://terminology.hl7.org/CodeSystem/condition-clinical', name: 'FHIR Condition clinical status', aliases: [] },
  { uri: 'http://hl7.org/fhir/allergy-intolerance-category', name: 'FHIR AllergyIntolerance category', aliases: [] },
  { uri: 'http://terminology.hl7.org/CodeSystem/immunization-origin', name: 'FHIR Immunization origin', aliases: [] },
  { uri: 'http://terminology.hl7.org/CodeSystem/v3-RouteOfAdministration', name: 'HL7 v3 RouteOfAdministration', aliases: [] },
  {
    // CDC Race & Ethnicity (THO NamingSystem CDCREC). v3-Race and v3-Ethnicity carry the same CDC
    // codes (2106-3 White, 2135-2 Hispanic or Latino); PHRaceAndEthnicityCDC and v2-0005 are the
    // THO NamingSystem's backward-compatible URIs.
    uri: 'urn:oid:2.16.840.1.113883.6.238',
    name: 'CDC Race & Ethnicity',
    aliases: [
      'http://terminology.hl7.org/CodeSystem/v3-Race',
      'http://terminology.hl7.org/CodeSystem/v3-Ethnicity',
      'http://terminology.hl7.org/CodeSystem/PHRaceAndEthnicityCDC',
      'http://terminology.hl7.org/CodeSystem/v2-0005',
    ],
  },
];

register(OMOP_CONCEPT_SYSTEM, { canonical: OMOP_CONCEPT_SYSTEM, match: { kind: 'omop-concept-id' } });
for (const entry of CODE_SYSTEMS) {
  const known: KnownSystem = { canonical: entry.uri, match: { kind: 'vocabulary', vocabularyId: entry.vocabularyId, canonical: entry.uri } };
  for (const uri of [entry.uri, ...(entry.oid ? [`urn:oid:${entry.oid}`] : []), ...entry.aliases]) register(uri, known);
}
for (const system of ADMINISTRATIVE_CODE_SYSTEMS) {
  const known: KnownSystem = { canonical: system.uri, match: { kind: 'administrative', canonical: system.uri } };
  for (const uri of [system.uri, ...system.aliases]) register(uri, known);
}

const SNOMED = KNOWN.get(uriKey('http://snomed.info/sct')!.key)!;

/**
 * undefined when unknown. Tolerates: surrounding spaces, a trailing slash, http/https difference
 * where the canonical is one of them, a `|version` suffix, SNOMED edition URIs
 * http://snomed.info/sct/<module>[/version/<v>], urn:oid:<OID> forms, case differences in the host.
 */
export function matchSystem(system: string): SystemMatch | undefined {
  const uri = uriKey(system);
  if (!uri?.matchable) return undefined;
  const known = KNOWN.get(uri.key) ?? (SNOMED_EDITION.test(uri.key) ? SNOMED : undefined);
  return known?.match;
}

/** Canonical URI for an OMOP vocabulary id (for the FHIR surface; undefined if none). */
export function systemForVocabulary(vocabularyId: string): string | undefined {
  return CODE_SYSTEMS.find((entry) => entry.vocabularyId === vocabularyId)?.uri;
}

/** Edits a known key of this length may be away from the sent one and still be suggested. */
function suggestionDistance(knownKeyLength: number): number {
  return Math.max(3, Math.ceil(knownKeyLength * 0.3));
}

/**
 * The known canonical URI (vocabulary, OMOP or administrative) nearest to an unknown one (edit
 * distance on the normalised form), or undefined when nothing is reasonably close (more than
 * max(3, 30 % of the known form's length) edits away).
 */
export function nearestKnownSystem(system: string): string | undefined {
  const uri = uriKey(system);
  if (!uri) return undefined;
  let best: { canonical: string; distance: number } | undefined;
  for (const [key, known] of KNOWN) {
    const distance = typoDistance(uri.key, key, Math.min(suggestionDistance(key.length), best ? best.distance - 1 : Infinity));
    if (Number.isFinite(distance) && (!best || distance < best.distance)) best = { canonical: known.canonical, distance };
  }
  return best?.canonical;
}
