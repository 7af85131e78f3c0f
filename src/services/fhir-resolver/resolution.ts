/**
 * The shapes of the FHIR-to-OMOP resolver (E7, "Resolution (resolver result)"): the coding a caller sends, the
 * options every resolve call shares and the resolution it gets back; the HTTP adapter only validates and
 * serialises them.
 */
import type { ConceptBrief } from '../concepts/concept-brief.js';

/** The FHIR resource types E7 names (advisory: they check domain alignment and filter the display fallback). */
export const RESOURCE_TYPES = [
  'Condition',
  'Observation',
  'MedicationStatement',
  'MedicationRequest',
  'MedicationAdministration',
  'Immunization',
  'Procedure',
  'AllergyIntolerance',
  'DiagnosticReport',
  'Encounter',
  'Patient',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** One coding as a caller sends it (FHIR Coding, plus OMOP's vocabulary_id instead of a system). */
export interface CodingInput {
  system?: string;
  code?: string;
  display?: string;
  vocabulary_id?: string;
  /** FHIR Coding.userSelected (CodeableConcept preference; ignored by a single resolve). */
  user_selected?: boolean;
  /**
   * Only for administrative codes that more than one IG ConceptMap maps (the allergy-intolerance
   * categories: AllergyType by default, IntoleranceType on request): the IG ConceptMap id to use.
   */
  concept_map_id?: string;
}

export type OnUnmapped = 'error' | 'sentinel';

export const RECOMMENDATIONS_DEFAULT_LIMIT = 5;
export const RECOMMENDATIONS_MAX_LIMIT = 20;

/** Options every resolve call shares (single, batch, CodeableConcept). */
export interface ResolveOptions {
  resourceType?: ResourceType;
  includeRecommendations: boolean;
  /** 1..RECOMMENDATIONS_MAX_LIMIT (validated by the caller). */
  recommendationsLimit: number;
  includeQuality: boolean;
  onUnmapped: OnUnmapped;
}

/** A concept as the resolver reports it (source, standard, value and alternative concepts). */
export type ResolvedConcept = ConceptBrief;

/**
 * The source concept: a concept of the release, or — for a code the release does not have, a
 * display text, or an administrative FHIR code — concept_id 0 carrying the code and display sent
 * (OMOP's *_source_concept_id 0), with null where there is no vocabulary, domain or class.
 */
export interface SourceConcept extends Omit<ConceptBrief, 'vocabulary_id' | 'domain_id' | 'concept_class_id'> {
  vocabulary_id: string | null;
  domain_id: string | null;
  concept_class_id: string | null;
}

export type MappingType = 'direct' | 'mapped' | 'semantic_match' | 'unmapped';
export type DomainResourceAlignment = 'aligned' | 'misaligned' | 'not_checked';
export type MappingQuality = 'high' | 'medium' | 'low' | 'manual_review';

/** A standard target other than the chosen one (one-to-many `Maps to`), with where it would be written. */
export interface AlternativeStandardConcept extends ResolvedConcept {
  target_table: string | null;
}

export interface Recommendation extends ResolvedConcept {
  relationship_id: string;
  similarity_score?: number;
}

/** The resolution object of E7 (field order as the specification lists it). */
export interface Resolution {
  /** Source vocabulary; null for display-only input and for administrative codes (not an OMOP vocabulary). */
  vocabulary_id: string | null;
  source_concept: SourceConcept;
  /** After `Maps to`; concept_id 0 (the "No matching concept" sentinel) when no standard target exists (rule 4). */
  standard_concept: ResolvedConcept;
  mapping_type: MappingType;
  /** `Maps to`, or the IG ConceptMap id of an administrative code; absent for semantic matches and the sentinel. */
  relationship_id?: string;
  /** Only for semantic_match: the embedding provider's cosine similarity of the display and the concept's best text. */
  similarity_score?: number;
  /** CDM table the record goes to (spec E7 rule 1: the standard concept's domain decides). */
  target_table: string | null;
  /** With target_table, the *_concept_id field when the domain fixes one (e.g. person.gender_concept_id → "gender_concept_id"). */
  target_field?: string;
  domain_resource_alignment: DomainResourceAlignment;
  /** Why the domain and resource type disagree (only with `misaligned`). */
  alignment_note?: string;
  mapping_quality?: MappingQuality;
  quality_note: string | null;
  recommendations?: Recommendation[];
  /** The value concept of a `Maps to value` split, and the field it fills. */
  value_as_concept?: ResolvedConcept;
  value_target_field?: string;
  /** Other standard targets of a one-to-many `Maps to`. */
  alternative_standard_concepts?: AlternativeStandardConcept[];
  /** Administrative codes: the IG ConceptMap that mapped them, its canonical URL and the map's relationship. */
  concept_map_id?: string;
  concept_map_url?: string;
  mapping_note?: string;
}

/** The normalised input echoed back as `data.input`. */
export interface ResolveInputEcho {
  system: string | null;
  code: string | null;
  display: string | null;
  vocabulary_id: string | null;
  resource_type: string | null;
}

export interface ResolveOutcome {
  input: ResolveInputEcho;
  resolution: Resolution | null;
}
