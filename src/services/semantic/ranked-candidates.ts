/**
 * The one candidate ranking of mapping jobs, semantic search, similar concepts and the display resolver: candidates
 * from exact code/name/synonym lookups, keyword search, the vector index and non-standard concepts' `Maps to`, each
 * with why it was proposed, rescored by one model (src/search-model/candidate-ranking.ts).
 */
import type { ConceptRecord } from '../../store/records.js';
import type { SemanticIndex } from '../../store/semantic-index.js';
import type { EmbeddingProvider } from '../../search-model/semantic/embedding-provider.js';
import { exactKey, exactKeyHash, tokenize } from '../../search-model/text-normalization.js';
import { americanSpellingVariant } from '../../search-model/spelling-variants.js';
import { contentTokens } from '../../search-model/stop-words.js';
import {
  candidateScore,
  compareScored,
  coverageWords,
  RANKING_WEIGHTS,
  weightsWithoutMeaning,
  wordCoverage,
  type CandidateFeatures,
  type RankingWeights,
} from '../../search-model/candidate-ranking.js';
import type { ReleaseView } from '../release-view.js';
import { conceptPasses, indexFilterFor, type SearchFilters } from '../search/search-filters.js';
import {
  candidateConcepts,
  conceptTexts,
  KEYWORD_CANDIDATES,
  keywordCandidatesBatch,
  rememberingScorer,
  roundScore,
  semanticScorer,
  sharedRanks,
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
  /** The model's inputs for the matched text, for explanations (each 0..1; src/search-model/candidate-ranking.ts). */
  components: { lexical: number; meaning: number; coverage: number; exact: number };
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

/** One text of a candidate (a name, a synonym, or the name of the concept whose `Maps to` led here) with its features. */
export interface CandidateText {
  text: string;
  features: CandidateFeatures;
}

/** A candidate before the model scores it: why it was proposed and the features of each of its texts. */
export interface CandidateEvidence {
  concept: ConceptRecord;
  reasons: CandidateReason[];
  via_concept_ids?: number[];
  texts: CandidateText[];
}

export interface GatheredCandidates {
  candidates: CandidateEvidence[];
  /** false: the release has no usable vectors, every meaning feature is 0 (the model then uses weightsWithoutMeaning). */
  withMeaning: boolean;
}

/** How many of the text's content words (the longest first) are also keyword-searched alone (texts of 2+ words). */
export const WORD_QUERIES = 4;
/** Keyword-search results kept per single-word query (20 found the same targets as 30 and 50 on the tuning halves). */
export const WORD_QUERY_CANDIDATES = 20;

/**
 * The words of a text that are keyword-searched alone: its `n` longest distinct content words (stop words and words
 * under 3 letters left out), each cut as the typo-tolerant text query cuts it, so that a word fragment also finds
 * another form of the word ("noret" finds "norethindrone" for "norethisterone", "ethin" finds "ethinyl estradiol" for
 * "ethinylestradiol"); none for a one-word text, which the text query covers. Longest first rather than rarest first:
 * on the evaluation's tuning halves rarest first spent the searches on brand names ("HEALTHY ACCENTS IBUPROFEN").
 */
export function searchedWords(text: string, n: number): string[] {
  const words = [...new Set(contentTokens(tokenize(text)))].filter((w) => w.length >= 3);
  if (words.length < 2) return [];
  const chosen = words.sort((a, b) => b.length - a.length || a.localeCompare(b)).slice(0, n);
  return [...new Set(chosen.map((w) => typoTolerantKeywordQueries(w).at(-1)!))];
}

/** A word of the text this rare in the release (concepts whose names or synonyms hold it) is also keyword-searched alone. */
export const RARE_WORD_DOCS = 20;
/** At most this many rare words are searched alone (the rarest first). */
export const RARE_WORD_QUERIES = 4;

/**
 * The text's rare words: content words (2+ letters, not among `skip`) that at most RARE_WORD_DOCS concepts' texts hold,
 * rarest first, at most RARE_WORD_QUERIES. Such a word names its concept almost alone ("MCV" in a long LOINC synonym
 * string), which is what TF-IDF rewards, yet keyword search of the whole text wants every word, and the longest words
 * searched alone may not be it.
 */
export function rareWords(search: { wordDocCounts(words: readonly string[]): Map<string, number> }, texts: readonly string[], skip: ReadonlySet<string>): string[] {
  const words = [...new Set(texts.flatMap((t) => contentTokens(tokenize(t))))].filter((w) => w.length >= 2 && !skip.has(w));
  const docs = search.wordDocCounts(words);
  return words
    .filter((w) => (docs.get(w) ?? Infinity) <= RARE_WORD_DOCS)
    .sort((a, b) => docs.get(a)! - docs.get(b)! || a.localeCompare(b))
    .slice(0, RARE_WORD_QUERIES);
}

function withStandardDefault(filters: SearchFilters): SearchFilters {
  return { ...filters, standardConcepts: filters.standardConcepts ?? ['S', 'C'] };
}

const EXACT_REASONS: readonly CandidateReason[] = ['exact_code', 'exact_name', 'exact_synonym'];

/**
 * Every candidate of a text (unranked, bounded by the keyword and vector candidate counts), with its features; a
 * restricted concept is never among them. Throws 403 when the filters name a vocabulary the caller may not see.
 */
export async function gatherCandidates(ctx: RankingContext, request: RankRequest): Promise<GatheredCandidates> {
  const filters = withStandardDefault(request.filters);
  const indexFilter = indexFilterFor(filters, ctx.view);
  const includeInvalid = filters.includeInvalid === true || filters.invalidOnly === true;
  const excluded = new Set(request.excludeConceptIds ?? []);
  const followMapsTo = request.followMapsTo !== false;
  const found = new Map<number, { concept: ConceptRecord; reasons: Set<CandidateReason>; via: Set<number>; viaText?: string; exactVia: boolean }>();
  const propose = (concept: ConceptRecord, reason: CandidateReason, via?: ConceptRecord, viaReason?: CandidateReason) => {
    if (excluded.has(concept.concept_id) || !ctx.view.canSee(concept.vocabulary_id)) return;
    if (!conceptPasses(concept, indexFilter, includeInvalid)) return;
    let entry = found.get(concept.concept_id);
    if (!entry) found.set(concept.concept_id, (entry = { concept, reasons: new Set(), via: new Set(), exactVia: false }));
    entry.reasons.add(reason);
    if (via) {
      entry.via.add(via.concept_id);
      entry.viaText ??= via.concept_name;
      if (viaReason === 'exact_code') entry.exactVia = true;
    }
  };
  /** A concept found directly: proposed itself when it passes, and its Maps to targets when it is not standard. */
  const consider = (concept: ConceptRecord, reason: CandidateReason) => {
    if (!ctx.view.canSee(concept.vocabulary_id)) return;
    propose(concept, reason);
    if (followMapsTo && concept.standard_concept !== 'S') {
      for (const hit of ctx.view.store.search.mapsToTargets(concept.concept_id)) propose(hit.concept, 'maps_to', concept, reason);
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
  // the text as typed, and its American spelling when it has another (src/search-model/spelling-variants.ts); the
  // typo-tolerant form of each only when no word is searched alone (the cut words alone cover it)
  const variant = americanSpellingVariant(tokenize(request.text));
  const spellings = variant ? [request.text, variant] : [request.text];
  const wordsAlone = [...new Set(spellings.flatMap((t) => searchedWords(t, WORD_QUERIES)))];
  // keyword search wants every word: a long source description rarely matches whole, so its longest words also search
  // alone; all of them in one bulk search
  const keywordQueries = [
    ...spellings.flatMap((t) => (wordsAlone.length ? [t] : typoTolerantKeywordQueries(t))).map((text) => ({ text, limit: KEYWORD_CANDIDATES })),
    ...wordsAlone.map((text) => ({ text, limit: WORD_QUERY_CANDIDATES })),
    // rare words: every concept holding one (a one-word text is searched whole already)
    ...(wordsAlone.length ? rareWords(search, spellings, new Set(wordsAlone)) : []).map((text) => ({ text, limit: RARE_WORD_DOCS })),
  ];
  for (const found of keywordCandidatesBatch(ctx.view, keywordQueries, anyFilters)) for (const concept of found) consider(concept, 'keyword');
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
  const queryWords = coverageWords(request.text);
  const candidates: CandidateEvidence[] = [];
  let at = 0;
  for (const e of entries) {
    const exactConcept = e.reasons.has('exact_code') || e.exactVia;
    const own: CandidateText[] = [];
    for (const text of texts.get(e.concept.concept_id)!) {
      const i = at++;
      own.push({
        text,
        features: {
          lexical: lexicalScores[i]!,
          meaning: meaningScores[i]!,
          coverage: wordCoverage(queryWords, coverageWords(text)),
          exact: exactConcept || (key !== '' && exactKey(text) === key) ? 1 : 0,
          lexicalRank: 0,
          meaningRank: 0,
        },
      });
    }
    candidates.push({
      concept: e.concept,
      reasons: CANDIDATE_REASONS.filter((r) => e.reasons.has(r)),
      ...(e.via.size ? { via_concept_ids: [...e.via].sort((a, b) => a - b) } : {}),
      texts: own,
    });
  }
  setRanks(candidates, 'lexical', 'lexicalRank');
  setRanks(candidates, 'meaning', 'meaningRank');
  return { candidates, withMeaning: scorer !== null };
}

/**
 * A rank feature (lexicalRank, meaningRank): 1/r on every text of a candidate whose best score of the feature (at
 * SCORE_DECIMALS) is r-th, equal scores sharing a rank (r = 1 + the candidates scoring more), so that two concepts
 * both named as the query both rank first and both reach 1.
 */
function setRanks(candidates: readonly CandidateEvidence[], score: 'lexical' | 'meaning', rank: 'lexicalRank' | 'meaningRank'): void {
  const best = candidates.map((c) => roundScore(c.texts.reduce((m, t) => Math.max(m, t.features[score]), 0)));
  const ranks = sharedRanks(best);
  candidates.forEach((c, i) => {
    for (const t of c.texts) t.features[rank] = 1 / ranks[i]!;
  });
}

/** The model's weights for a gathered list: RANKING_WEIGHTS, or without meaning when the release has no vectors. */
export function weightsFor(gathered: GatheredCandidates, weights: RankingWeights = RANKING_WEIGHTS): RankingWeights {
  return gathered.withMeaning ? weights : weightsWithoutMeaning(weights);
}

/** Every gathered candidate scored on its best text by the model, best first (ties: concept_id ascending). */
export function rankGathered(gathered: GatheredCandidates, weights: RankingWeights = RANKING_WEIGHTS): RankedCandidate[] {
  const w = weightsFor(gathered, weights);
  const ranked = gathered.candidates.map((c): RankedCandidate & { conceptId: number } => {
    let best = -1;
    let bestText = c.concept.concept_name;
    let parts: CandidateFeatures = { lexical: 0, meaning: 0, coverage: 0, exact: 0, lexicalRank: 0, meaningRank: 0 };
    for (const t of c.texts) {
      const s = candidateScore(t.features, w);
      if (s > best) {
        best = s;
        bestText = t.text;
        parts = t.features;
      }
    }
    return {
      conceptId: c.concept.concept_id,
      concept: c.concept,
      score: roundScore(best),
      matched_text: bestText,
      reasons: c.reasons,
      ...(c.via_concept_ids ? { via_concept_ids: c.via_concept_ids } : {}),
      components: { lexical: roundScore(parts.lexical), meaning: roundScore(parts.meaning), coverage: roundScore(parts.coverage), exact: parts.exact },
    };
  });
  ranked.sort(compareScored);
  return ranked.map(({ conceptId: _, ...r }) => r);
}

/** Candidates of one source term, best first, at most `k`; a restricted concept is never among them. */
export async function rankCandidates(ctx: RankingContext, request: RankRequest): Promise<RankedCandidate[]> {
  return rankGathered(await gatherCandidates(ctx, request)).slice(0, request.k);
}

/** True when a candidate was proposed by an exact code, name or synonym match. */
export function isExactCandidate(c: Pick<RankedCandidate, 'reasons'>): boolean {
  return c.reasons.some((r) => EXACT_REASONS.includes(r));
}
