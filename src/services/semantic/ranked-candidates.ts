/**
 * The one candidate ranking of mapping jobs, semantic search, similar concepts and the display resolver: candidates
 * from exact code/name/synonym lookups, keyword search, the vector index and non-standard concepts' `Maps to`, each
 * with why it was proposed, rescored by one model (src/search-model/candidate-ranking.ts).
 */
import type { ConceptRecord } from '../../store/records.js';
import type { SemanticIndex } from '../../store/semantic-index.js';
import type { EmbeddingProvider } from '../../search-model/semantic/embedding-provider.js';
import { exactKey, exactKeyHash } from '../../search-model/text-normalization.js';
import type { ReleaseView } from '../release-view.js';
import { conceptPasses, indexFilterFor, type SearchFilters } from '../search/search-filters.js';
import {
  candidateConcepts,
  conceptTexts,
  keywordCandidates,
  rememberingScorer,
  roundScore,
  semanticScorer,
  typoTolerantKeywordQueries,
} from './semantic-candidates.js';

/** Why a candidate was proposed (a candidate may have several reasons). */
export type CandidateReason = 'exact_code' | 'exact_name' | 'exact_synonym' | 'keyword' | 'meaning' | 'maps_to';
export const CANDIDATE_REASONS: readonly CandidateReason[] = ['exact_code', 'exact_name', 'exact_synonym', 'keyword', 'meaning', 'maps_to'];

/** Most candidates a caller may ask for per text (mapping jobs: Usagi's k). */
export const MAX_RANKED_CANDIDATES = 25;

export interface RankedCandidate {
  concept: ConceptRecord;
  /** 0..1 (4 decimals), the model's score; higher is better. */
  score: number;
  /** The concept's name or synonym that matched best (or the non-standard concept's name for `maps_to`). */
  matched_text: string;
  reasons: CandidateReason[];
  /** For `maps_to`: the non-standard concepts whose valid `Maps to` lead here. */
  via_concept_ids?: number[];
  /** The model's inputs for the matched text, for explanations (each 0..1). */
  components: { lexical: number; meaning: number };
}

/** What the ranking needs: one release seen with the caller's licence, its vectors if it has them, a lexical scorer. */
export interface RankingContext {
  view: ReleaseView;
  /** null: the release has no usable vectors (lexical scoring only). */
  index: SemanticIndex | null;
  provider: EmbeddingProvider | null;
  /** Plain TF-IDF (words + character trigrams) of the query against each text, 0..1. */
  lexical: (query: string, texts: readonly string[]) => number[];
}

export interface RankRequest {
  /** The source name (or query). */
  text: string;
  /** A source code: concepts whose concept_code equals it (case-insensitive) are candidates with reason `exact_code`. */
  code?: string;
  /** Filters as Usagi's (domain, vocabulary, class, standard flags, validity); default: standard and classification. */
  filters: SearchFilters;
  /** How many candidates to return (1..MAX_RANKED_CANDIDATES for mapping; callers paging semantic search ask for more). */
  k: number;
  excludeConceptIds?: readonly number[];
  /** Propose the `Maps to` targets of non-standard concepts found by code, name or keyword (default true). */
  followMapsTo?: boolean;
}

/** Share of the meaning score in the model's score (the rest is lexical); see src/search-model/candidate-ranking.ts. */
const MEANING_WEIGHT = 0.6;
/** Added to the score of an exact code, name or synonym match (then capped at 1). */
const EXACT_BONUS = 0.2;

function withStandardDefault(filters: SearchFilters): SearchFilters {
  return { ...filters, standardConcepts: filters.standardConcepts ?? ['S', 'C'] };
}

/** Candidates of one source term, best first, at most `k`; a restricted concept is never among them. */
export async function rankCandidates(ctx: RankingContext, request: RankRequest): Promise<RankedCandidate[]> {
  const filters = withStandardDefault(request.filters);
  const indexFilter = indexFilterFor(filters, ctx.view);
  const includeInvalid = filters.includeInvalid === true || filters.invalidOnly === true;
  const excluded = new Set(request.excludeConceptIds ?? []);
  const followMapsTo = request.followMapsTo !== false;
  const found = new Map<number, { concept: ConceptRecord; reasons: Set<CandidateReason>; via: Set<number>; viaText?: string }>();
  const propose = (concept: ConceptRecord, reason: CandidateReason, via?: ConceptRecord) => {
    if (excluded.has(concept.concept_id) || !ctx.view.canSee(concept.vocabulary_id)) return;
    if (!conceptPasses(concept, indexFilter, includeInvalid)) return;
    let entry = found.get(concept.concept_id);
    if (!entry) found.set(concept.concept_id, (entry = { concept, reasons: new Set(), via: new Set() }));
    entry.reasons.add(reason);
    if (via) {
      entry.via.add(via.concept_id);
      entry.viaText ??= via.concept_name;
    }
  };
  /** A concept found directly: proposed itself when it passes, and its Maps to targets when it is not standard. */
  const consider = (concept: ConceptRecord, reason: CandidateReason) => {
    if (!ctx.view.canSee(concept.vocabulary_id)) return;
    propose(concept, reason);
    if (followMapsTo && concept.standard_concept !== 'S') {
      for (const hit of ctx.view.store.search.mapsToTargets(concept.concept_id)) propose(hit.concept, 'maps_to', concept);
    }
  };

  const search = ctx.view.store.search;
  const key = exactKey(request.text);
  const lookups = search.exactLookups([
    { code: request.code, nameHashes: [exactKeyHash(request.text)], synonymHashes: [exactKeyHash(request.text)] },
  ]);
  if (request.code && request.code.trim() !== '') {
    for (const hit of lookups.identifierMatches(request.code.trim(), undefined, 200)) consider(hit.concept, 'exact_code');
  }
  if (key !== '') {
    for (const hit of lookups.nameKeyMatches(exactKeyHash(request.text), 200)) {
      if (exactKey(hit.concept.concept_name) === key) consider(hit.concept, 'exact_name');
    }
    const synonymHits = lookups.synonymKeyMatches([exactKeyHash(request.text)], 200);
    const synonyms = search.synonymsOf(synonymHits.map((h) => h.concept.concept_id));
    for (const hit of synonymHits) {
      if ((synonyms.get(hit.concept.concept_id) ?? []).some((s) => exactKey(s.concept_synonym_name) === key)) consider(hit.concept, 'exact_synonym');
    }
  }
  const anyFilters: SearchFilters = { ...filters, standardConcepts: followMapsTo ? undefined : filters.standardConcepts };
  for (const q of typoTolerantKeywordQueries(request.text)) {
    for (const concept of keywordCandidates(ctx.view, q, anyFilters)) consider(concept, 'keyword');
  }
  let scorer: ((texts: readonly string[]) => number[] | Promise<number[]>) | null = null;
  if (ctx.index && ctx.provider) {
    const semantic = await candidateConcepts(
      { index: ctx.index, provider: ctx.provider, view: ctx.view },
      { text: request.text, filters, wanted: request.k, excludeConceptIds: request.excludeConceptIds, keywordQueries: [] },
    );
    for (const concept of semantic.concepts) propose(concept, 'meaning');
    scorer = semanticScorer(ctx.provider, request.text, semantic);
  }

  const entries = [...found.values()];
  const texts = conceptTexts(ctx, entries.map((e) => e.concept));
  // a Maps to target is scored on the name of the concept that led to it too (the source matched that name)
  for (const e of entries) if (e.viaText && !texts.get(e.concept.concept_id)!.includes(e.viaText)) texts.get(e.concept.concept_id)!.push(e.viaText);
  const lexical = rememberingScorer((t) => ctx.lexical(request.text, t));
  const flat = entries.flatMap((e) => texts.get(e.concept.concept_id)!);
  const lexicalScores = flat.length ? await lexical(flat) : [];
  const meaningScores = flat.length && scorer ? await scorer(flat) : flat.map(() => 0);
  const ranked: RankedCandidate[] = [];
  let at = 0;
  for (const e of entries) {
    let best = -1;
    let bestText = e.concept.concept_name;
    let parts = { lexical: 0, meaning: 0 };
    for (const text of texts.get(e.concept.concept_id)!) {
      const l = lexicalScores[at]!;
      const m = meaningScores[at++]!;
      const s = scorer ? MEANING_WEIGHT * m + (1 - MEANING_WEIGHT) * l : l;
      if (s > best) {
        best = s;
        bestText = text;
        parts = { lexical: roundScore(l), meaning: roundScore(m) };
      }
    }
    const exact = e.reasons.has('exact_code') || e.reasons.has('exact_name') || e.reasons.has('exact_synonym');
    const score = roundScore(Math.min(1, best + (exact ? EXACT_BONUS : 0)));
    ranked.push({
      concept: e.concept,
      score,
      matched_text: bestText,
      reasons: CANDIDATE_REASONS.filter((r) => e.reasons.has(r)),
      ...(e.via.size ? { via_concept_ids: [...e.via].sort((a, b) => a - b) } : {}),
      components: parts,
    });
  }
  ranked.sort((a, b) => b.score - a.score || a.concept.concept_id - b.concept.concept_id);
  return ranked.slice(0, request.k);
}
