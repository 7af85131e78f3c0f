/**
 * CodeSystem/$lookup (E13) as domain logic: one code's properties (its CONCEPT columns and one per valid
 * relationship, as tx.fhir.org's OMOP provider names them) and designations, as plain values the FHIR edge writes.
 */
import type { ReleaseView } from '../release-view.js';
import type { ConceptRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { OMOP_CONCEPT_SYSTEM, systemForVocabulary } from '../fhir/code-system-uris.js';
import { codeOfConcept, codeSystemName, requireCodeSystem, requireConcept } from './code-system-concept.js';

/** Values of one relationship id listed as properties, at most. */
export const RELATIONSHIP_VALUES_LIMIT = 20;

/** OMOP's concept for English (CONCEPT_SYNONYM.language_concept_id). */
const ENGLISH_LANGUAGE_CONCEPT_ID = 4180186;

export interface LookupCoding {
  system?: string;
  code: string;
  display?: string;
}

export type LookupPropertyValue =
  | { type: 'code'; value: string }
  | { type: 'string'; value: string }
  | { type: 'boolean'; value: boolean }
  | { type: 'date'; value: string }
  | { type: 'coding'; value: LookupCoding };

export interface LookupProperty {
  code: string;
  value: LookupPropertyValue;
}

export interface LookupDesignation {
  /** BCP 47 language code, when known. */
  language?: string;
  /** True for the concept name (FHIR designation use `preferredForLanguage`). */
  preferred: boolean;
  value: string;
}

export interface ConceptLookupRequest {
  system: string;
  code: string;
  version?: string;
  /** Property codes to return (empty or undefined: all). */
  properties?: readonly string[];
}

export interface ConceptLookup {
  system: string;
  /** The code system's name. */
  name: string;
  version: string;
  code: string;
  display: string;
  designations: LookupDesignation[];
  properties: LookupProperty[];
}

/** Property codes taken from the concept's own columns (everything else names a relationship). */
const COLUMN_PROPERTIES = [
  'concept-id',
  'concept-class-id',
  'concept-class-concept-id',
  'domain-id',
  'domain-concept-id',
  'vocabulary-id',
  'vocabulary-concept-id',
  'standard-concept',
  'inactive',
  'valid-start-date',
  'valid-end-date',
  'invalid-reason',
  'source-concept-code',
] as const;
const COLUMN_PROPERTY_SET: ReadonlySet<string> = new Set(COLUMN_PROPERTIES);

function columnProperties(store: ReleaseStore, concept: ConceptRecord, codeIsConceptId: boolean): LookupProperty[] {
  const code = (c: string, value: string): LookupProperty => ({ code: c, value: { type: 'code', value } });
  const classConceptId = store.metadata.conceptClasses().find((c) => c.concept_class_id === concept.concept_class_id)?.concept_class_concept_id;
  const domainConceptId = store.metadata.domains().find((d) => d.domain_id === concept.domain_id)?.domain_concept_id;
  const vocabularyConceptId = store.metadata.vocabulary(concept.vocabulary_id)?.vocabulary_concept_id;
  const sourceSystem = systemForVocabulary(concept.vocabulary_id);
  const out: LookupProperty[] = [];
  if (!codeIsConceptId) out.push(code('concept-id', String(concept.concept_id)));
  out.push(code('concept-class-id', concept.concept_class_id));
  if (classConceptId !== undefined) out.push(code('concept-class-concept-id', String(classConceptId)));
  out.push(code('domain-id', concept.domain_id));
  if (domainConceptId !== undefined) out.push(code('domain-concept-id', String(domainConceptId)));
  out.push({ code: 'vocabulary-id', value: { type: 'string', value: concept.vocabulary_id } });
  if (vocabularyConceptId !== undefined) out.push(code('vocabulary-concept-id', String(vocabularyConceptId)));
  out.push(code('standard-concept', concept.standard_concept ?? 'NS'));
  out.push({ code: 'inactive', value: { type: 'boolean', value: false } });
  out.push({ code: 'valid-start-date', value: { type: 'date', value: concept.valid_start_date } });
  out.push({ code: 'valid-end-date', value: { type: 'date', value: concept.valid_end_date } });
  if (concept.invalid_reason !== null) out.push({ code: 'invalid-reason', value: { type: 'string', value: concept.invalid_reason } });
  out.push({ code: 'source-concept-code', value: { type: 'coding', value: { ...(sourceSystem ? { system: sourceSystem } : {}), code: concept.concept_code } } });
  return out;
}

/** The concept's valid outbound relationships as properties (only `wanted` relationship ids, or all). */
function relationshipProperties(view: ReleaseView, concept: ConceptRecord, wanted: ReadonlySet<string> | undefined): LookupProperty[] {
  const relationshipIds = view.store.relationships
    .countByRelationship({ conceptId: concept.concept_id, direction: 'outbound', includeInvalid: false, otherEnd: {} })
    .map((c) => c.relationship_id)
    .filter((id) => !wanted || wanted.has(id));
  if (!relationshipIds.length) return [];
  const links = view.store.relationships.linkedConceptsOf([concept.concept_id], relationshipIds, RELATIONSHIP_VALUES_LIMIT).get(concept.concept_id) ?? [];
  return links
    .filter((link) => view.canSee(link.concept.vocabulary_id))
    .map((link) => ({
      code: link.relationship_id,
      value: { type: 'coding', value: { system: OMOP_CONCEPT_SYSTEM, code: String(link.concept.concept_id), display: link.concept.concept_name } },
    }));
}

function designations(store: ReleaseStore, concept: ConceptRecord): LookupDesignation[] {
  const out: LookupDesignation[] = [{ language: 'en', preferred: true, value: concept.concept_name }];
  const seen = new Set([concept.concept_name]);
  for (const synonym of store.concepts.synonyms(concept.concept_id)) {
    if (seen.has(synonym.concept_synonym_name)) continue;
    seen.add(synonym.concept_synonym_name);
    out.push({
      ...(synonym.language_concept_id === ENGLISH_LANGUAGE_CONCEPT_ID ? { language: 'en' } : {}),
      preferred: false,
      value: synonym.concept_synonym_name,
    });
  }
  return out;
}

/**
 * Looks a code up. Throws 404 for an unknown system, version or code (tx.fhir.org's messages) and
 * 403 when the concept's vocabulary is licensed away from the caller.
 */
export function lookupConcept(view: ReleaseView, releaseVersion: string, request: ConceptLookupRequest): ConceptLookup {
  const codeSystem = requireCodeSystem(view, request.system, request.version, releaseVersion);
  const concept = requireConcept(view, codeSystem, request.code, releaseVersion);
  const selected = request.properties?.length ? new Set(request.properties) : undefined;
  const properties = columnProperties(view.store, concept, codeSystem.kind === 'omop-concept-id').filter((p) => !selected || selected.has(p.code));
  const wantedRelationships = selected ? new Set([...selected].filter((p) => !COLUMN_PROPERTY_SET.has(p))) : undefined;
  if (!wantedRelationships || wantedRelationships.size) properties.push(...relationshipProperties(view, concept, wantedRelationships));
  return {
    system: codeSystem.canonical,
    name: codeSystemName(view.store, codeSystem),
    version: releaseVersion,
    code: codeOfConcept(codeSystem, concept),
    display: concept.concept_name,
    designations: designations(view.store, concept),
    properties,
  };
}
