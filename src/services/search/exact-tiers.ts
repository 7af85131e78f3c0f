/**
 * The exact text tiers of keyword search: T0 the name equals the query, T1 a synonym equals it (or,
 * search rule 4, has the same word set). Candidates come from hashed keys and are verified against
 * the stored text.
 */
import type { ExactLookupRequest, ExactLookups, IndexFilter, SearchHit, SearchStore } from '../../store/search-store.js';
import { asConceptId } from './code-shapes.js';
import type { ParsedQuery, QueryPhrasing } from './query-parser.js';
import { conceptPasses } from './search-filters.js';
import { contentTokens, wordSetKey } from '../../search-model/stop-words.js';
import { exactKey, exactKeyHash, tokenize, wordSetHash } from '../../search-model/text-normalization.js';

/** Exact-tier candidate lists are bounded; further matches still appear in later tiers. */
const EXACT_LIMIT = 5000;

/** The exact-key and word-set hashes a query's synonyms are looked up by (exact tier T1). */
function synonymHashesOf(parsed: ParsedQuery): number[] {
  return parsed.phrasings.flatMap((p) => [exactKeyHash(p.text), ...(p.wordSetKey ? [wordSetHash(p.wordSetKey)] : [])]);
}

/** What the exact lookups of a query will ask for (so a batch of searches can fetch them together). */
export function exactLookupRequest(parsed: ParsedQuery): ExactLookupRequest {
  return {
    code: parsed.abbreviation ? undefined : parsed.text,
    conceptId: parsed.abbreviation ? undefined : asConceptId(parsed.text),
    nameHashes: parsed.phrasings.map((p) => exactKeyHash(p.text)),
    synonymHashes: synonymHashesOf(parsed),
  };
}

function synonymMatchesPhrasing(synonym: string, p: QueryPhrasing): boolean {
  if (exactKey(synonym) === p.exactKey) return true;
  if (!p.wordSetKey) return false;
  const tokens = tokenize(synonym);
  return contentTokens(tokens).length > 0 && wordSetKey(tokens) === p.wordSetKey;
}

/** Exact tiers (T0 exact name, T1 exact / word-set synonym), verified against the stored text. */
export function exactTiers(
  store: SearchStore,
  lookups: ExactLookups,
  parsed: ParsedQuery,
  filter: IndexFilter,
  includeInvalid: boolean,
  taken: Set<number>,
): { names: SearchHit[]; synonyms: SearchHit[] } {
  const names: SearchHit[] = [];
  const seen = new Set<number>(taken);
  for (const p of parsed.phrasings) {
    for (const h of lookups.nameKeyMatches(exactKeyHash(p.text), EXACT_LIMIT)) {
      if (seen.has(h.rank) || exactKey(h.concept.concept_name) !== p.exactKey || !conceptPasses(h.concept, filter, includeInvalid)) continue;
      seen.add(h.rank);
      names.push(h);
    }
  }
  const candidates = lookups
    .synonymKeyMatches(synonymHashesOf(parsed), EXACT_LIMIT)
    .filter((h) => !seen.has(h.rank) && conceptPasses(h.concept, filter, includeInvalid));
  const synonymLists = store.synonymsOf(candidates.map((h) => h.concept.concept_id));
  const synonyms = candidates.filter((h) =>
    (synonymLists.get(h.concept.concept_id) ?? []).some((s) => parsed.phrasings.some((p) => synonymMatchesPhrasing(s.concept_synonym_name, p))),
  );
  return { names, synonyms };
}

