/**
 * Candidates for source terms: Usagi's filters plus each row's hints become search filters, rankCandidates proposes
 * the top k, the best is pre-selected, and an auto-approval rule may approve one (marked as the rule's doing).
 */
import { exactKey } from '../../search-model/text-normalization.js';
import { UNIFORM_IDF, type IdfSource } from '../../search-model/semantic/lexicon/sparse-features.js';
import type { EmbeddingProvider } from '../../search-model/semantic/embedding-provider.js';
import type { SemanticIndex } from '../../store/semantic-index.js';
import { validationError } from '../errors.js';
import type { ReleaseView } from '../release-view.js';
import type { SearchFilters, StandardFlag } from '../search/search-filters.js';
import { createLexicalScorer } from '../semantic/lexical-similarity.js';
import { MAX_RANKED_CANDIDATES, rankCandidates, type RankedCandidate, type RankingContext } from '../semantic/ranked-candidates.js';
import type { AutoApprovalRules, MappingFilters, MappingOptions, SourceTerm, StatusSetBy, TermCandidate, TermReview } from './mapping-types.js';

/** Candidates per term when the caller names none (Usagi shows 10 too). */
export const DEFAULT_CANDIDATES_PER_TERM = 10;
/** Most ids one filter list may name. */
const MAX_FILTER_VALUES = 100;

/** A term's computed candidates and initial review (what a batch returns and a job stores). */
export interface TermMappingResult {
  index: number;
  candidates: TermCandidate[];
  review: TermReview;
}

/** The ranking context of a release for mapping: its vectors when it has usable ones, lexical scoring with its word weights. */
export function mappingRankingContext(view: ReleaseView, semantic: { index: SemanticIndex; provider: EmbeddingProvider; idf: IdfSource | null } | null): RankingContext {
  const lexical = createLexicalScorer(semantic?.idf ?? UNIFORM_IDF);
  return { view, index: semantic?.index ?? null, provider: semantic?.provider ?? null, lexical: (q, texts) => lexical.score(q, texts) };
}

function stringList(value: unknown, field: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(list) || list.some((v) => typeof v !== 'string')) throw validationError(`'${field}' must be a list of ids.`, { parameter: field });
  const ids = [...new Set(list.map((v: string) => v.trim()).filter(Boolean))];
  if (ids.length > MAX_FILTER_VALUES) throw validationError(`'${field}' names ${ids.length} values; at most ${MAX_FILTER_VALUES}.`, { parameter: field });
  return ids.length ? ids : undefined;
}

function flag(value: unknown, field: string, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw validationError(`'${field}' must be true or false.`, { parameter: field });
  return value;
}

function checkKeys(value: Record<string, unknown>, allowed: readonly string[], prefix: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw validationError(`Unknown field '${prefix}${key}' (expected one of ${allowed.join(', ')}).`, { parameter: `${prefix}${key}` });
  }
}

/**
 * Mapping options from a caller's JSON (REST body, CLI flags), with defaults: k 10, standard and valid concepts only,
 * no auto-approval. Each problem is a 400 naming the field; a restricted vocabulary named in the filters is a 403.
 */
export function checkMappingOptions(input: unknown, view?: ReleaseView): MappingOptions {
  const raw = (input ?? {}) as Record<string, unknown>;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw validationError(`'options' must be an object.`, { parameter: 'options' });
  checkKeys(raw, ['k', 'filters', 'auto_approve'], '');
  const k = raw.k ?? DEFAULT_CANDIDATES_PER_TERM;
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 1 || k > MAX_RANKED_CANDIDATES) {
    throw validationError(`'k' must be a whole number from 1 to ${MAX_RANKED_CANDIDATES} (got ${JSON.stringify(k)}).`, { parameter: 'k' });
  }
  const f = (raw.filters ?? {}) as Record<string, unknown>;
  if (typeof f !== 'object' || Array.isArray(f)) throw validationError(`'filters' must be an object.`, { parameter: 'filters' });
  checkKeys(f, ['domain_ids', 'vocabulary_ids', 'concept_class_ids', 'standard_only', 'valid_only'], 'filters.');
  const filters: MappingFilters = {
    domain_ids: stringList(f.domain_ids, 'filters.domain_ids'),
    vocabulary_ids: stringList(f.vocabulary_ids, 'filters.vocabulary_ids'),
    concept_class_ids: stringList(f.concept_class_ids, 'filters.concept_class_ids'),
    standard_only: flag(f.standard_only, 'filters.standard_only', true),
    valid_only: flag(f.valid_only, 'filters.valid_only', true),
  };
  for (const key of ['domain_ids', 'vocabulary_ids', 'concept_class_ids'] as const) if (filters[key] === undefined) delete filters[key];
  const a = (raw.auto_approve ?? {}) as Record<string, unknown>;
  if (typeof a !== 'object' || Array.isArray(a)) throw validationError(`'auto_approve' must be an object.`, { parameter: 'auto_approve' });
  checkKeys(a, ['exact_code', 'exact_name', 'score_at_least'], 'auto_approve.');
  const rules: AutoApprovalRules = {};
  if (flag(a.exact_code, 'auto_approve.exact_code', false)) rules.exact_code = true;
  if (flag(a.exact_name, 'auto_approve.exact_name', false)) rules.exact_name = true;
  if (a.score_at_least !== undefined && a.score_at_least !== null) {
    const s = a.score_at_least;
    if (typeof s !== 'number' || !Number.isFinite(s) || s < 0 || s > 1) {
      throw validationError(`'auto_approve.score_at_least' must be a number from 0 to 1 (got ${JSON.stringify(s)}).`, { parameter: 'auto_approve.score_at_least' });
    }
    rules.score_at_least = s;
  }
  if (view) view.assertVisibleAll(filters.vocabulary_ids);
  return { k, filters, auto_approve: rules };
}

/** Both lists' common ids (a row's hint narrows the job's filter), or either one. */
function narrow(all: string[] | undefined, hint: string[] | undefined): string[] | undefined {
  if (!all) return hint;
  if (!hint) return all;
  return all.filter((v) => hint.includes(v));
}

/**
 * The search filters of one term: the job's filters narrowed by the row's hints. A hint naming only vocabularies the
 * caller may not see leaves nothing (null), never a 403 for the whole job.
 */
export function termSearchFilters(view: ReleaseView, filters: MappingFilters, hints: SourceTerm['hints']): SearchFilters | null {
  const visibleHint = hints?.vocabulary_ids?.filter((v) => view.canSee(v));
  if (hints?.vocabulary_ids && visibleHint!.length === 0) return null;
  const vocabularyIds = narrow(filters.vocabulary_ids, visibleHint);
  const domainIds = narrow(filters.domain_ids, hints?.domain_ids);
  const conceptClassIds = narrow(filters.concept_class_ids, hints?.concept_class_ids);
  if ([vocabularyIds, domainIds, conceptClassIds].some((l) => l !== undefined && l.length === 0)) return null;
  const standardConcepts: StandardFlag[] = filters.standard_only === false ? ['S', 'C', 'N'] : ['S'];
  return {
    ...(vocabularyIds ? { vocabularyIds } : {}),
    ...(domainIds ? { domainIds } : {}),
    ...(conceptClassIds ? { conceptClassIds } : {}),
    standardConcepts,
    ...(filters.valid_only === false ? { includeInvalid: true } : {}),
  };
}

export function toTermCandidate(r: RankedCandidate): TermCandidate {
  const c = r.concept;
  return {
    concept_id: c.concept_id,
    concept_name: c.concept_name,
    domain_id: c.domain_id,
    vocabulary_id: c.vocabulary_id,
    concept_class_id: c.concept_class_id,
    concept_code: c.concept_code,
    standard_concept: c.standard_concept,
    score: r.score,
    matched_text: r.matched_text,
    reasons: r.reasons,
    ...(r.via_concept_ids ? { via_concept_ids: r.via_concept_ids } : {}),
  };
}

/** A review nobody has touched: the best candidate pre-selected, unchecked, UNREVIEWED. */
export function uncheckedReview(candidates: readonly TermCandidate[]): TermReview {
  return {
    status: 'unchecked',
    equivalence: 'UNREVIEWED',
    concept_ids: candidates.length ? [candidates[0]!.concept_id] : [],
    comment: '',
    status_set_by: null,
    status_set_at: null,
    assigned_reviewer: '',
  };
}

/**
 * Whether a candidate matches the term exactly by code (or by name): directly, or as the `Maps to` target of a
 * concept whose code (or name) is the term's.
 */
function matchesExactly(view: ReleaseView, term: SourceTerm, c: TermCandidate, by: 'code' | 'name'): boolean {
  if (by === 'code' && c.reasons.includes('exact_code')) return true;
  if (by === 'name' && (c.reasons.includes('exact_name') || c.reasons.includes('exact_synonym'))) return true;
  if (!c.reasons.includes('maps_to') || !c.via_concept_ids) return false;
  const code = term.source_code.trim().toLowerCase();
  const name = exactKey(term.source_name);
  return c.via_concept_ids.some((id) => {
    const via = view.concept(id);
    if (!via) return false;
    return by === 'code' ? code !== '' && via.concept_code.toLowerCase() === code : name !== '' && exactKey(via.concept_name) === name;
  });
}

/**
 * The rule that approves a term, and the candidate it approves: the one candidate matching the source code exactly
 * (directly or through Maps to), then the one matching the name or a synonym exactly, wherever they rank; then the
 * best candidate when its score reaches the threshold. Several exact matches (a code that maps to two concepts) are
 * left to a person.
 */
export function approvingRule(
  view: ReleaseView,
  term: SourceTerm,
  candidates: readonly TermCandidate[],
  rules: AutoApprovalRules,
): { by: StatusSetBy; conceptId: number } | null {
  const best = candidates[0];
  if (!best) return null;
  const only = (by: 'code' | 'name') => {
    const matching = candidates.filter((c) => matchesExactly(view, term, c, by));
    return matching.length === 1 ? matching[0]! : null;
  };
  const code = rules.exact_code && term.source_code.trim() !== '' ? only('code') : null;
  if (code) return { by: { kind: 'rule', rule: 'exact_code' }, conceptId: code.concept_id };
  const name = rules.exact_name ? only('name') : null;
  if (name) return { by: { kind: 'rule', rule: 'exact_name' }, conceptId: name.concept_id };
  if (rules.score_at_least !== undefined && best.score >= rules.score_at_least) return { by: { kind: 'rule', rule: 'score_threshold' }, conceptId: best.concept_id };
  return null;
}

/** The initial review of a term: unchecked, or approved by a rule (status_set_by says which, so a reviewer can undo it). */
export function initialReview(view: ReleaseView, term: SourceTerm, candidates: readonly TermCandidate[], rules: AutoApprovalRules, now: Date): TermReview {
  const review = uncheckedReview(candidates);
  const rule = approvingRule(view, term, candidates, rules);
  if (!rule) return review;
  return { ...review, concept_ids: [rule.conceptId], status: 'approved', status_set_by: rule.by, status_set_at: now.toISOString() };
}

/** Candidates and initial review of one term. */
export async function mapTerm(ctx: RankingContext, term: SourceTerm, options: MappingOptions, now = new Date()): Promise<TermMappingResult> {
  const filters = termSearchFilters(ctx.view, options.filters, term.hints);
  const ranked = filters ? await rankCandidates(ctx, { text: term.source_name, code: term.source_code || undefined, filters, k: options.k }) : [];
  const candidates = ranked.map(toTermCandidate);
  return { index: term.index, candidates, review: initialReview(ctx.view, term, candidates, options.auto_approve, now) };
}

/** Maps a batch of terms in order (what a worker thread runs); stops between terms when `signal` aborts. */
export async function mapTermBatch(
  ctx: RankingContext,
  terms: readonly SourceTerm[],
  options: MappingOptions,
  extra: { now?: Date; signal?: AbortSignal } = {},
): Promise<TermMappingResult[]> {
  const out: TermMappingResult[] = [];
  for (const term of terms) {
    extra.signal?.throwIfAborted();
    out.push(await mapTerm(ctx, term, options, extra.now ?? new Date()));
  }
  return out;
}
