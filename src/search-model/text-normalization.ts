/**
 * How text is compared, in one place for the index builder and the query side: `exactKey` (NFKC, lower case,
 * collapsed whitespace) for "equals", and `tokenize` (accents removed, lower case, split on non-alphanumerics) for
 * words.
 */

const NON_WORD = /[^\p{L}\p{N}]+/u;
const ASCII_NON_WORD = /[^a-z0-9]+/;
const COMBINING_MARKS = /\p{M}+/gu;
const WHITESPACE = /\s+/gu;
// Printable ASCII is already in NFKC/NFKD form: skip the Unicode work for it (most names).
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export function exactKey(text: string): string {
  const normalized = PRINTABLE_ASCII.test(text) ? text : text.normalize('NFKC');
  return normalized.toLowerCase().replace(WHITESPACE, ' ').trim();
}

export function tokenize(text: string): string[] {
  if (PRINTABLE_ASCII.test(text)) return text.toLowerCase().split(ASCII_NON_WORD).filter((t) => t.length > 0);
  const folded = text.normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase();
  return folded.split(NON_WORD).filter((t) => t.length > 0);
}

/** The text given to the full-text index for a name or synonym. */
export function indexText(text: string): string {
  return tokenize(text).join(' ');
}

/** A 53-bit hash (two independent 32-bit FNV-1a variants), used to key exact-match lookups compactly. */
function hashKey(text: string): number {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  // 21 high bits from h2, 32 bits from h1 → a safe integer.
  return (h2 >>> 11) * 0x100000000 + (h1 >>> 0);
}

/** Hash of a name's or synonym's exact key (lookup key of the exact tiers). */
export function exactKeyHash(text: string): number {
  return hashKey(`e\u0000${exactKey(text)}`);
}

/** Hash of a word-set key (search rule 4). */
export function wordSetHash(key: string): number {
  return hashKey(`w\u0000${key}`);
}
