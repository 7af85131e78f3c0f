/**
 * What keyword search needs from a release store (E4 and its siblings). The search service
 * (src/services/search) owns the ranking; a store only answers these narrow questions quickly.
 *
 * Vocabulary of this interface (defined in src/services/search/ranking.ts):
 * - a concept's *rank* is `band × 2^26 + ord`: its band (evidence class × core domain) and its
 *   query-independent static ordinal (length bucket, vocabulary authority, name length, concept_id);
 * - an *indexed tier* is one of the text tiers the full-text index answers; the store returns each
 *   tier's concepts minus the concepts of better tiers, in ord order.
 */
import type { ConceptRecord, SynonymRecord } from './records.js';

export type IndexedTier = 'name_phrase' | 'name_words' | 'any_words' | 'name_prefixes' | 'any_prefixes' | 'name_fragments' | 'any_fragments';

/** The words of one phrasing of the query (see QueryPhrasing). */
export interface TextPhrasing {
  tokens: readonly string[];
  requiredTokens: readonly string[];
}

export interface IndexFilter {
  vocabularyIds?: readonly string[];
  domainIds?: readonly string[];
  conceptClassIds?: readonly string[];
  /** 'N' = non-standard (standard_concept null). */
  standardConcepts?: ReadonlyArray<'S' | 'C' | 'N'>;
  /** Licence rules: never returned. */
  hiddenVocabularyIds: readonly string[];
}

export interface TextStreamQuery {
  phrasings: readonly TextPhrasing[];
  tier: IndexedTier;
  band: number;
  filter: IndexFilter;
  /** Ranks already placed higher in the result list (identifier and exact matches). */
  exclude: readonly number[];
  /** Only ords below this bound (a min_score cutoff); undefined = no bound. */
  ordLimit?: number;
  /** Autocomplete: the last word may be a prefix even when it is shorter than 3 characters. */
  prefixLastToken?: boolean;
}

export interface SearchHit {
  rank: number;
  concept: ConceptRecord;
}

export interface BrowseRequest {
  vocabularyId: string;
  standardConcepts?: ReadonlyArray<'S' | 'C' | 'N'>;
  includeInvalid: boolean;
  sortBy: 'concept_code' | 'concept_name' | 'concept_id';
  descending: boolean;
  offset: number;
  limit: number;
}

export interface SearchStore {
  /** False when the release was loaded without a search index. */
  readonly available: boolean;
  /** First ord of each length bucket (index = bucket); for min_score cutoffs. */
  bucketStartOrds(): readonly number[];
  /** Concepts (any validity) whose concept_id equals `conceptId` or whose code equals `code` case-insensitively. */
  identifierMatches(code: string, conceptId: number | undefined, limit: number): SearchHit[];
  /** Valid standard concepts that `conceptId` maps to (`Maps to`, valid relationship). */
  mapsToTargets(conceptId: number): SearchHit[];
  /** Concepts whose name has this exact-key hash (caller verifies the text). */
  nameKeyMatches(hash: number, limit: number): SearchHit[];
  /** Concepts with a synonym whose exact-key or word-set hash is one of these (caller verifies). */
  synonymKeyMatches(hashes: readonly number[], limit: number): SearchHit[];
  synonymsOf(conceptIds: readonly number[]): Map<number, SynonymRecord[]>;
  /** Concepts of these ranks, in the given order (unknown ranks dropped). */
  hitsByRank(ranks: readonly number[]): SearchHit[];
  /** How many concepts the stream holds, counting at most `cap` (undefined = exact). */
  countText(query: TextStreamQuery, cap?: number): number;
  /** Ranks [offset, offset + limit) of the stream, in ord order. */
  textRanks(query: TextStreamQuery, offset: number, limit: number): number[];
  /** Tells the store a stream's complete content (learned by the caller), so later reads need no index walk. */
  rememberStream(query: TextStreamQuery, ranks: readonly number[]): void;
  /** Per band, how many concepts match the query textually at all (the union of every tier). */
  countAnyText(phrasings: readonly TextPhrasing[], bands: readonly number[], filter: IndexFilter): Map<number, number>;
  /** Which of these ranks match the query textually at all. */
  textMatchesAmong(phrasings: readonly TextPhrasing[], ranks: readonly number[]): Set<number>;
  /** Ranks of concepts in this band that match the query textually at all, in ord order, at most `limit`. */
  anyTextRanks(phrasings: readonly TextPhrasing[], band: number, filter: IndexFilter, limit: number): number[];
  /** A vocabulary's concepts without a text query (GET /v1/vocabularies/{id}/concepts), and their number. */
  browseVocabulary(request: BrowseRequest): { concepts: ConceptRecord[]; total: number };
}
