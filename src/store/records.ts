/** Row shapes as the store returns them (dates already formatted as YYYY-MM-DD strings). */

export interface ConceptRecord {
  concept_id: number;
  concept_name: string;
  domain_id: string;
  vocabulary_id: string;
  concept_class_id: string;
  standard_concept: 'S' | 'C' | null;
  concept_code: string;
  valid_start_date: string;
  valid_end_date: string;
  invalid_reason: 'D' | 'U' | null;
}

export interface SynonymRecord {
  concept_synonym_name: string;
  language_concept_id: number;
}

export interface VocabularyRecord {
  vocabulary_id: string;
  vocabulary_name: string;
  vocabulary_reference: string | null;
  vocabulary_version: string | null;
  vocabulary_concept_id: number;
  /** Derived at load time (vocabulary_summary); 0 for vocabularies without concepts. */
  concept_count: number;
  standard_count: number;
  classification_count: number;
  invalid_count: number;
  earliest_start_date: string | null;
  latest_start_date: string | null;
}

export interface DomainRecord {
  domain_id: string;
  domain_name: string;
  domain_concept_id: number;
}

export interface ConceptClassRecord {
  concept_class_id: string;
  concept_class_name: string;
  concept_class_concept_id: number;
}

export interface RelationshipTypeRecord {
  relationship_id: string;
  relationship_name: string;
  is_hierarchical: string;
  defines_ancestry: string;
  reverse_relationship_id: string;
  relationship_concept_id: number;
}

/** Converts a stored YYYYMMDD integer to an ISO date string. */
export function formatStoredDate(value: number | null): string | null {
  if (value === null || value === undefined) return null;
  const s = String(value).padStart(8, '0');
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
}
