/**
 * Every kind of oddity the loader tolerates in real Athena data, with what it did about it.
 * Rows are kept whenever they can be; the load summary and the manifest count each kind.
 */
export const ANOMALY_KINDS = {
  duplicate_concept_id: 'CONCEPT rows repeating a concept_id already read: the first row was kept, the later ones dropped',
  duplicate_relationship: 'CONCEPT_RELATIONSHIP rows repeating (concept_id_1, relationship_id, concept_id_2): the first row was kept, the later ones dropped',
  duplicate_ancestor: 'CONCEPT_ANCESTOR rows repeating (ancestor_concept_id, descendant_concept_id): the first row was kept, the later ones dropped',
  duplicate_drug_strength: 'DRUG_STRENGTH rows repeating (drug_concept_id, ingredient_concept_id): the first row was kept, the later ones dropped',
  duplicate_reference_id: 'VOCABULARY/DOMAIN/CONCEPT_CLASS/RELATIONSHIP rows repeating an id already read: the first row was kept',
  dangling_relationship_concept: 'CONCEPT_RELATIONSHIP rows stored whose concept_id_1, concept_id_2 or both are not in CONCEPT (kept; each row counted once)',
  dangling_ancestor_concept: 'CONCEPT_ANCESTOR rows stored whose ancestor_concept_id, descendant_concept_id or both are not in CONCEPT (kept; each row counted once)',
  dangling_synonym_concept: 'CONCEPT_SYNONYM rows whose concept_id is not in CONCEPT (kept)',
  dangling_drug_strength_concept: 'DRUG_STRENGTH rows stored whose drug_concept_id, ingredient_concept_id or both are not in CONCEPT (kept; each row counted once)',
  unknown_vocabulary_id: 'CONCEPT rows whose vocabulary_id is not in VOCABULARY (kept)',
  unknown_domain_id: 'CONCEPT rows whose domain_id is not in DOMAIN (kept)',
  unknown_concept_class_id: 'CONCEPT rows whose concept_class_id is not in CONCEPT_CLASS (kept)',
  unknown_relationship_id: 'CONCEPT_RELATIONSHIP rows whose relationship_id is not in RELATIONSHIP (kept)',
  odd_standard_concept: "standard_concept values other than 'S', 'C' or empty: stored as NULL (not standard)",
  odd_invalid_reason: "invalid_reason values other than 'D', 'U' or empty: stored as NULL (valid)",
  end_before_start: 'rows whose valid_end_date is earlier than their valid_start_date (kept)',
  over_long_value: 'text longer than the OMOP CDM limit (concept_name 255, concept_code 50, synonym 1000, ids 20 characters): kept in full',
  empty_required_value: 'required text fields that are empty (e.g. an empty concept_name): stored as an empty string',
  blank_line: 'empty lines inside a table file: skipped',
  extra_column: 'header columns that are not part of the OMOP table: ignored',
  empty_file: 'table files without even a header line: read as empty tables',
} as const;

export type AnomalyKind = keyof typeof ANOMALY_KINDS;
