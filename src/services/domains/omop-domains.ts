/**
 * The domains the specification names ("Domain" record), with the name and description this server gives them; the
 * domain list always carries them, naming each from the release's DOMAIN table when it has the id.
 */
export interface BuiltInDomain {
  domain_id: string;
  domain_name: string;
  description: string;
}

export const SPEC_NAMED_DOMAINS: readonly BuiltInDomain[] = [
  { domain_id: 'Condition', domain_name: 'Condition', description: 'Diseases, disorders, findings, signs and symptoms (CONDITION_OCCURRENCE).' },
  { domain_id: 'Drug', domain_name: 'Drug', description: 'Drug ingredients, clinical and branded drug products and vaccines (DRUG_EXPOSURE).' },
  { domain_id: 'Procedure', domain_name: 'Procedure', description: 'Activities or processes carried out on or for a patient (PROCEDURE_OCCURRENCE).' },
  { domain_id: 'Measurement', domain_name: 'Measurement', description: 'Laboratory tests and other structured observations that yield a result (MEASUREMENT).' },
  { domain_id: 'Observation', domain_name: 'Observation', description: 'Clinical facts that belong to no other domain, such as history and social context (OBSERVATION).' },
  { domain_id: 'Device', domain_name: 'Device', description: 'Physical objects used for diagnosis or treatment (DEVICE_EXPOSURE).' },
  { domain_id: 'Specimen', domain_name: 'Specimen', description: 'Biological samples taken from a patient (SPECIMEN).' },
  { domain_id: 'Visit', domain_name: 'Visit', description: 'Kinds of encounter with the health care system (VISIT_OCCURRENCE).' },
  { domain_id: 'Provider', domain_name: 'Provider', description: 'Specialties of health care providers (PROVIDER).' },
  { domain_id: 'Location', domain_name: 'Location', description: 'Geographic places (LOCATION).' },
  { domain_id: 'Care Site', domain_name: 'Care Site', description: 'Kinds of place where care is delivered (CARE_SITE).' },
  { domain_id: 'Payer', domain_name: 'Payer', description: 'Institutions administering health care transactions (PAYER_PLAN_PERIOD).' },
  { domain_id: 'Plan', domain_name: 'Health Plan', description: 'Contracts under which a payer administers health care transactions (PAYER_PLAN_PERIOD).' },
  { domain_id: 'Sponsor', domain_name: 'Sponsor', description: 'Institutions or individuals financing health care transactions (PAYER_PLAN_PERIOD).' },
  { domain_id: 'Cost', domain_name: 'Cost', description: 'Kinds of cost of health care services (COST).' },
  { domain_id: 'Revenue', domain_name: 'Revenue', description: 'Revenue codes of billed health care services (COST).' },
  { domain_id: 'Episode', domain_name: 'Episode', description: 'Abstractions over clinical events, such as disease phases and lines of treatment (EPISODE).' },
  { domain_id: 'Regimen', domain_name: 'Treatment Regimen', description: 'Treatment regimens, such as chemotherapy protocols (EPISODE).' },
  { domain_id: 'Metadata', domain_name: 'Metadata', description: 'Concepts that describe the vocabularies and the data model themselves (METADATA).' },
  { domain_id: 'Type Concept', domain_name: 'Type Concept', description: 'The provenance of a record, such as an EHR or a claim (the *_type_concept_id fields).' },
  { domain_id: 'Relationship', domain_name: 'Relationship', description: 'Concepts standing for relationship types (FACT_RELATIONSHIP, CONCEPT_RELATIONSHIP).' },
  { domain_id: 'Gender', domain_name: 'Gender', description: 'Gender of a person (PERSON.gender_concept_id).' },
  { domain_id: 'Race', domain_name: 'Race', description: 'Race of a person (PERSON.race_concept_id).' },
  { domain_id: 'Ethnicity', domain_name: 'Ethnicity', description: 'Ethnicity of a person (PERSON.ethnicity_concept_id).' },
  { domain_id: 'Meas Value', domain_name: 'Measurement Value', description: 'Categorical results of measurements and observations (value_as_concept_id).' },
];
