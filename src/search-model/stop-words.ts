/**
 * Stop words (reading note 5): function words only. Negations and qualifiers (without, no, not,
 * non) are never stop words — "with complication" and "without complication" are different
 * concepts.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'of', 'in', 'on', 'at', 'to', 'for', 'by', 'and', 'or', 'as', 'is', 'with', 'due',
]);

/** The tokens that carry meaning: stop words removed. Empty when the text is only stop words/punctuation. */
export function contentTokens(tokens: readonly string[]): string[] {
  return tokens.filter((t) => !STOP_WORDS.has(t));
}

/**
 * The word-set key of search rule 4: the distinct content words, sorted. Two texts with the same key
 * have the same set of words regardless of order and stop words. Empty for stop-word-only text.
 */
export function wordSetKey(tokens: readonly string[]): string {
  return [...new Set(contentTokens(tokens))].sort().join(' ');
}
