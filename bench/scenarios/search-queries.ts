/**
 * Query mixes for the keyword-search scenarios (bench/scenarios/search-*.ts), picked from the loaded
 * store itself so that every scale and seed gets realistic inputs: words by their frequency in the
 * search dictionary (search_word), codes and names from CONCEPT. Not a scenario itself (no default
 * export): the harness skips this file.
 */
import type { BenchContext, BenchRequest } from '../lib/scenario.js';

const enc = encodeURIComponent;

export const searchRequest = (query: string, extra = ''): BenchRequest => ({ path: `/v1/search/concepts?query=${enc(query)}${extra}` });

const LETTERS_ONLY = `word GLOB '[a-z][a-z][a-z]*' AND word NOT GLOB '*[^a-z]*'`;

/** The most frequent words of 3+ letters, stop words aside ("tablet", "disorder"): the most expensive one-word searches. */
export function veryCommonWords(ctx: BenchContext, n = 20): string[] {
  const words = ctx.store
    .prepare(`SELECT word FROM search_word WHERE ${LETTERS_ONLY} AND word NOT IN ('the', 'and', 'for', 'with', 'due') ORDER BY id LIMIT ?`)
    .pluck()
    .all(n) as string[];
  return words;
}

/** Words in 2–50 concepts. */
export function rareWords(ctx: BenchContext, n = 200): string[] {
  return ctx.sample<{ word: string }>(`SELECT word FROM search_word WHERE docs BETWEEN 2 AND 50 AND length(word) >= 5 AND ${LETTERS_ONLY}`, n).map((r) => r.word);
}

/** The first two or three words of standard concept names ("Fracture of femur"). */
export function multiWordQueries(ctx: BenchContext, n = 200): string[] {
  return ctx
    .sample<{ concept_name: string }>(
      `SELECT concept_name FROM concept WHERE standard_concept = 'S' AND invalid_reason IS NULL AND length(concept_name) BETWEEN 12 AND 60
          AND concept_name NOT GLOB '*[^A-Za-z ]*' AND concept_name GLOB '* *'`,
      n,
    )
    .map((r) => r.concept_name.split(' ').slice(0, 2 + Math.floor(ctx.random() * 2)).join(' '))
    .filter((q) => q.trim().length >= 3);
}

/** Parts of words (5 letters from inside words in 500–20,000 concepts): substring matching. */
export function wordParts(ctx: BenchContext, n = 200): string[] {
  return ctx
    .sample<{ word: string }>(`SELECT word FROM search_word WHERE docs BETWEEN 500 AND 20000 AND length(word) >= 8 AND ${LETTERS_ONLY}`, n)
    .map((r) => r.word.slice(1, 6));
}

/** Four-letter beginnings of words in at least 1,000 concepts: autocomplete input. */
export function wordBeginnings(ctx: BenchContext, n = 200): string[] {
  return [
    ...new Set(ctx.sample<{ word: string }>(`SELECT word FROM search_word WHERE docs >= 1000 AND length(word) >= 5 AND ${LETTERS_ONLY}`, n).map((r) => r.word.slice(0, 4))),
  ];
}

export function codesOf(ctx: BenchContext, vocabularyId: string, n = 200): string[] {
  return ctx.sample<{ concept_code: string }>(`SELECT concept_code FROM concept WHERE vocabulary_id = ?`, n, vocabularyId).map((r) => r.concept_code);
}

export const ABBREVIATIONS = ['MI', 'COPD', 'CHF', 'T2DM', 'HTN', 'CKD'];
