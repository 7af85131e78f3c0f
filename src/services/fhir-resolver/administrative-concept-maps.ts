/**
 * The administrative FHIR codes of the HL7 FHIR-to-OMOP IG (E7 rule 5: gender, encounter class, race, …), which
 * are not codes of an OMOP vocabulary, with the OMOP concept each becomes by the IG's ConceptMaps, as the
 * project's own table.
 */
import { ADMINISTRATIVE_CODE_SYSTEMS } from '../fhir/code-system-uris.js';
import { cdmTargetOf, type CdmTarget } from './cdm-target.js';

/** FHIR R5 ConceptMap relationship (http://hl7.org/fhir/concept-map-relationship). */
export type ConceptMapRelationship =
  | 'equivalent'
  | 'source-is-narrower-than-target'
  | 'source-is-broader-than-target'
  | 'related-to'
  | 'not-related-to';

export interface AdministrativeMapping {
  /** IG ConceptMap id, e.g. 'GenderClass'. */
  conceptMapId: string;
  /** http://hl7.org/fhir/uv/omop/ConceptMap/<id> */
  conceptMapUrl: string;
  /** The FHIR source: canonical code-system URI and code. */
  system: string;
  code: string;
  /** null: the IG says noMap (no OMOP concept). */
  targetConceptId: number | null;
  /** The IG's display of the target (not always the OMOP concept_name: 8507 is "MALE" in OMOP, "Male" here). */
  targetDisplay: string | null;
  /** OMOP domain of the target. */
  targetDomainId: string;
  /** Where the code goes in the CDM. */
  targetTable: string;
  targetField: string;
  /** R5 relationship; a noMap row is `not-related-to`. */
  relationship: ConceptMapRelationship;
  /** false: a proposal of the unmerged IG pull request 23 (race, ethnicity, condition active/inactive). */
  published: boolean;
  /** The IG's comment on the mapping, when it gives one. */
  comment?: string;
}

/** Canonical URIs of the administrative code systems. */
export const ADMINISTRATIVE_SYSTEMS: readonly string[] = ADMINISTRATIVE_CODE_SYSTEMS.map((s) => s.uri);

const IG_CONCEPT_MAP_BASE = 'http://hl7.org/fhir/uv/omop/ConceptMap/';

/** One element of a map: code → OMOP concept (null: noMap), the IG's display, its relationship. */
type MapRow = readonly [code: string, targetConceptId: number | null, targetDisplay: string | null, relationship: ConceptMapRelationship, extra?: { published?: false; comment?: string }];

interface AdministrativeConceptMap {
  id: string;
  system: string;
  targetDomainId: string;
  target: CdmTarget;
  rows: readonly MapRow[];
}

function domainTarget(domainId: string): CdmTarget {
  const target = cdmTargetOf(domainId);
  if (!target) throw new Error(`The domain ${domainId} has no CDM table.`);
  return target;
}

const NARROWER = 'source-is-narrower-than-target';
const BROADER = 'source-is-broader-than-target';

/** The maps, in precedence order: for a code several maps share, the earlier map is the default (AllergyType before IntoleranceType). */
const CONCEPT_MAPS: readonly AdministrativeConceptMap[] = [
  {
    id: 'GenderClass',
    system: 'http://hl7.org/fhir/administrative-gender',
    targetDomainId: 'Gender',
    target: domainTarget('Gender'),
    rows: [
      ['male', 8507, 'Male', 'equivalent'],
      ['female', 8532, 'Female', 'equivalent'],
      // 44814653 is a non-standard PCORNet concept ("Unknown") in the OMOP vocabulary; the IG maps `other` to it all the same.
      ['other', 44814653, 'Other', 'equivalent'],
      ['unknown', 8551, 'Unknown', 'equivalent'],
    ],
  },
  {
    id: 'EncounterClass',
    system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode',
    targetDomainId: 'Visit',
    target: domainTarget('Visit'),
    rows: [
      ['IMP', 9201, 'Inpatient Visit', 'equivalent'],
      ['AMB', 9202, 'Outpatient Visit', 'equivalent'],
      ['OBSENC', 262, 'Emergency Room and Inpatient Visit', BROADER, { comment: 'The source code does not necessarily mean that the patient has moved to an inpatient visit' }],
      ['EMER', 9203, 'Emergency Room Visit', 'equivalent'],
      ['VR', 722455, 'Telehealth', 'equivalent'],
      ['HH', 581476, 'Home Visit', 'equivalent'],
    ],
  },
  {
    id: 'EncounterAdmitSource',
    system: 'http://terminology.hl7.org/CodeSystem/admit-source',
    targetDomainId: 'Visit',
    target: { table: 'visit_occurrence', field: 'admitted_from_concept_id' },
    rows: [
      ['hosp-trans', 38004515, 'Hospital', 'equivalent'],
      ['emd', 8870, 'Emergency Room - Hospital', 'equivalent'],
      ['outp', 8756, 'Outpatient Hospital', BROADER, { comment: 'The source code implies any outpatient facility and not just a hospital' }],
      ['born', 38004515, 'Hospital', NARROWER],
      ['gp', 8940, 'Office', NARROWER],
      ['mp', 8940, 'Office', NARROWER],
      ['nursing', 8676, 'Nursing Facility', 'equivalent'],
      ['psych', 8971, 'Inpatient Psychiatric Facility', BROADER, { comment: 'The source code does not imply an inpatient facility' }],
      ['rehab', 38004254, 'Rehabilitation Clinic/Center', 'equivalent'],
      ['other', null, null, 'not-related-to'],
    ],
  },
  {
    id: 'EncounterDischargeDisposition',
    system: 'http://terminology.hl7.org/CodeSystem/discharge-disposition',
    targetDomainId: 'Visit',
    target: { table: 'visit_occurrence', field: 'discharged_to_concept_id' },
    rows: [
      ['home', 8536, 'Home', 'equivalent'],
      ['alt-home', 8536, 'Home', NARROWER],
      ['other-hcf', 33007, 'Alternate care site (ACS)', 'equivalent'],
      ['hosp', 8546, 'Hospice', 'equivalent'],
      ['long', 38004277, 'Long Term Care Hospital', BROADER, { comment: 'The source code does not imply a hospital but any long term care facility' }],
      ['aadvice', 32216, 'Left against medical advice or discontinued care.', 'equivalent'],
      ['exp', 32218, 'Expired', 'equivalent'],
      ['psy', 8971, 'Inpatient Psychiatric Facility', BROADER, { comment: 'The source code does not imply an inpatient facility' }],
      ['rehab', 32266, 'Clinic-Outpatient Rehab Facility (ORF)', BROADER, { comment: 'The source code does not imply an outpatient facility' }],
      ['snf', 8863, 'Skilled Nursing Facility', 'equivalent'],
      ['oth', null, null, 'not-related-to'],
    ],
  },
  {
    id: 'ConditionStatusConcepts',
    system: 'http://terminology.hl7.org/CodeSystem/condition-clinical',
    targetDomainId: 'Condition Status',
    target: domainTarget('Condition Status'),
    rows: [
      ['resolved', 32906, 'Resolved condition', 'equivalent'],
      // Proposals of IG PR 23; the targets ("Primary diagnosis", "Secondary admission diagnosis") are questionable.
      ['active', 32902, 'Primary diagnosis', 'related-to', { published: false }],
      ['inactive', 32907, 'Secondary admission diagnosis', 'related-to', { published: false }],
    ],
  },
  {
    id: 'AllergyType',
    system: 'http://hl7.org/fhir/allergy-intolerance-category',
    targetDomainId: 'Observation',
    target: domainTarget('Observation'),
    rows: [
      ['food', 4188027, 'Allergy to food', 'equivalent'],
      ['medication', 439224, 'Allergy to drug', 'equivalent'],
      ['environment', 4144450, 'Environmental allergy', 'equivalent'],
      ['biologic', 43530807, 'Allergic disposition', NARROWER],
    ],
  },
  {
    id: 'IntoleranceType',
    system: 'http://hl7.org/fhir/allergy-intolerance-category',
    targetDomainId: 'Observation',
    target: domainTarget('Observation'),
    rows: [
      ['food', 4340252, 'Intolerance to food', 'equivalent'],
      ['medication', 4240582, 'Intolerance to drug', 'equivalent'],
      ['environment', 4172024, 'Propensity to adverse reaction', NARROWER],
      ['biologic', 36684107, 'Intolerance to substance', NARROWER],
    ],
  },
  {
    // How the immunization record was obtained: a provenance (Type Concept) of the drug_exposure.
    id: 'ImmunizationSource',
    system: 'http://terminology.hl7.org/CodeSystem/immunization-origin',
    targetDomainId: 'Type Concept',
    target: { table: 'drug_exposure', field: 'drug_type_concept_id' },
    rows: [
      ['recall', 32865, 'Patient self-report', 'equivalent'],
      ['record', 32848, 'Government report', NARROWER],
      ['school', 32848, 'Government report', NARROWER],
      ['provider', 32818, 'EHR administration record', NARROWER],
    ],
  },
  {
    id: 'ImmunizationRoute',
    system: 'http://terminology.hl7.org/CodeSystem/v3-RouteOfAdministration',
    targetDomainId: 'Route',
    target: domainTarget('Route'),
    rows: [
      ['IDINJ', 4156706, 'Intradermal', 'equivalent'],
      ['IM', 4302612, 'Intramuscular', 'equivalent'],
      ['IVINJ', 4171047, 'Intravenous', 'equivalent'],
      ['PO', 4132161, 'Oral', 'equivalent'],
      ['SQ', 4142048, 'Subcutaneous', 'equivalent'],
      ['TRNSDERM', 4262099, 'Transdermal', 'equivalent'],
    ],
  },
  {
    // Proposal of IG PR 23 (US Core OMB race categories).
    id: 'RaceClass',
    system: 'urn:oid:2.16.840.1.113883.6.238',
    targetDomainId: 'Race',
    target: domainTarget('Race'),
    rows: [
      ['2106-3', 8527, 'White', 'equivalent', { published: false }],
      ['2054-5', 8516, 'Black or African American', 'equivalent', { published: false }],
      ['2028-9', 8515, 'Asian', 'equivalent', { published: false }],
      ['1002-5', 8657, 'American Indian or Alaska Native', 'equivalent', { published: false }],
      ['2076-8', 8557, 'Native Hawaiian or Other Pacific Islander', 'equivalent', { published: false }],
      ['2131-1', 8522, 'Other Race', 'equivalent', { published: false }],
    ],
  },
  {
    // Proposal of IG PR 23 (US Core OMB ethnicity categories).
    id: 'EthnicityClass',
    system: 'urn:oid:2.16.840.1.113883.6.238',
    targetDomainId: 'Ethnicity',
    target: domainTarget('Ethnicity'),
    rows: [
      ['2135-2', 38003563, 'Hispanic or Latino', 'equivalent', { published: false }],
      ['2186-5', 38003564, 'Not Hispanic or Latino', 'equivalent', { published: false }],
    ],
  },
];

export const ADMINISTRATIVE_MAPPINGS: readonly AdministrativeMapping[] = CONCEPT_MAPS.flatMap((map) =>
  map.rows.map(([code, targetConceptId, targetDisplay, relationship, extra]): AdministrativeMapping => ({
    conceptMapId: map.id,
    conceptMapUrl: IG_CONCEPT_MAP_BASE + map.id,
    system: map.system,
    code,
    targetConceptId,
    targetDisplay,
    targetDomainId: map.targetDomainId,
    targetTable: map.target.table,
    targetField: map.target.field,
    relationship,
    published: extra?.published ?? true,
    ...(extra?.comment ? { comment: extra.comment } : {}),
  })),
);

/**
 * Mappings of one code (system already canonical, via matchSystem), the default map first
 * (AllergyType before IntoleranceType); `conceptMapId` picks one map. [] when the code is not in
 * any map of that system. Codes match exactly, or else ignoring case and surrounding spaces
 * ("Male", " IMP ").
 */
export function administrativeMappings(system: string, code: string, conceptMapId?: string): AdministrativeMapping[] {
  const ofSystem = ADMINISTRATIVE_MAPPINGS.filter((m) => m.system === system && (conceptMapId === undefined || m.conceptMapId === conceptMapId));
  const exact = ofSystem.filter((m) => m.code === code);
  if (exact.length > 0) return exact;
  const folded = code.trim().toLowerCase();
  return ofSystem.filter((m) => m.code.toLowerCase() === folded);
}

/** The IG ConceptMap ids of a (canonical) administrative system, default first; [] for any other system. */
export function administrativeConceptMapIds(system: string): string[] {
  return CONCEPT_MAPS.filter((map) => map.system === system).map((map) => map.id);
}
