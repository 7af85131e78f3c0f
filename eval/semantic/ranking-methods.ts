/**
 * The columns of the evaluation table: each turns a query into concept ids, best first, over one
 * loaded release. Every method sees the same concepts — the valid standard and classification
 * concepts, what the semantic index holds — as a caller with every licence (CPT4 validated), and
 * ranks without a threshold (threshold 0: the table measures ranking, not cut-offs).
 *
 * - keyword (E4): keyword search filtered to standard and classification concepts;
 * - TF-IDF: the plain lexical baseline (words + character trigrams) scored against every entry;
 * - meaning alone: the vector index's nearest concepts plus keyword results, ranked by the provider's
 *   similarity alone (what semantic search did before the shared ranking; /v1/search/similar `semantic`);
 * - shared ranking (added by ./run.ts from ./tuning.ts): what semantic search (GET /v1/search/semantic) answers —
 *   gatherCandidates + the shared model (src/search-model/candidate-ranking.ts), as mapping jobs and `hybrid` rank;
 * - resolver (only with `resolver`): the FHIR resolver's display resolution (POST /v1/fhir/resolve
 *   with a display alone and the query's resource type: src/services/fhir-resolver/display-resolution.ts),
 *   its valid standard concepts of the resource type's expected domains, with its own threshold
 *   (DISPLAY_MATCH_THRESHOLD: a display whose best match scores below it resolves to nothing);
 * - shared ranking, no … (only with `ablations`): ablations of the default provider — semantic search with the same candidates
 *   (the stored vectors' nearest neighbours and the keyword results) scored by the provider's exact
 *   similarity with one part's weight set to 0 (no GloVe vectors, no learned word equivalences);
 * - exact, every entry (only with `exhaustive`): the default provider's exact similarity against
 *   every entry, no candidate step — what the candidate step of semantic search loses.
 */
import type { EmbedEntry } from '../../src/importer/embed-source.js';
import { LicenceRules } from '../../src/licences/licence-rules.js';
import { ReleaseView } from '../../src/services/release-view.js';
import { ServiceError } from '../../src/services/errors.js';
import { expectedDomains } from '../../src/services/fhir-resolver/cdm-target.js';
import { resolveDisplay, type DisplayResolutionContext } from '../../src/services/fhir-resolver/display-resolution.js';
import type { ResourceType } from '../../src/services/fhir-resolver/resolution.js';
import { searchConcepts } from '../../src/services/search/keyword-search.js';
import type { EmbeddingProvider } from '../../src/search-model/semantic/embedding-provider.js';
import { createLexicalScorer } from '../../src/services/semantic/lexical-similarity.js';
import { ReleaseLexiconBuilder } from '../../src/search-model/semantic/lexicon/build-release-lexicon.js';
import { createLexiconProvider, type LexiconProvider } from '../../src/search-model/semantic/lexicon/lexicon-provider.js';
import { UNIFORM_IDF } from '../../src/search-model/semantic/lexicon/sparse-features.js';
import { TextFeatureExtractor, type LexiconFeatureWeights } from '../../src/search-model/semantic/lexicon/text-features.js';
import { semanticSearch } from '../../src/services/semantic/semantic-search.js';
import type { SimilarContext } from '../../src/services/semantic/similar-concepts.js';
import { semanticMatches } from '../../src/services/semantic/semantic-candidates.js';
import { semanticQuery } from '../../src/services/semantic/semantic-query.js';
import type { EvalRelease } from './eval-release.js';

export interface RankingMethod {
  /** Column name in the table. */
  readonly name: string;
  /**
   * Concept ids, best first, at most `depth`. A query the method refuses (too short, …) ranks nothing.
   * `resourceType`: the FHIR resource type the text is resolved for (only the resolver reads it).
   */
  rank(query: string, depth: number, resourceType?: ResourceType): Promise<number[]>;
}

/** The caller every method answers: sees everything a server may serve. */
export const EVAL_POLICY = new LicenceRules('2999-12-31');

export const KEYWORD = 'keyword (E4)';
export const TFIDF = 'TF-IDF';
export const MEANING = 'meaning alone';
export const SHARED = 'shared ranking';
export const RESOLVER = 'resolver (display + resource type)';

export const EXHAUSTIVE = 'exact, every entry';

/** Ablations of the default provider: column name → weights changed from the defaults. */
export const PROVIDER_ABLATIONS: ReadonlyArray<{ name: string; weights: Partial<LexiconFeatureWeights> }> = [
  { name: 'shared ranking, no GloVe', weights: { glove: 0 } },
  { name: 'shared ranking, no equivalences', weights: { equivalents: 0 } },
];

/**
 * Every column that can run on this release (the semantic ones only when it has vectors of the
 * default provider); `resolver` adds the resolver column, `exhaustive` the slow every-entry column.
 */
export function rankingMethodsFor(release: EvalRelease, options: { exhaustive?: boolean; resolver?: boolean; ablations?: boolean } = {}): RankingMethod[] {
  const methods = [keywordMethod(release), tfidfMethod(release.entries)];
  const semantic = release.semantic;
  if (!semantic.ok) return methods;
  const ctx = evalContext(release)!;
  const semanticColumn = (name: string, context: SimilarContext) =>
    refusalTolerant(name, async (query, depth) => (await semanticSearch(context, { query, threshold: 0, pageSize: depth })).results.map((r) => r.concept_id));
  methods.push(
    refusalTolerant(MEANING, async (query, depth) => {
      const text = semanticQuery(query).searchText;
      return (await semanticMatches(ctx, { text, filters: {}, wanted: depth + 1 })).slice(0, depth).map((m) => m.concept.concept_id);
    }),
  );
  const provider = semantic.provider;
  if (options.resolver) methods.push(resolverMethod({ view: ctx.view, semantic: ctx, lexical: ctx.lexical }));
  if (!isLexiconProvider(provider) || !options.ablations) return methods;
  for (const ablation of PROVIDER_ABLATIONS) {
    const ablated = createLexiconProvider(provider.lexicon, { weights: ablation.weights });
    // queries still embed like the stored vectors (same candidates); only the scores change
    const scoring: EmbeddingProvider = { id: provider.id, dimension: provider.dimension, embed: (texts) => provider.embed(texts), similarity: ablated.similarity };
    methods.push(semanticColumn(ablation.name, { ...ctx, provider: scoring }));
  }
  if (options.exhaustive) {
    const extractor = new TextFeatureExtractor(provider.lexicon, provider.weights);
    const features = release.entries.map((e) => extractor.features(e.text));
    methods.push(
      bruteForceMethod(EXHAUSTIVE, release.entries, (query) => {
        const q = extractor.features(query);
        const weight = extractor.partWeight(q);
        return features.map((f) => extractor.similarity(q, f, weight));
      }),
    );
  }
  return methods;
}

/** The services' context on an evaluation release (every licence), or null without vectors. */
export function evalContext(release: EvalRelease): SimilarContext | null {
  const semantic = release.semantic;
  if (!semantic.ok) return null;
  const lexical = createLexicalScorer(semantic.idf ?? UNIFORM_IDF);
  return {
    index: semantic.index,
    provider: semantic.provider,
    view: new ReleaseView(release.store, EVAL_POLICY),
    lexical: (query, texts) => lexical.score(query, texts),
  };
}

function isLexiconProvider(provider: EmbeddingProvider): provider is LexiconProvider {
  return 'lexicon' in provider;
}

/** A method whose refusals of a query (400 for a too short text, …) rank nothing. */
function refusalTolerant(name: string, rank: RankingMethod['rank']): RankingMethod {
  return {
    name,
    rank: async (query, depth, resourceType) => {
      try {
        return await rank(query, depth, resourceType);
      } catch (err) {
        if (err instanceof ServiceError) return [];
        throw err;
      }
    },
  };
}

function resolverMethod(ctx: DisplayResolutionContext): RankingMethod {
  return refusalTolerant(RESOLVER, async (query, depth, resourceType) =>
    (await resolveDisplay(ctx, query, { domainIds: resourceType ? expectedDomains(resourceType) : undefined, limit: depth })).matches.map((m) => m.concept.concept_id),
  );
}

function keywordMethod(release: EvalRelease): RankingMethod {
  return refusalTolerant(KEYWORD, async (query, depth) =>
    searchConcepts(new ReleaseView(release.store, EVAL_POLICY), { query, pageSize: depth, filters: { standardConcepts: ['S', 'C'] } }).items.map((i) => i.concept_id),
  );
}

/** The plain TF-IDF baseline, its word weights counted over the entries themselves. */
function tfidfMethod(entries: readonly EmbedEntry[]): RankingMethod {
  const builder = new ReleaseLexiconBuilder();
  for (const e of entries) builder.addEntryText(e.text);
  const scoreAll = createLexicalScorer(builder.finish({ glove: null })).against(entries.map((e) => e.text));
  return bruteForceMethod(TFIDF, entries, scoreAll);
}

/** Scores every entry, keeps each concept's best entry, ranks concepts by it (entries scoring 0 rank nothing). */
function bruteForceMethod(name: string, entries: readonly EmbedEntry[], scoreAll: (query: string) => readonly number[]): RankingMethod {
  return {
    name,
    rank: async (query, depth) => {
      const scores = scoreAll(query);
      const best = new Map<number, number>();
      entries.forEach((e, i) => {
        const s = scores[i]!;
        if (s > 0 && s > (best.get(e.conceptId) ?? 0)) best.set(e.conceptId, s);
      });
      return [...best]
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .slice(0, depth)
        .map(([id]) => id);
    },
  };
}
