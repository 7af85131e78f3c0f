/**
 * What keyword search (E4) needs from a release store: narrow, fast questions over concept ranks and indexed tiers
 * (vocabulary defined in src/search-model/ranking.ts); the search service owns the ranking.
 */
import type { IndexedTier, TextPhrasing } from '../search-model/tier-plan.js';
import type { ConceptRecord, SynonymRecord } from './records.js';

export type { IndexedTier, TextPhrasing };

/** A standard_concept filter value: 'S' standard, 'C' classification, 'N' non-standard (null). */
export type StandardFlag = 'S' | 'C' | 'N';

/** What the index is asked to keep: the request filters plus the caller's hidden vocabularies. */
export interface IndexFilter {
  vocabularyIds?: readonly string[];
  domainIds?: readonly string[];
  conceptClassIds?: readonly string[];
  standardConcepts?: readonly StandardFlag[];
  /** Licence rules: never returned. */
  hiddenVocabularyIds: readonly string[];
  /** Only invalid concepts: the caller reads the invalid bands alone (the index needs no tag for it). */
  invalidOnly?: boolean;
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

export interface TextStream {
  /** How many concepts the stream holds, counting at most `cap` (undefined = exact). */
  count(cap?: number): number;
  /** Ranks [offset, offset + limit) of the stream, in ord order. */
  ranks(offset: number, limit: number): number[];
  /** Tells the store the stream's complete content (learned by the caller), so later reads need no index walk. */
  remember(ranks: readonly number[]): void;
}

/**
 * Filter tags a concept must carry (TagAlternative.require: every value listed) or must not carry
 * (TagAlternative.forbid: none of the values listed).
 */
export interface TagSet {
  vocabularyIds?: readonly string[];
  domainIds?: readonly string[];
  conceptClassIds?: readonly string[];
  standardConcepts?: readonly StandardFlag[];
}

export interface TagAlternative {
  /** Tags the concept must all carry (at least one tag: FTS5 has no "every row" query). */
  require: TagSet;
  /** Tags it must carry none of. */
  forbid: TagSet;
}

/** Concepts chosen by their filter tags alone (no text): those that satisfy one of `anyOf`, within `within`. */
export interface TagQuery {
  anyOf: readonly TagAlternative[];
  within: IndexFilter;
}

export interface SearchHit {
  rank: number;
  concept: ConceptRecord;
}

export interface BrowseRequest {
  vocabularyId: string;
  standardConcepts?: readonly StandardFlag[];
  includeInvalid: boolean;
  sortBy: 'concept_code' | 'concept_name' | 'concept_id';
  descending: boolean;
  offset: number;
  limit: number;
}

/** The exact lookups of keyword search (rule 1 identifiers, exact names, exact synonyms). */
export interface ExactLookups {
  /** Concepts (any validity) whose concept_id equals `conceptId` or whose code equals `code` case-insensitively (ASCII). */
  identifierMatches(code: string, conceptId: number | undefined, limit: number): SearchHit[];
  /** Concepts whose name has this exact-key hash (caller verifies the text), in rank order. */
  nameKeyMatches(hash: number, limit: number): SearchHit[];
  /** Concepts with a synonym whose exact-key or word-set hash is one of these (caller verifies), in rank order. */
  synonymKeyMatches(hashes: readonly number[], limit: number): SearchHit[];
}

/** What one search will ask of ExactLookups, so that a batch of searches can be fetched together. */
export interface ExactLookupRequest {
  code?: string;
  conceptId?: number;
  nameHashes: readonly number[];
  synonymHashes: readonly number[];
}

export interface SearchStore {
  /** First ord of each length bucket (index = bucket); for min_score cutoffs. */
  bucketStartOrds(): readonly number[];
  /**
   * The exact lookups of several searches, fetched together (one index round trip per kind instead
   * of one per search); anything not announced in `requests` is looked up when asked for. A single
   * search is a batch of one.
   */
  exactLookups(requests: readonly ExactLookupRequest[]): ExactLookups;
  /** Valid standard concepts that `conceptId` maps to (`Maps to`, valid relationship). */
  mapsToTargets(conceptId: number): SearchHit[];
  synonymsOf(conceptIds: readonly number[]): Map<number, SynonymRecord[]>;
  /** How many concepts' indexed texts (names and synonyms) hold each word, for the words the index has (tokenized form). */
  wordDocCounts(words: readonly string[]): Map<string, number>;
  /** Concepts of these ranks, in the given order (unknown ranks dropped). */
  hitsByRank(ranks: readonly number[]): SearchHit[];
  /**
   * One band's stream of one tier (its concepts in ord order), resolved once so that its reads cost
   * only the index walk. A stream that is empty by construction is answered without the index.
   */
  textStream(query: TextStreamQuery): TextStream;
  /**
   * Per band, how many concepts match the query textually at all (the union of every tier). With
   * `cap`, a band that holds `cap` or more is left out of the map (only smaller counts are exact).
   */
  countAnyText(phrasings: readonly TextPhrasing[], bands: readonly number[], filter: IndexFilter, cap?: number): Map<number, number>;
  /** Which of these ranks match the query textually at all. */
  textMatchesAmong(phrasings: readonly TextPhrasing[], ranks: readonly number[]): Set<number>;
  /**
   * The first `limit` concepts (any validity) whose filter tags satisfy `query`, as ranks in rank
   * order (band by band, static ord within a band). `bandCounts` says which bands hold matches and
   * how many (the caller knows it from the concept summary): only those bands are read, each with
   * one FTS5 read of the tag column that stops at its count, so no band is walked to its end to
   * learn that it holds nothing more.
   */
  tagMatches(query: TagQuery, limit: number, bandCounts: ReadonlyMap<number, number>): number[];
  /** A vocabulary's concepts without a text query (GET /v1/vocabularies/{id}/concepts), and their number. */
  browseVocabulary(request: BrowseRequest): { concepts: ConceptRecord[]; total: number };
}
