/**
 * One keyword search from request to records in three steps a batch can interleave: prepareSearch validates and
 * parses, rankPage places the page's ranks, materialise turns them into result records.
 */
import type { ReleaseView } from '../release-view.js';
import type { ConceptRecord } from '../../store/records.js';
import type { ExactLookups, IndexFilter, IndexedTier, SearchHit, SearchStore } from '../../store/search-store.js';
import { exactTiers } from './exact-tiers.js';
import { identifierTiers } from './identifier-tiers.js';
import type { ConceptSearchRecord, KeywordSearchRequest, KeywordSearchResult, SortBy } from './keyword-search.js';
import { assemblePage, countAll, ListSource, MergedSource, type RankSource } from './page-assembly.js';
import { parseQuery, type ParsedQuery } from './query-parser.js';
import { bandOfRank, IdentifierTier, identifierScore, INDEXED_TIERS, lastBucketReaching, lengthBucket, nameLength, ordOfRank, rankGroups, TextTier, type RankGroup } from '../../search-model/ranking.js';
import { compareForSort, matchTypeOf, scoreOf, toRecord, type Placement } from './search-records.js';
import { bandCanMatch, demotionApplies, describeFilters, indexFilterFor, type SearchFilters } from './search-filters.js';
import { StreamSource, textBudget, type BandBudget } from './tier-streams.js';

/** sort_by other than relevance re-sorts at most this many best results. */
export const SORT_WINDOW = 10000;

const TIER_NAMES: Record<number, IndexedTier> = {
  [TextTier.NamePhrase]: 'name_phrase',
  [TextTier.NameWords]: 'name_words',
  [TextTier.AnyWords]: 'any_words',
  [TextTier.NamePrefixes]: 'name_prefixes',
  [TextTier.AnyPrefixes]: 'any_prefixes',
  [TextTier.NameFragments]: 'name_fragments',
  [TextTier.AnyFragments]: 'any_fragments',
};

const byOrd = (a: SearchHit, b: SearchHit) => ordOfRank(a.rank) - ordOfRank(b.rank);

/** A validated request: its parsed query, filters and rank groups. */
export interface PreparedSearch {
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

export function prepareSearch(view: ReleaseView, request: KeywordSearchRequest): PreparedSearch {
  const parsed = parseQuery(request.query, request.queryRules);
  const filters = request.filters ?? {};
  const filter = indexFilterFor(filters, view);
  const includeInvalid = (filters.includeInvalid || filters.invalidOnly) ?? false;
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
export interface RankedPage {
  prepared: PreparedSearch;
  window: Array<{ rank: number; placement: Placement }>;
  conceptsByRank: Map<number, ConceptRecord>;
  total: number | null;
  sorter: ((a: ConceptSearchRecord, b: ConceptSearchRecord) => number) | undefined;
  offset: number;
  limit: number;
}

export function rankPage(search: SearchStore, lookups: ExactLookups, prepared: PreparedSearch): RankedPage {
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
  // Textual matches per band: the total, and each band's budget (see BandBudget). The union they
  // count has no prefix-of-last-word tiers (suggest's prefixLastToken): such a search is walked and
  // counted without a budget.
  const identifierRanks = [...identifiers.values()].flat().map((h) => h.rank);
  let unionByBand: Map<number, number> | undefined;
  let identifiersNotTextual = 0;
  let budget: BandBudget | undefined;
  if (!request.exactMatch && minScore === undefined && !request.prefixLastToken) {
    const bands = groups.flatMap((g) => g.bands);
    if (request.countTotal !== false) {
      const counted = search.countAnyText(parsed.phrasings, bands, filter);
      unionByBand = counted;
      budget = textBudget(search, parsed, (band) => counted.get(band), identifierRanks, exact);
      identifiersNotTextual = identifierRanks.length - budget.textualIdentifiers;
    } else {
      // No total asked (bulk search): a band is counted when the walk first reaches it, and only up
      // to what the page could need, so a band with fewer matches gets an exact budget (its empty
      // tiers are skipped without reading the index) and a larger one is walked without a budget.
      const cap = (request.window?.offset ?? (page - 1) * pageSize) + (request.window?.limit ?? pageSize) + 1;
      budget = textBudget(search, parsed, (band) => search.countAnyText(parsed.phrasings, [band], filter, cap).get(band), identifierRanks, exact);
    }
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
export function materialise(search: SearchStore, ranked: RankedPage, fetched: ReadonlyMap<number, ConceptRecord>): KeywordSearchResult {
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
