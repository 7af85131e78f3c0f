/**
 * The concept fields every list item carries (hierarchy nodes, parents and mapping targets of a
 * lookup, related concepts, vocabulary browsing): one place that picks them from a concept record.
 * Built field by field: an object literal of known shape is much cheaper than a spread per item.
 */
import type { ConceptRecord } from '../../store/records.js';

export interface ConceptBrief {
  concept_id: number;
  concept_name: string;
  concept_code: string;
  vocabulary_id: string;
  domain_id: string;
  concept_class_id: string;
  standard_concept: ConceptRecord['standard_concept'];
}

export function briefConcept(c: ConceptRecord): ConceptBrief {
  return {
    concept_id: c.concept_id,
    concept_name: c.concept_name,
    concept_code: c.concept_code,
    vocabulary_id: c.vocabulary_id,
    domain_id: c.domain_id,
    concept_class_id: c.concept_class_id,
    standard_concept: c.standard_concept,
  };
}
