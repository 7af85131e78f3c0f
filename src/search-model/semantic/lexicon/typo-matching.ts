/**
 * Typo tolerance at the word level: a query word the release does not know matches a candidate word within
 * MAX_TYPO_EDITS(length) optimal-string-alignment edits, counting (1 − edits/length)² of an exact match.
 */

import type { IdfSource } from './sparse-features.js';

const MIN_TYPO_WORD_LENGTH = 4;

/** Edits allowed for a word of this length: 1 up to 7 characters, 2 from 8. */
export function maxTypoEdits(length: number): number {
  return length >= 8 ? 2 : 1;
}

/**
 * Optimal-string-alignment distance of two words, or Infinity once it exceeds `limit` (the
 * computation stops early: most word pairs are far apart).
 */
export function typoDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return Infinity;
  const n = b.length;
  let before = new Array<number>(n + 1);
  let previous = Array.from({ length: n + 1 }, (_, j) => j);
  let current = new Array<number>(n + 1);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        d = Math.min(d, before[j - 2]! + 1);
      }
      current[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > limit) return Infinity;
    [before, previous, current] = [previous, current, before];
  }
  const distance = previous[n]!;
  return distance > limit ? Infinity : distance;
}

/** How much a query word counts as a misspelling of a candidate word: 0, or (1 − edits/length)². */
export function typoCredit(queryWord: string, candidateWord: string): number {
  if (queryWord.length < MIN_TYPO_WORD_LENGTH || candidateWord.length < MIN_TYPO_WORD_LENGTH) return 0;
  const length = Math.max(queryWord.length, candidateWord.length);
  const edits = typoDistance(queryWord, candidateWord, maxTypoEdits(length));
  if (!Number.isFinite(edits) || edits === 0) return 0;
  const credit = 1 - edits / length;
  return credit * credit;
}

/**
 * Dot product of two unit word-weight maps where each query word the release does not know may
 * match its closest candidate word by typoCredit.
 */
export function typoTolerantWordDot(query: Map<string, number>, candidate: Map<string, number>, knownWords: IdfSource): number {
  let sum = 0;
  for (const [word, weight] of query) {
    const exact = candidate.get(word);
    if (exact !== undefined) {
      sum += weight * exact;
      continue;
    }
    if (knownWords.knows?.(word)) continue;
    let best = 0;
    for (const [other, otherWeight] of candidate) {
      if (query.has(other)) continue;
      const value = typoCredit(word, other) * otherWeight;
      if (value > best) best = value;
    }
    sum += weight * best;
  }
  return sum;
}
