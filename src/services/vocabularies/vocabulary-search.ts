/**
 * GET /v1/vocabularies/search?query=: vocabularies found by id or name, case-insensitive, ranked by how they match
 * (id equal, id prefix, name equal, word prefixes, substring), ties in vocabulary authority order.
 */
import type { ReleaseView } from '../release-view.js';
import { validationError } from '../errors.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { compareIds } from '../concept-tallies.js';
import { authorityRank } from '../../search-model/vocabulary-authority.js';
import { listVocabularies, type VocabularySummary } from './vocabulary-catalog.js';

export interface VocabularySearchOptions {
  include_stats?: boolean;
  include_inactive?: boolean;
}

const words = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** The match tier (0 best) of a vocabulary for a query, or undefined when it does not match. */
export function vocabularyMatchTier(vocabulary: Pick<VocabularySummary, 'vocabulary_id' | 'vocabulary_name'>, query: string): number | undefined {
  const q = query.trim().toLowerCase();
  const id = vocabulary.vocabulary_id.toLowerCase();
  const name = vocabulary.vocabulary_name.toLowerCase();
  if (id === q) return 0;
  if (id.startsWith(q)) return 1;
  if (name === q) return 2;
  const queryWords = words(q);
  const targetWords = [...words(name), ...words(id)];
  if (queryWords.length && queryWords.every((w) => targetWords.some((t) => t.startsWith(w)))) return 3;
  if (id.includes(q) || name.includes(q)) return 4;
  return undefined;
}

export function searchVocabularies(
  view: ReleaseView,
  query: string,
  options: VocabularySearchOptions = {},
): VocabularySummary[] {
  if (query.trim() === '') throw validationError('query must contain a character other than a space.', { parameter: 'query' });
  const matches: Array<{ tier: number; vocabulary: VocabularySummary }> = [];
  for (const vocabulary of listVocabularies(view, { ...options, sort_by: 'id' })) {
    const tier = vocabularyMatchTier(vocabulary, query);
    if (tier !== undefined) matches.push({ tier, vocabulary });
  }
  matches.sort(
    (a, b) =>
      a.tier - b.tier ||
      authorityRank(a.vocabulary.vocabulary_id) - authorityRank(b.vocabulary.vocabulary_id) ||
      compareIds(a.vocabulary.vocabulary_id, b.vocabulary.vocabulary_id),
  );
  return matches.map((m) => m.vocabulary);
}
