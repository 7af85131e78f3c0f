/**
 * The ConceptMaps ConceptMap/$translate knows, by canonical URL: none is stored, each is a view of the release
 * (to-{n}, from-{n}) or a table of the FHIR-to-OMOP IG.
 */
import type { ReleaseStore } from '../../store/release-store.js';
import type { ReleaseView } from '../release-view.js';
import type { VocabularyRecord } from '../../store/records.js';
import { administrativeConceptMapIds, ADMINISTRATIVE_MAPPINGS } from '../fhir-resolver/administrative-concept-maps.js';
import { OMOP_CONCEPT_SYSTEM, systemForVocabulary } from '../fhir/code-system-uris.js';

export const OMOP_CONCEPT_MAP_BASE = `${OMOP_CONCEPT_SYSTEM}/ConceptMap/`;

export type TranslationMap =
  /** OMOP concept → the same concept's code in the vocabulary, or its Maps to / Mapped from partners there. */
  | { kind: 'to-vocabulary'; url: string; vocabulary: VocabularyRecord; system: string }
  /** Code of the vocabulary → its standard concepts (Maps to; a standard concept is its own). */
  | { kind: 'from-vocabulary'; url: string; vocabulary: VocabularyRecord }
  /** An IG administrative map: FHIR administrative code → OMOP concept. */
  | { kind: 'administrative'; url: string; conceptMapId: string; system: string };

const OMOP_MAP_URL = /^(to-|from-)?(\d{1,10})$/;

function vocabularyByConceptId(store: ReleaseStore, vocabularyConceptId: number): VocabularyRecord | undefined {
  return store.metadata.vocabularies().find((v) => v.vocabulary_concept_id === vocabularyConceptId);
}

/** The map from OMOP concepts to the vocabulary's codes (to-{n}); undefined when the vocabulary has no FHIR code-system URI. */
export function toVocabularyMap(vocabulary: VocabularyRecord): TranslationMap | undefined {
  const system = systemForVocabulary(vocabulary.vocabulary_id);
  return system ? { kind: 'to-vocabulary', url: `${OMOP_CONCEPT_MAP_BASE}to-${vocabulary.vocabulary_concept_id}`, vocabulary, system } : undefined;
}

/** The map from the vocabulary's codes to standard OMOP concepts (from-{n}). */
export function fromVocabularyMap(vocabulary: VocabularyRecord): TranslationMap {
  return { kind: 'from-vocabulary', url: `${OMOP_CONCEPT_MAP_BASE}from-${vocabulary.vocabulary_concept_id}`, vocabulary };
}

/** The map a canonical URL names (a `|version` suffix is ignored), or undefined when this server knows no such map. */
export function translationMapOfUrl(view: ReleaseView, canonical: string): TranslationMap | undefined {
  const store = view.store;
  const url = canonical.split('|')[0]!.trim();
  if (url.startsWith(OMOP_CONCEPT_MAP_BASE)) {
    const match = OMOP_MAP_URL.exec(url.slice(OMOP_CONCEPT_MAP_BASE.length));
    if (!match) return undefined;
    const vocabulary = vocabularyByConceptId(store, Number(match[2]));
    if (!vocabulary) return undefined;
    return match[1] === 'from-' ? fromVocabularyMap(vocabulary) : toVocabularyMap(vocabulary);
  }
  const administrative = ADMINISTRATIVE_MAPPINGS.find((m) => m.conceptMapUrl === url);
  return administrative
    ? { kind: 'administrative', url: administrative.conceptMapUrl, conceptMapId: administrative.conceptMapId, system: administrative.system }
    : undefined;
}

/** The system a map's answers are in, for the direction asked. */
export function answerSystemOfMap(map: TranslationMap, reverse: boolean): string {
  if (map.kind === 'administrative') return reverse ? map.system : OMOP_CONCEPT_SYSTEM;
  if (map.kind === 'to-vocabulary') return reverse ? OMOP_CONCEPT_SYSTEM : map.system;
  return reverse ? (systemForVocabulary(map.vocabulary.vocabulary_id) ?? OMOP_CONCEPT_SYSTEM) : OMOP_CONCEPT_SYSTEM;
}

/** The IG administrative maps of a (canonical) administrative system, default first. */
export function administrativeMapsOf(system: string): TranslationMap[] {
  return administrativeConceptMapIds(system).map((conceptMapId) => {
    const url = ADMINISTRATIVE_MAPPINGS.find((m) => m.conceptMapId === conceptMapId)!.conceptMapUrl;
    return { kind: 'administrative', url, conceptMapId, system };
  });
}

/** What an unknown map URL error says the server does know. */
export const KNOWN_MAP_URLS =
  `${OMOP_CONCEPT_MAP_BASE}to-{vocabulary_concept_id}, ${OMOP_CONCEPT_MAP_BASE}from-{vocabulary_concept_id}, ` +
  `http://hl7.org/fhir/uv/omop/ConceptMap/{${[...new Set(ADMINISTRATIVE_MAPPINGS.map((m) => m.conceptMapId))].join('|')}}`;
