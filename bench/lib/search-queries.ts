/**
 * Query mixes for the keyword-search scenarios (bench/scenarios/search-*.ts), picked from the loaded
 * store itself so that every scale and seed gets realistic inputs: words by their frequency in the
 * search dictionary (search_word), codes and names from CONCEPT. Not a scenario itself (no default
 * export): the harness skips this file.
 */
import { STOP_WORDS } from '../../src/search-model/stop-words.js';
import type { BenchContext, BenchRequest } from './scenario.js';

const enc = encodeURIComponent;

export const searchRequest = (query: string, extra = ''): BenchRequest => ({ path: `/v1/search/concepts?query=${enc(query)}${extra}` });

const LETTERS_ONLY = `word GLOB '[a-z][a-z][a-z]*' AND word NOT GLOB '*[^a-z]*'`;
/** Words of 3+ letters that are no stop word ("the", "and", "for", "with", "due" are). */
const CONTENT_WORD = `${LETTERS_ONLY} AND word NOT IN (${[...STOP_WORDS].map((w) => `'${w}'`).join(', ')})`;

/** The most frequent words of 3+ letters, stop words aside ("tablet", "disorder"): the most expensive one-word searches. */
export function veryCommonWords(ctx: BenchContext, n = 20): string[] {
  const words = ctx.store
    .prepare(`SELECT word FROM search_word WHERE ${CONTENT_WORD} ORDER BY id LIMIT ?`)
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

/** Words in `minDocs` or more concepts, sampled (not the most frequent only, unlike veryCommonWords). */
export function commonWords(ctx: BenchContext, n = 200, minDocs = 1000): string[] {
  return ctx
    .sample<{ word: string }>(`SELECT word FROM search_word WHERE docs >= ? AND ${CONTENT_WORD}`, n, minDocs)
    .map((r) => r.word);
}

/**
 * Two adjacent words of a concept name, both in `minDocs` or more concepts ("oral tablet",
 * "fracture femur" after stop words): common multi-word searches with large totals.
 */
export function commonWordPairs(ctx: BenchContext, n = 200, minDocs = 200): string[] {
  const docsOf = ctx.store.prepare('SELECT docs FROM search_word WHERE word = ?').pluck();
  const common = new Map<string, boolean>();
  const isCommon = (w: string) => {
    let c = common.get(w);
    if (c === undefined) common.set(w, (c = ((docsOf.get(w) as number | undefined) ?? 0) >= minDocs));
    return c;
  };
  const out: string[] = [];
  for (const { concept_name } of ctx.sample<{ concept_name: string }>('SELECT concept_name FROM concept WHERE invalid_reason IS NULL', n * 2)) {
    const words = concept_name.toLowerCase().split(/[^a-z]+/).filter((w) => w.length >= 3 && !STOP_WORDS.has(w));
    const pairs = words.slice(1).map((w, i) => [words[i]!, w] as const).filter(([a, b]) => a !== b && isCommon(a) && isCommon(b));
    if (pairs.length) out.push(pairs[Math.floor(ctx.random() * pairs.length)]!.join(' '));
    if (out.length >= n) break;
  }
  return out;
}

export function codesOf(ctx: BenchContext, vocabularyId: string, n = 200): string[] {
  return ctx.sample<{ concept_code: string }>(`SELECT concept_code FROM concept WHERE vocabulary_id = ?`, n, vocabularyId).map((r) => r.concept_code);
}

export const ABBREVIATIONS = ['MI', 'COPD', 'CHF', 'T2DM', 'HTN', 'CKD'];
