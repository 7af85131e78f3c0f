/**
 * E4 ranking rule 1: the concepts whose concept_id or concept_code equals the query, the authoritative
 * vocabulary's concept first, then its valid standard `Maps to` targets, then every other id/code match.
 */
import type { ExactLookups, IndexFilter, SearchHit, SearchStore } from '../../store/search-store.js';
import { asConceptId, codeShapeVocabulary } from './code-shapes.js';
import type { ParsedQuery } from './query-parser.js';
import { IdentifierTier } from '../../search-model/ranking.js';
import { conceptPasses, type SearchFilters } from './search-filters.js';

/** Identifier (rule 1) candidate lists are bounded; further matches still appear in later tiers. */
const IDENTIFIER_LIMIT = 1000;

/** Rule 1: the authoritative identifier match, its Maps to targets, then every other id/code match. */
export function identifierTiers(
  store: SearchStore,
  lookups: ExactLookups,
  parsed: ParsedQuery,
  filters: SearchFilters,
  filter: IndexFilter,
): Map<IdentifierTier, SearchHit[]> {
  const includeInvalid = (filters.includeInvalid || filters.invalidOnly) ?? false;
  const tiers = new Map<IdentifierTier, SearchHit[]>();
  // An expanded abbreviation stands for its expansion (matching rule 1), not for a code.
  if (parsed.abbreviation) return tiers;
  const code = parsed.text;
  const conceptId = asConceptId(code);
  const matches = lookups.identifierMatches(code, conceptId, IDENTIFIER_LIMIT).filter((h) => conceptPasses(h.concept, filter, includeInvalid));
  if (matches.length === 0) return tiers;
  const codeMatches = matches.filter((h) => h.concept.concept_code.toLowerCase() === code.toLowerCase());
  const authorityVocabulary = filters.vocabularyIds?.length
    ? filters.vocabularyIds.find((v) => codeMatches.some((h) => h.concept.vocabulary_id === v))
    : codeShapeVocabulary(code);
  let authoritative = authorityVocabulary ? codeMatches.filter((h) => h.concept.vocabulary_id === authorityVocabulary) : [];
  const idMatch = matches.filter((h) => h.concept.concept_id === conceptId);
  const placed = new Set<number>();
  const mapsTo: SearchHit[] = [];
  if (authoritative.length) {
    authoritative.forEach((h) => placed.add(h.rank));
    for (const source of authoritative) {
      for (const target of store.mapsToTargets(source.concept.concept_id)) {
        if (placed.has(target.rank) || !conceptPasses(target.concept, filter, includeInvalid)) continue;
        placed.add(target.rank);
        mapsTo.push(target);
      }
    }
  } else {
    authoritative = idMatch;
    authoritative.forEach((h) => placed.add(h.rank));
  }
  const others = [...idMatch, ...codeMatches.sort((a, b) => a.rank - b.rank)].filter((h) => {
    if (placed.has(h.rank)) return false;
    placed.add(h.rank);
    return true;
  });
  if (authoritative.length === 0) {
    // No authoritative vocabulary and no concept_id match: every code match is rule 1's first tier.
    if (others.length) tiers.set(IdentifierTier.Authoritative, others);
    return tiers;
  }
  tiers.set(IdentifierTier.Authoritative, authoritative);
  if (mapsTo.length) tiers.set(IdentifierTier.MapsToTarget, mapsTo);
  if (others.length) tiers.set(IdentifierTier.OtherIdentifier, others);
  return tiers;
}

