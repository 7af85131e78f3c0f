/**
 * Keyword search (E4): validation → rule-1 identifiers → exact tiers → one ranked stream per rank
 * group and text tier → one page. Ranking definitions live in ./ranking.ts; this module only puts
 * the pieces in that order. A search runs in three phases (prepare, rank the page, read its
 * concepts) so that a batch of searches (bulk search) can share the index reads of phases 2 and 3.
 */
import type { AccessPolicy } from '../access-policy.js';
import { ServiceError } from '../errors.js';
import { LruCache } from '../../lru-cache.js';
import type { ConceptRecord, SynonymRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import type { ExactLookupRequest, ExactLookups, IndexFilter, IndexedTier, SearchHit, SearchStore, TextStream, TextStreamQuery } from '../../store/search-store.js';
import { asConceptId, codeShapeVocabulary } from './code-shapes.js';
import { assemblePage, countAll, ListSource, MergedSource, type RankSource } from './page-assembly.js';
import { parseQuery, type ParsedQuery, type QueryPhrasing, type QueryRules } from './query-parser.js';
import {
  bandOfRank,
  IdentifierTier,
  identifierScore,
  INDEXED_TIERS,
  lastBucketReaching,
  lengthBucket,
  nameLength,
  ordOfRank,
  rankGroups,
  TextTier,
  textScore,
  type RankGroup,
} from './ranking.js';
import { bandCanMatch, conceptPasses, demotionApplies, describeFilters, indexFilterFor, type SearchFilters } from './search-filters.js';
import { contentTokens, wordSetKey } from './stop-words.js';
import { exactKey, exactKeyHash, tokenize, wordSetHash } from './text-normalization.js';

/** Identifier (rule 1) and exact-tier candidate lists are bounded; further matches still appear in later tiers. */
export const IDENTIFIER_LIMIT = 1000;
export const EXACT_LIMIT = 5000;
/** sort_by other than relevance re-sorts at most this many best results. */
export const SORT_WINDOW = 10000;

export type SortBy = 'relevance' | 'name' | 'concept_name' | 'code' | 'concept_code' | 'date' | 'vocabulary_id' | 'concept_id';

export interface KeywordSearchRequest {
  query: string | undefined;
  filters?: SearchFilters;
  page?: number;
  pageSize?: number;
  includeSynonyms?: boolean;
  exactMatch?: boolean;
  minScore?: number;
  sortBy?: SortBy;
  sortOrder?: 'asc' | 'desc';
  /** false skips total_results (autocomplete). Default true. */
  countTotal?: boolean;
  /** Treat the query's last word as a prefix too (autocomplete). */
  prefixLastToken?: boolean;
  queryRules?: QueryRules;
  /** Read exactly these rows of the ranked list instead of page/pageSize. */
  window?: { offset: number; limit: number };
}

export type MatchType = 'exact' | 'partial';

/** A concept search record (E4 "Concept (search result record)"). */
export interface ConceptSearchRecord extends ConceptRecord {
  match_score: number;
  match_type: MatchType;
  synonyms?: SynonymRecord[];
}

export interface KeywordSearchResult {
  query: ParsedQuery;
  items: ConceptSearchRecord[];
  /** null when not counted (countTotal false). */
  total: number | null;
  page: number;
  pageSize: number;
  filtersApplied: Record<string, unknown>;
}

type Placement =
  | { kind: 'identifier'; tier: IdentifierTier }
  | { kind: 'text'; group: RankGroup; tier: TextTier };

const TIER_NAMES: Record<number, IndexedTier> = {
  [TextTier.NamePhrase]: 'name_phrase',
  [TextTier.NameWords]: 'name_words',
  [TextTier.AnyWords]: 'any_words',
  [TextTier.NamePrefixes]: 'name_prefixes',
  [TextTier.AnyPrefixes]: 'any_prefixes',
  [TextTier.NameFragments]: 'name_fragments',
  [TextTier.AnyFragments]: 'any_fragments',
};


/**
 * What is left to find in each band: its textual matches (the union of every tier, counted for the
 * total anyway) minus those already placed. The tiers of a band partition that union, so once a
 * band's budget reaches 0 its remaining tiers are skipped without touching the index, and a walk
 * stops as soon as it has found the band's last match (instead of reading a long doclist to its end).
 */
class BandBudget {
  constructor(
    private readonly remaining: Map<number, number>,
    /** How many rule-1 identifier matches are also textual matches (counted in the bands already). */
    readonly textualIdentifiers: number,
  ) {}
  get(band: number): number | undefined {
    return this.remaining.get(band);
  }
  consume(band: number, n: number): void {
    const r = this.remaining.get(band);
    if (r !== undefined) this.remaining.set(band, Math.max(0, r - n));
  }
}

/** Each band's budget: its textual matches (`known`) minus those rule 1 and the exact tiers placed. */
function textBudget(
  search: SearchStore,
  parsed: ParsedQuery,
  known: Map<number, number>,
  identifierRanks: readonly number[],
  exact: { names: SearchHit[]; synonyms: SearchHit[] },
): BandBudget {
  const textual = search.textMatchesAmong(parsed.phrasings, identifierRanks);
  const remaining = new Map(known);
  for (const rank of [...textual, ...exact.names.map((h) => h.rank), ...exact.synonyms.map((h) => h.rank)]) {
    const band = bandOfRank(rank);
    if (remaining.has(band)) remaining.set(band, Math.max(0, remaining.get(band)! - 1));
  }
  return new BandBudget(remaining, textual.size);
}

class StreamSource implements RankSource {
  private known: number | undefined;
  private resolved: TextStream | undefined;
  constructor(
    private readonly store: SearchStore,
    private readonly query: TextStreamQuery,
    private readonly budget: BandBudget | undefined,
  ) {}

  private get stream(): TextStream {
    return (this.resolved ??= this.store.textStream(this.query));
  }

  private settle(n: number): void {
    if (this.known !== undefined) return;
    this.known = n;
    this.budget?.consume(this.query.band, n);
  }

  count(cap?: number): number {
    if (this.known !== undefined) return cap === undefined ? this.known : Math.min(this.known, cap);
    const remaining = this.budget?.get(this.query.band);
    if (remaining === 0) {
      this.settle(0);
      return 0;
    }
    const bound = remaining === undefined ? cap : cap === undefined ? remaining : Math.min(cap, remaining);
    const n = this.stream.count(bound);
    if (bound === undefined || n < bound || bound === remaining) this.settle(n);
    return n;
  }

  take(offset: number, limit: number): number[] {
    if (this.known !== undefined && offset >= this.known) return [];
    // Once this stream's size is known it has been taken out of the band budget: bound by the size.
    const remaining = this.known ?? this.budget?.get(this.query.band);
    const bounded = remaining === undefined ? limit : Math.min(limit, remaining - offset);
    if (bounded <= 0) {
      if (remaining !== undefined && offset >= remaining) this.settle(remaining);
      return [];
    }
    const ranks = this.stream.ranks(offset, bounded);
    if (ranks.length < bounded || (remaining !== undefined && offset + ranks.length === remaining)) {
      if (offset === 0 && this.known === undefined) this.stream.remember(ranks);
      this.settle(offset + ranks.length);
    }
    return ranks;
  }
}

const byOrd = (a: SearchHit, b: SearchHit) => ordOfRank(a.rank) - ordOfRank(b.rank);

/** Rule 1: the authoritative identifier match, its Maps to targets, then every other id/code match. */
function identifierTiers(
  store: SearchStore,
  lookups: ExactLookups,
  parsed: ParsedQuery,
  filters: SearchFilters,
  filter: IndexFilter,
): Map<IdentifierTier, SearchHit[]> {
  const includeInvalid = filters.includeInvalid ?? false;
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

/** The exact-key and word-set hashes a query's synonyms are looked up by (exact tier T1). */
function synonymHashesOf(parsed: ParsedQuery): number[] {
  return parsed.phrasings.flatMap((p) => [exactKeyHash(p.text), ...(p.wordSetKey ? [wordSetHash(p.wordSetKey)] : [])]);
}

/** What the exact lookups of a query will ask for (so a batch of searches can fetch them together). */
function exactLookupRequest(parsed: ParsedQuery): ExactLookupRequest {
  return {
    code: parsed.abbreviation ? undefined : parsed.text,
    conceptId: parsed.abbreviation ? undefined : asConceptId(parsed.text),
    nameHashes: parsed.phrasings.map((p) => exactKeyHash(p.text)),
    synonymHashes: synonymHashesOf(parsed),
  };
}

function synonymMatchesPhrasing(synonym: string, p: QueryPhrasing): boolean {
  if (exactKey(synonym) === p.exactKey) return true;
  if (!p.wordSetKey) return false;
  const tokens = tokenize(synonym);
  return contentTokens(tokens).length > 0 && wordSetKey(tokens) === p.wordSetKey;
}

/** Exact tiers (T0 exact name, T1 exact / word-set synonym), verified against the stored text. */
function exactTiers(
  store: SearchStore,
  lookups: ExactLookups,
  parsed: ParsedQuery,
  filter: IndexFilter,
  includeInvalid: boolean,
  taken: Set<number>,
): { names: SearchHit[]; synonyms: SearchHit[] } {
  const names: SearchHit[] = [];
  const seen = new Set<number>(taken);
  for (const p of parsed.phrasings) {
    for (const h of lookups.nameKeyMatches(exactKeyHash(p.text), EXACT_LIMIT)) {
      if (seen.has(h.rank) || exactKey(h.concept.concept_name) !== p.exactKey || !conceptPasses(h.concept, filter, includeInvalid)) continue;
      seen.add(h.rank);
      names.push(h);
    }
  }
  const candidates = lookups
    .synonymKeyMatches(synonymHashesOf(parsed), EXACT_LIMIT)
    .filter((h) => !seen.has(h.rank) && conceptPasses(h.concept, filter, includeInvalid));
  const synonymLists = store.synonymsOf(candidates.map((h) => h.concept.concept_id));
  const synonyms = candidates.filter((h) =>
    (synonymLists.get(h.concept.concept_id) ?? []).some((s) => parsed.phrasings.some((p) => synonymMatchesPhrasing(s.concept_synonym_name, p))),
  );
  return { names, synonyms };
}

function toRecord(concept: ConceptRecord, score: number, matchType: MatchType): ConceptSearchRecord {
  return {
    concept_id: concept.concept_id,
    concept_name: concept.concept_name,
    concept_code: concept.concept_code,
    vocabulary_id: concept.vocabulary_id,
    domain_id: concept.domain_id,
    concept_class_id: concept.concept_class_id,
    standard_concept: concept.standard_concept,
    invalid_reason: concept.invalid_reason,
    valid_start_date: concept.valid_start_date,
    valid_end_date: concept.valid_end_date,
    match_score: score,
    match_type: matchType,
  };
}

function scoreOf(placement: Placement, concept: ConceptRecord): number {
  if (placement.kind === 'identifier') return identifierScore(placement.tier);
  return textScore(placement.group.index, placement.tier, lengthBucket(nameLength(concept.concept_name)));
}

function matchTypeOf(placement: Placement, concept: ConceptRecord, parsed: ParsedQuery): MatchType {
  if (placement.kind === 'identifier') {
    if (placement.tier !== IdentifierTier.MapsToTarget) return 'exact';
    return parsed.phrasings.some((p) => p.exactKey === exactKey(concept.concept_name)) ? 'exact' : 'partial';
  }
  return placement.tier === TextTier.ExactName || placement.tier === TextTier.ExactSynonym ? 'exact' : 'partial';
}

function compareForSort(sortBy: SortBy): ((a: ConceptSearchRecord, b: ConceptSearchRecord) => number) | undefined {
  switch (sortBy) {
    case 'name':
    case 'concept_name':
      return (a, b) => a.concept_name.localeCompare(b.concept_name) || a.concept_id - b.concept_id;
    case 'code':
    case 'concept_code':
      return (a, b) => a.concept_code.localeCompare(b.concept_code) || a.concept_id - b.concept_id;
    case 'date':
      return (a, b) => a.valid_start_date.localeCompare(b.valid_start_date) || a.concept_id - b.concept_id;
    case 'vocabulary_id':
      return (a, b) => a.vocabulary_id.localeCompare(b.vocabulary_id) || a.concept_id - b.concept_id;
    case 'concept_id':
      return (a, b) => a.concept_id - b.concept_id;
    default:
      return undefined;
  }
}

export function requireSearchIndex(store: ReleaseStore): SearchStore {
  if (!store.search.available) {
    throw new ServiceError(
      503,
      'service_unavailable',
      `Release ${store.manifest.label} has no keyword-search index (it was loaded by an older omopterm): load it again with --replace.`,
    );
  }
  return store.search;
}

/**
 * Results of recent searches per release. A release never changes once loaded, so a result stays
 * valid for the life of the process; only small pages are kept (at most RESULT_CACHE_ENTRIES).
 */
export const RESULT_CACHE_ENTRIES = 4000;
/** OMOPTERM_SEARCH_RESULT_CACHE=0 turns the result cache off (to measure the uncached path). */
const RESULT_CACHE_ENABLED = process.env.OMOPTERM_SEARCH_RESULT_CACHE !== '0';
const RESULT_CACHE_MAX_ITEMS = 50;
const resultCaches = new WeakMap<SearchStore, LruCache<KeywordSearchResult>>();

/** Results are copied in and out of the cache, so callers may change what they get. */
const copyOf = (result: KeywordSearchResult): KeywordSearchResult => ({ ...result, items: result.items.map((i) => ({ ...i })) });

function cachedResult(search: SearchStore, key: string): KeywordSearchResult | undefined {
  const hit = resultCaches.get(search)?.get(key);
  return hit && copyOf(hit);
}

function rememberResult(search: SearchStore, key: string, result: KeywordSearchResult): void {
  if (result.items.length > RESULT_CACHE_MAX_ITEMS) return;
  let cache = resultCaches.get(search);
  if (!cache) resultCaches.set(search, (cache = new LruCache(RESULT_CACHE_ENTRIES)));
  cache.set(key, copyOf(result));
}

export function searchConcepts(store: ReleaseStore, policy: AccessPolicy, request: KeywordSearchRequest): KeywordSearchResult {
  const [outcome] = searchConceptsBatch(store, policy, [request]);
  if (outcome!.error) throw outcome!.error;
  return outcome!.result!;
}

/** One search of a batch: its result or the error it failed with, and the milliseconds it took. */
export interface BatchSearchOutcome {
  result?: KeywordSearchResult;
  error?: ServiceError;
  /** Time spent on this search alone plus an equal share of the batch's shared index reads. */
  ms: number;
}

/**
 * Several keyword searches at once (bulk search); each succeeds or fails alone. The searches share
 * their index round trips: the exact lookups (identifiers, exact names and synonyms) of all of them
 * are fetched together first, and the concepts of all their pages together last, so a batch of n
 * costs much less than n single searches.
 */
export function searchConceptsBatch(store: ReleaseStore, policy: AccessPolicy, requests: readonly KeywordSearchRequest[]): BatchSearchOutcome[] {
  const search = requireSearchIndex(store);
  const outcomes: BatchSearchOutcome[] = requests.map(() => ({ ms: 0 }));
  const hidden = policy.hiddenVocabularies().sort();
  const cacheKeys = requests.map((r) => (RESULT_CACHE_ENABLED ? JSON.stringify([r, hidden]) : ''));
  let clock = process.hrtime.bigint();
  /** Milliseconds since the last call (charged to one search, or shared). */
  const lap = () => {
    const now = process.hrtime.bigint();
    const ms = Number(now - clock) / 1e6;
    clock = now;
    return ms;
  };
  const fail = (i: number, err: unknown) => {
    if (!(err instanceof ServiceError)) throw err;
    outcomes[i]!.error = err;
  };
  // 1. cached results, then parse and validate the rest
  const prepared: Array<{ index: number; search: PreparedSearch }> = [];
  requests.forEach((request, i) => {
    const cached = RESULT_CACHE_ENABLED ? cachedResult(search, cacheKeys[i]!) : undefined;
    if (cached) outcomes[i]!.result = cached;
    else {
      try {
        prepared.push({ index: i, search: prepareSearch(policy, request) });
      } catch (err) {
        fail(i, err);
      }
    }
    outcomes[i]!.ms += lap();
  });
  // 2. the exact lookups of every search together, then each search's ranked page
  const lookups = search.exactLookups(prepared.map((p) => exactLookupRequest(p.search.parsed)));
  let shared = lap();
  const ranked: Array<{ index: number; page: RankedPage }> = [];
  for (const p of prepared) {
    try {
      ranked.push({ index: p.index, page: rankPage(search, lookups, p.search) });
    } catch (err) {
      fail(p.index, err);
    }
    outcomes[p.index]!.ms += lap();
  }
  // 3. the concepts of every page together, then each result
  const missing = new Set<number>();
  for (const r of ranked) for (const placed of r.page.window) if (!r.page.conceptsByRank.has(placed.rank)) missing.add(placed.rank);
  const fetched = new Map<number, ConceptRecord>();
  for (const h of search.hitsByRank([...missing])) fetched.set(h.rank, h.concept);
  shared += lap();
  for (const r of ranked) {
    const result = materialise(search, r.page, fetched);
    outcomes[r.index]!.result = result;
    if (RESULT_CACHE_ENABLED) rememberResult(search, cacheKeys[r.index]!, result);
    outcomes[r.index]!.ms += lap();
  }
  for (const p of prepared) outcomes[p.index]!.ms += shared / prepared.length;
  return outcomes;
}

/** A validated request: its parsed query, filters and rank groups. */
interface PreparedSearch {
  request: KeywordSearchRequest;
  parsed: ParsedQuery;
  filters: SearchFilters;
  filter: IndexFilter;
  includeInvalid: boolean;
  page: number;
  pageSize: number;
  minScore: number | undefined;
  sortBy: SortBy;
  groups: RankGroup[];
  groupOfBand: Map<number, RankGroup>;
}

function prepareSearch(policy: AccessPolicy, request: KeywordSearchRequest): PreparedSearch {
  const parsed = parseQuery(request.query, request.queryRules);
  const filters = request.filters ?? {};
  const filter = indexFilterFor(filters, policy);
  const includeInvalid = filters.includeInvalid ?? false;
  const groups = rankGroups({ demotion: demotionApplies(filters), includeInvalid })
    .map((g) => ({ ...g, bands: g.bands.filter((b) => bandCanMatch(b, filter)) }))
    .filter((g) => g.bands.length > 0);
  const groupOfBand = new Map<number, RankGroup>();
  for (const g of groups) for (const b of g.bands) groupOfBand.set(b, g);
  return {
    request,
    parsed,
    filters,
    filter,
    includeInvalid,
    page: request.page ?? 1,
    pageSize: request.pageSize ?? 20,
    minScore: request.minScore !== undefined && request.minScore > 0 ? request.minScore : undefined,
    sortBy: request.sortBy ?? 'relevance',
    groups,
    groupOfBand,
  };
}

/** A search's page as placed ranks (before the concepts are read), with what is already known. */
interface RankedPage {
  prepared: PreparedSearch;
  window: Array<{ rank: number; placement: Placement }>;
  conceptsByRank: Map<number, ConceptRecord>;
  total: number | null;
  sorter: ((a: ConceptSearchRecord, b: ConceptSearchRecord) => number) | undefined;
  offset: number;
  limit: number;
}

function rankPage(search: SearchStore, lookups: ExactLookups, prepared: PreparedSearch): RankedPage {
  const { request, parsed, filters, filter, includeInvalid, minScore, sortBy, groups, groupOfBand, page, pageSize } = prepared;

  // Rule 1, then the exact tiers; everything placed there is excluded from the streams.
  const identifiers = identifierTiers(search, lookups, parsed, filters, filter);
  const taken = new Set<number>();
  for (const hits of identifiers.values()) for (const h of hits) taken.add(h.rank);
  const exact = exactTiers(search, lookups, parsed, filter, includeInvalid, taken);
  const conceptsByRank = new Map<number, ConceptRecord>();
  for (const hits of identifiers.values()) for (const h of hits) conceptsByRank.set(h.rank, h.concept);
  for (const h of [...exact.names, ...exact.synonyms]) conceptsByRank.set(h.rank, h.concept);
  const exclude = [...taken, ...exact.names.map((h) => h.rank), ...exact.synonyms.map((h) => h.rank)];

  const bucketStarts = search.bucketStartOrds();
  // Textual matches per band: the total, and each band's budget (see BandBudget).
  const identifierRanks = [...identifiers.values()].flat().map((h) => h.rank);
  let unionByBand: Map<number, number> | undefined;
  let identifiersNotTextual = 0;
  let budget: BandBudget | undefined;
  if (request.countTotal !== false && !request.exactMatch && minScore === undefined) {
    unionByBand = search.countAnyText(parsed.phrasings, groups.flatMap((g) => g.bands), filter);
    budget = textBudget(search, parsed, unionByBand, identifierRanks, exact);
    identifiersNotTextual = identifierRanks.length - budget.textualIdentifiers;
  }
  const sources: Array<{ source: RankSource; placement: Placement }> = [];
  for (const tier of [IdentifierTier.Authoritative, IdentifierTier.MapsToTarget, IdentifierTier.OtherIdentifier]) {
    const hits = identifiers.get(tier);
    if (!hits?.length) continue;
    if (request.exactMatch && tier === IdentifierTier.MapsToTarget) continue;
    if (minScore !== undefined && identifierScore(tier) < minScore) continue;
    sources.push({ source: new ListSource(hits.map((h) => h.rank)), placement: { kind: 'identifier', tier } });
  }
  for (const group of groups) {
    const tiers: Array<[TextTier, SearchHit[] | null]> = [
      [TextTier.ExactName, exact.names],
      [TextTier.ExactSynonym, exact.synonyms],
      ...(request.exactMatch ? [] : INDEXED_TIERS.map((t): [TextTier, null] => [t, null])),
    ];
    for (const [tier, list] of tiers) {
      const lastBucket = minScore === undefined ? undefined : lastBucketReaching(group.index, tier, minScore);
      if (lastBucket === -1) continue;
      const placement: Placement = { kind: 'text', group, tier };
      if (list) {
        const inGroup = list
          .filter((h) => groupOfBand.get(bandOfRank(h.rank)) === group)
          .filter((h) => lastBucket === undefined || lengthBucket(nameLength(h.concept.concept_name)) <= lastBucket)
          .sort(byOrd);
        if (inGroup.length) sources.push({ source: new ListSource(inGroup.map((h) => h.rank)), placement });
        continue;
      }
      if (parsed.phrasings.length === 0) continue;
      const ordLimit = lastBucket === undefined ? undefined : bucketStarts[lastBucket + 1];
      const parts = group.bands.map(
        (band) =>
          new StreamSource(search, {
            phrasings: parsed.phrasings,
            tier: TIER_NAMES[tier]!,
            band,
            filter,
            exclude,
            ordLimit,
            prefixLastToken: request.prefixLastToken,
          }, budget),
      );
      sources.push({ source: new MergedSource(parts), placement });
    }
  }

  let total: number | null = null;
  if (request.countTotal !== false) {
    if (unionByBand) total = [...unionByBand.values()].reduce((a, b) => a + b, 0) + identifiersNotTextual;
    else total = countAll(sources);
  }

  const sorter = compareForSort(sortBy);
  const offset = request.window?.offset ?? (page - 1) * pageSize;
  const limit = request.window?.limit ?? pageSize;
  const window = sorter ? assemblePage(sources, 0, Math.min(SORT_WINDOW, total ?? SORT_WINDOW)) : assemblePage(sources, offset, limit);
  return { prepared, window, conceptsByRank, total, sorter, offset, limit };
}

/** The result records of a ranked page; `fetched` holds concepts read for it (and possibly for others). */
function materialise(search: SearchStore, ranked: RankedPage, fetched: ReadonlyMap<number, ConceptRecord>): KeywordSearchResult {
  const { prepared, window, conceptsByRank, total, sorter, offset, limit } = ranked;
  const { request, parsed, filters, minScore, sortBy, page, pageSize } = prepared;
  const conceptOf = (rank: number) => conceptsByRank.get(rank) ?? fetched.get(rank);
  let items = window
    .filter((p) => conceptOf(p.rank) !== undefined)
    .map((p) => {
      const concept = conceptOf(p.rank)!;
      return toRecord(concept, scoreOf(p.placement, concept), matchTypeOf(p.placement, concept, parsed));
    });
  if (sorter) {
    items.sort(sorter);
    if (request.sortOrder === 'desc') items.reverse();
    items = items.slice(offset, offset + limit);
  }
  if (request.includeSynonyms && items.length) {
    const synonyms = search.synonymsOf(items.map((i) => i.concept_id));
    for (const item of items) item.synonyms = synonyms.get(item.concept_id) ?? [];
  }
  return {
    query: parsed,
    items,
    total,
    page,
    pageSize,
    filtersApplied: describeFilters(filters, {
      exact_match: request.exactMatch,
      min_score: minScore,
      ...(parsed.abbreviation ? { abbreviation_expanded: { [parsed.abbreviation]: parsed.phrasings.map((p) => p.text) } } : {}),
      ...(sorter ? { sort_by: sortBy, sort_order: request.sortOrder ?? 'asc' } : {}),
    }),
  };
}
