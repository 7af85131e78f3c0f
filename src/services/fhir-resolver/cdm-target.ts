/**
 * Where a resolved concept is written in an OMOP CDM v5.4 database (the standard concept's domain decides the
 * table) and which domains a FHIR resource type expects, which is advisory only.
 */
import type { DomainResourceAlignment, ResourceType } from './resolution.js';

export interface CdmTarget {
  table: string;
  field: string;
}

/** The field a `Maps to value` target fills (measurement or observation; fhir-and-omop-notes.md §5). */
export const VALUE_AS_CONCEPT_FIELD = 'value_as_concept_id';

/**
 * Domain → the CDM table and *_concept_id field its standard concepts fill. Where a domain's
 * concepts appear in several tables (Unit, Visit), the field named is the main one. Domains
 * absent here have no table of their own: Metadata, Type Concept (they fill the *_type_concept_id
 * of whatever record they describe), Relationship, Cost and the vocabulary-internal ones.
 */
const DOMAIN_TARGETS: Readonly<Record<string, CdmTarget>> = {
  Condition: { table: 'condition_occurrence', field: 'condition_concept_id' },
  Drug: { table: 'drug_exposure', field: 'drug_concept_id' },
  Procedure: { table: 'procedure_occurrence', field: 'procedure_concept_id' },
  Measurement: { table: 'measurement', field: 'measurement_concept_id' },
  // The catch-all clinical table: "no specified domain" concepts go here (CDM conventions).
  Observation: { table: 'observation', field: 'observation_concept_id' },
  Device: { table: 'device_exposure', field: 'device_concept_id' },
  Specimen: { table: 'specimen', field: 'specimen_concept_id' },
  // Also visit_detail.visit_detail_concept_id and the admitted_from / discharged_to fields.
  Visit: { table: 'visit_occurrence', field: 'visit_concept_id' },
  Episode: { table: 'episode', field: 'episode_concept_id' },
  // A treatment regimen is the object of an episode (CDM 5.4 episode_object_concept_id).
  Regimen: { table: 'episode', field: 'episode_object_concept_id' },
  Gender: { table: 'person', field: 'gender_concept_id' },
  Race: { table: 'person', field: 'race_concept_id' },
  Ethnicity: { table: 'person', field: 'ethnicity_concept_id' },
  Route: { table: 'drug_exposure', field: 'route_concept_id' },
  // Also observation, device_exposure and specimen unit_concept_id.
  Unit: { table: 'measurement', field: 'unit_concept_id' },
  // Also observation.value_as_concept_id.
  'Meas Value': { table: 'measurement', field: VALUE_AS_CONCEPT_FIELD },
  'Meas Value Operator': { table: 'measurement', field: 'operator_concept_id' },
  'Condition Status': { table: 'condition_occurrence', field: 'condition_status_concept_id' },
  'Spec Anatomic Site': { table: 'specimen', field: 'anatomic_site_concept_id' },
  'Spec Disease Status': { table: 'specimen', field: 'disease_status_concept_id' },
  Modifier: { table: 'procedure_occurrence', field: 'modifier_concept_id' },
  Provider: { table: 'provider', field: 'specialty_concept_id' },
  // The 2019-era name of the Provider domain.
  'Provider Specialty': { table: 'provider', field: 'specialty_concept_id' },
  'Place of Service': { table: 'care_site', field: 'place_of_service_concept_id' },
  Payer: { table: 'payer_plan_period', field: 'payer_concept_id' },
  Plan: { table: 'payer_plan_period', field: 'plan_concept_id' },
  Sponsor: { table: 'payer_plan_period', field: 'sponsor_concept_id' },
  'Plan Stop Reason': { table: 'payer_plan_period', field: 'stop_reason_concept_id' },
  Currency: { table: 'cost', field: 'currency_concept_id' },
  'Revenue Code': { table: 'cost', field: 'revenue_code_concept_id' },
  Note: { table: 'note', field: 'note_class_concept_id' },
  Language: { table: 'note', field: 'language_concept_id' },
  Geography: { table: 'location', field: 'country_concept_id' },
};

/** The abbreviations Athena uses inside combined domain ids ('Condition/Meas', 'Obs/Procedure'). */
const DOMAIN_ABBREVIATIONS: Readonly<Record<string, string>> = { Meas: 'Measurement', Obs: 'Observation' };

/** The domains a combined domain id is made of ('Condition/Meas' → Condition, Measurement); a plain id is its own single part. */
function domainParts(domainId: string): string[] {
  return domainId.split('/').map((part) => {
    const trimmed = part.trim();
    return DOMAIN_ABBREVIATIONS[trimmed] ?? trimmed;
  });
}

/**
 * The CDM table and *_concept_id field for a standard concept's domain (fhir-and-omop-notes.md §5);
 * combined domains of non-standard concepts ('Condition/Meas') route by their first part; null for
 * domains with no clinical table (Metadata, Type Concept, Relationship, ...).
 */
export function cdmTargetOf(domainId: string): CdmTarget | null {
  const routing = domainParts(domainId)[0];
  return (routing !== undefined && DOMAIN_TARGETS[routing]) || null;
}

/**
 * The OMOP domains each FHIR resource type expects, most expected first. The reasons:
 * - Condition: diagnoses and problems are Condition; history, family history and some findings
 *   that OMOP files as Observation are written from Condition resources too.
 * - Observation: mostly laboratory results and vital signs (Measurement); social history,
 *   survey answers and other facts are Observation.
 * - Medication*: drug products and ingredients are Drug.
 * - Immunization: vaccines (CVX, RxNorm) are Drug; OMOP writes immunizations to drug_exposure.
 * - Procedure: Procedure; ordered tests (CPT/HCPCS laboratory codes) are Measurement.
 * - AllergyIntolerance: the allergy or intolerance itself is Observation (observation table,
 *   as the IG maps AllergyType/IntoleranceType); the substance coded in AllergyIntolerance.code is
 *   usually a Drug (it becomes the observation's value_as_concept_id).
 * - DiagnosticReport: report and panel codes are mostly Measurement (LOINC panels); imaging and
 *   other procedures reported on are Procedure; narrative findings are Observation.
 * - Encounter: the kind of visit is Visit.
 * - Patient: the person's Gender, Race and Ethnicity.
 */
const EXPECTED_DOMAINS: Readonly<Record<ResourceType, readonly string[]>> = {
  Condition: ['Condition', 'Observation'],
  Observation: ['Measurement', 'Observation'],
  MedicationStatement: ['Drug'],
  MedicationRequest: ['Drug'],
  MedicationAdministration: ['Drug'],
  Immunization: ['Drug'],
  Procedure: ['Procedure', 'Measurement'],
  AllergyIntolerance: ['Observation', 'Drug'],
  DiagnosticReport: ['Measurement', 'Procedure', 'Observation'],
  Encounter: ['Visit'],
  Patient: ['Gender', 'Race', 'Ethnicity'],
};

/** The OMOP domains a FHIR resource type expects, most expected first (see EXPECTED_DOMAINS for each choice). */
export function expectedDomains(resourceType: ResourceType): readonly string[] {
  return EXPECTED_DOMAINS[resourceType];
}

/** "A Condition resource", "An Observation resource". */
function withArticle(word: string): string {
  return `${/^[AEIOU]/.test(word) ? 'An' : 'A'} ${word}`;
}

function listWithOr(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/**
 * aligned / misaligned (+ a one-sentence note naming resource type, domain and the table the
 * domain decides) / not_checked (no resource type). A combined domain is aligned when any of its
 * parts is expected.
 */
export function domainAlignment(
  domainId: string,
  resourceType: ResourceType | undefined,
): { alignment: DomainResourceAlignment; note?: string } {
  if (!resourceType) return { alignment: 'not_checked' };
  const expected = expectedDomains(resourceType);
  if (domainParts(domainId).some((part) => expected.includes(part))) return { alignment: 'aligned' };
  const target = cdmTargetOf(domainId);
  const destination = target ? `sends it to ${target.table}` : 'has no CDM clinical table';
  return {
    alignment: 'misaligned',
    note: `${withArticle(resourceType)} resource expects ${listWithOr(expected)} concepts, but this concept's domain ${domainId} ${destination} (the domain decides the table; the resource type is advisory).`,
  };
}

/**
 * The FHIR resource type a record of a concept of this domain usually comes from (domains without
 * one are left out; Drug: MedicationStatement, though any Medication* resource or Immunization may
 * carry one). The evaluation and the benchmarks give display-only resolutions this resource type.
 */
export const RESOURCE_TYPE_OF_DOMAIN: Readonly<Record<string, ResourceType>> = {
  Condition: 'Condition',
  Drug: 'MedicationStatement',
  Measurement: 'Observation',
  Procedure: 'Procedure',
  Observation: 'Observation',
  Visit: 'Encounter',
  Gender: 'Patient',
  Race: 'Patient',
  Ethnicity: 'Patient',
};
