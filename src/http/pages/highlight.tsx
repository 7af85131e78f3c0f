/**
 * The matched query words of a text wrapped in `<mark>`, built as JSX nodes from the raw text (so the text is escaped
 * by the renderer and no markup can get through). Words of MIN_FRAGMENT_LENGTH+ characters are marked wherever they
 * occur (keyword search matches them inside words); shorter ones only where a word starts with them.
 */
import type { ComponentChildren } from 'preact';
import { MIN_FRAGMENT_LENGTH } from '../../search-model/tier-plan.js';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One case-insensitive pattern for the words, longest first (so "diabetes" wins over "dia"). */
function patternOf(words: readonly string[]): RegExp | null {
  const unique = [...new Set(words.map((w) => w.trim()).filter((w) => w.length > 0))].sort((a, b) => b.length - a.length);
  if (unique.length === 0) return null;
  const parts = unique.map((w) => ([...w].length >= MIN_FRAGMENT_LENGTH ? escapeRegExp(w) : `(?<![\\p{L}\\p{N}])${escapeRegExp(w)}`));
  return new RegExp(parts.join('|'), 'giu');
}

/** The text as nodes: plain strings, and `<mark>` around every match of `words`. */
export function highlight(text: string, words: readonly string[]): ComponentChildren {
  const pattern = patternOf(words);
  if (!pattern) return text;
  const out: ComponentChildren[] = [];
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    if (match[0].length === 0) continue;
    const start = match.index!;
    if (start > at) out.push(text.slice(at, start));
    out.push(<mark>{match[0]}</mark>);
    at = start + match[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out.length === 1 ? out[0] : out;
}
