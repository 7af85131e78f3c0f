/**
 * CodeSystem/$find-matches as domain logic: the concepts of a code system whose column and relationship properties
 * equal the given ones, exact or ranked by properties held, from bounded indexed reads only.
 */
import type { ReleaseView } from '../release-view.js';
import type { ConceptRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { notFound, validationError } from '../errors.js';
import { OMOP_CONCEPT_SYSTEM } from '../fhir/code-system-uris.js';
import { codeOfConcept, conceptOfCode, requireCodeSystem, terminologySystem, unknownSystemMessage, type ConceptCodeSystem } from './code-system-concept.js';
import { COLUMN_READERS, columnPropertyMatches, isColumnProperty, type ColumnCondition } from './column-property-matches.js';

/** Matches returned at most. */
export const MATCH_LIMIT = 100;
/** Inbound relationship rows read per relationship property, at most. */
const CANDIDATE_ROWS_LIMIT = 1000;
/** Properties one request may name (each relationship property is a read of up to CANDIDATE_ROWS_LIMIT rows). */
export const MAX_PROPERTIES = 20;

/** A requested property: a code and its value (a plain code, or a Coding for a relationship property). */
export interface FindMatchesProperty {
  code: string;
  value: string;
  /** The value's code system, when the value was a Coding. */
  valueSystem?: string;
}

export interface FindMatchesRequest {
  system: string;
  version?: string;
  exact: boolean;
  properties: readonly FindMatchesProperty[];
}

export interface ConceptMatch {
  system: string;
  code: string;
  display: string;
  /** The requested properties the concept does not have (empty when `exact`). */
  unmatched: FindMatchesProperty[];
  /** How many of the requested properties the concept has. */
  matchedCount: number;
}

export interface FindMatchesResult {
  version: string;
  /** At most MATCH_LIMIT, best first. */
  matches: ConceptMatch[];
  /** Number of properties requested. */
  propertyCount: number;
}

interface RelationshipProperty {
  property: FindMatchesProperty;
  /** Concept ids with the relationship to the property's concept (read from its inbound rows). */
  holders: Map<number, ConceptRecord>;
}

function relationshipTarget(view: ReleaseView, property: FindMatchesProperty): ConceptRecord {
  const systemUri = property.valueSystem ?? OMOP_CONCEPT_SYSTEM;
  const system = terminologySystem(systemUri);
  if (!system) throw notFound(unknownSystemMessage(systemUri), 'not_found', { system: systemUri });
  const concept = conceptOfCode(view.store, system, property.value, 'exact');
  if (!concept) {
    throw validationError(`Parameter 'property' '${property.code}': code '${property.value}' is not a concept of ${systemUri}.`, { parameter: 'property' });
  }
  view.assertVisible(concept.vocabulary_id);
  return concept;
}

function relationshipHolders(
  view: ReleaseView,
  property: FindMatchesProperty,
  vocabularyIds: readonly string[] | undefined,
): Map<number, ConceptRecord> {
  const target = relationshipTarget(view, property);
  const rows = view.store.relationships.page(
    {
      conceptId: target.concept_id,
      direction: 'inbound',
      relationshipIds: [property.code],
      includeInvalid: false,
      otherEnd: { hiddenVocabularyIds: view.hiddenVocabularyIds(), ...(vocabularyIds ? { vocabularyIds } : {}) },
    },
    0,
    CANDIDATE_ROWS_LIMIT,
  );
  return new Map(rows.map((row) => [row.other.concept_id, row.other]));
}

/** The candidates of a request with relationship properties, by concept_id, and the test of each property on them. */
function relationshipCandidates(view: ReleaseView, codeSystem: ConceptCodeSystem, relationshipProperties: readonly FindMatchesProperty[]) {
  const vocabularyIds = codeSystem.kind === 'vocabulary' ? codeSystem.vocabularyIds : undefined;
  const relationships: RelationshipProperty[] = relationshipProperties.map((property) => ({
    property,
    holders: relationshipHolders(view, property, vocabularyIds),
  }));
  const candidates = new Map<number, ConceptRecord>();
  for (const r of relationships) for (const [id, concept] of r.holders) candidates.set(id, concept);
  const holds = (concept: ConceptRecord, property: FindMatchesProperty): boolean =>
    relationships.some((r) => r.property === property && r.holders.has(concept.concept_id));
  return { concepts: [...candidates.values()].sort((a, b) => a.concept_id - b.concept_id), holds };
}

/**
 * Finds the concepts with the given properties. 400 for more than MAX_PROPERTIES properties or an
 * unknown relationship value; 404 for an unknown system or version; 403 for a licensed vocabulary.
 */
export function findMatches(view: ReleaseView, releaseVersion: string, request: FindMatchesRequest): FindMatchesResult {
  if (request.properties.length > MAX_PROPERTIES) {
    throw validationError(`Parameter 'property' is given ${request.properties.length} times; at most ${MAX_PROPERTIES} properties are matched.`, { parameter: 'property' });
  }
  if (!request.properties.length) throw validationError("Parameter 'property' is required (at least one property to match).", { parameter: 'property' });
  const codeSystem = requireCodeSystem(view, request.system, request.version, releaseVersion);
  // A `vocabulary-id` property names a vocabulary: a restricted one is the 403, as a REST vocabulary filter is.
  view.assertVisibleAll(request.properties.filter((p) => p.code === 'vocabulary-id').map((p) => p.value));
  const relationshipProperties = request.properties.filter((p) => !isColumnProperty(p.code));
  let candidates: ConceptRecord[];
  let holdsRelationship: (concept: ConceptRecord, property: FindMatchesProperty) => boolean = () => false;
  if (relationshipProperties.length) {
    const read = relationshipCandidates(view, codeSystem, relationshipProperties);
    candidates = read.concepts;
    holdsRelationship = read.holds;
  } else {
    const conditions = request.properties.flatMap((p): ColumnCondition[] => (isColumnProperty(p.code) ? [{ code: p.code, value: p.value }] : []));
    candidates = columnPropertyMatches(view, codeSystem, conditions, request.exact, MATCH_LIMIT);
  }

  const has = (concept: ConceptRecord, property: FindMatchesProperty): boolean =>
    isColumnProperty(property.code) ? COLUMN_READERS[property.code](concept) === property.value : holdsRelationship(concept, property);
  // Candidates come in their tie-break order (concept_id, or search rank); the sort is stable.
  const matches = candidates
    .map((concept) => {
      const unmatched = request.properties.filter((p) => !has(concept, p));
      return { concept, unmatched, matchedCount: request.properties.length - unmatched.length };
    })
    .filter((s) => (request.exact ? s.unmatched.length === 0 : s.matchedCount > 0))
    .sort((a, b) => b.matchedCount - a.matchedCount)
    .slice(0, MATCH_LIMIT)
    .map((s) => ({
      system: codeSystem.canonical,
      code: codeOfConcept(codeSystem, s.concept),
      display: s.concept.concept_name,
      unmatched: s.unmatched,
      matchedCount: s.matchedCount,
    }));
  return { version: releaseVersion, matches, propertyCount: request.properties.length };
}
