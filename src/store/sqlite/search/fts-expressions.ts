/**
 * FTS5 query text for the per-band full-text tables (columns name, syn, tags): a tier plan of
 * src/search-model/tier-plan.ts, the request filters as tag clauses, the disjoint parts a
 * union is counted in, and tag-only queries (SearchStore.tagMatches).
 */
import type { IndexFilter, TagQuery, TagSet } from '../../search-store.js';
import { tierPlan, type BandExpansions, type TextMatch, type TierPlan, type WordTerm } from '../../../search-model/tier-plan.js';
import { classTag, domainTag, standardTag, vocabularyTag } from './search-index-layout.js';

/** Totals of queries with up to this many required words are counted as disjoint parts (see unionCountExpressions). */
const UNION_SPLIT_MAX_WORDS = 3;

export const quoteFtsToken = (token: string) => `"${token.replace(/"/g, '""')}"`;
/** A word, or every word starting with it (an FTS5 prefix query: complete, its doclists merged once). */
const termExpression = (t: WordTerm) => (t.prefix ? `${quoteFtsToken(t.text)}*` : quoteFtsToken(t.text));
const orOf = (parts: readonly string[]) => (parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`);
const COLUMNS = { name: '{name}', name_synonyms: '{name syn}' } as const;

function matchExpression(m: TextMatch): string {
  if ('phrases' in m) return `${COLUMNS.name}: (${m.phrases.map((p) => quoteFtsToken(p.join(' '))).join(' OR ')})`;
  const perPhrasing = m.words.map((words) => `(${words.map((alternatives) => orOf(alternatives.map(termExpression))).join(' AND ')})`);
  return `${COLUMNS[m.columns]}: (${perPhrasing.join(' OR ')})`;
}

/** A tier plan as one FTS5 expression: its match, NOT each of its `unless` parts in turn. */
export function tierExpression(plan: TierPlan): string {
  let out = matchExpression(plan.match);
  for (const u of plan.unless) out = `(${out}) NOT (${matchExpression(u)})`;
  return out;
}

/** The filter tags of a set, one group per kind given (vocabularies, domains, classes, standard flags), in that order. */
function tagGroups(set: TagSet): string[][] {
  const groups = [
    (set.vocabularyIds ?? []).map(vocabularyTag),
    (set.domainIds ?? []).map(domainTag),
    (set.conceptClassIds ?? []).map(classTag),
    (set.standardConcepts ?? []).map(standardTag),
  ];
  return groups.filter((tags) => tags.length > 0);
}

/** `expr` restricted by the request filters and without the caller's hidden vocabularies. */
export function filterExpression(expr: string, filter: IndexFilter): string {
  const clauses: string[] = [`(${expr})`];
  for (const tags of tagGroups(filter)) clauses.push(`({tags}: ${orOf(tags.map(quoteFtsToken))})`);
  let out = clauses.length === 1 ? clauses[0]! : `(${clauses.join(' AND ')})`;
  const hidden = filter.hiddenVocabularyIds.filter((v) => !filter.vocabularyIds || filter.vocabularyIds.includes(v)).sort();
  if (hidden.length) out = `${out} NOT ({tags}: ${orOf(hidden.map(vocabularyTag).map(quoteFtsToken))})`;
  return out;
}

/**
 * A tag-only query as one FTS5 expression: each alternative is its required tags AND-ed, NOT any of
 * its forbidden ones; the alternatives OR-ed; then the `within` filters and hidden vocabularies.
 * '' when no alternative requires a tag (FTS5 has no "every row" expression).
 */
export function tagQueryExpression(query: TagQuery): string {
  const alternatives = query.anyOf.flatMap((alternative) => {
    const required = tagGroups(alternative.require).flat();
    if (!required.length) return [];
    const all = `{tags}: (${required.map(quoteFtsToken).join(' AND ')})`;
    const forbidden = tagGroups(alternative.forbid).flat();
    return [forbidden.length ? `(${all} NOT {tags}: ${orOf(forbidden.map(quoteFtsToken))})` : `(${all})`];
  });
  if (!alternatives.length) return '';
  return filterExpression(alternatives.join(' OR '), query.within);
}

/**
 * The union of every tier in the band of `expansions` (looked up at tierLevels('union'), without
 * autocomplete) as disjoint expressions whose counts add up. FTS5 advances an
 * OR node by looking at every child, so a word OR-ed with hundreds of rare fragment words costs
 * hundreds of times its doclist; split per required word into "the word or a word it starts" and
 * "only a word containing it elsewhere" (fragment words NOT the former), every combination of which
 * is cheap. A one-word query splits its fragment words (most frequent first) further, into groups of
 * 1, 4, 16, 64, … words, each NOT everything before it, so that no OR mixes frequent and rare words.
 * (Counting the groups' union with duplicates removed, without the NOTs, measured slower at scale
 * 0.1: query=ion 62 ms against about 40 ms; it materialises every match.)
 */
export function unionCountExpressions(expansions: BandExpansions): string[] {
  const phrasings = expansions.phrasings;
  const single = phrasings.length === 1 ? phrasings[0]! : undefined;
  if (!single || single.requiredTokens.length > UNION_SPLIT_MAX_WORDS) {
    const union = tierPlan(expansions, 'union');
    return union === null ? [] : [tierExpression(union)];
  }
  const terms = (word: BandExpansions['phrasings'][number]['words'][number], level: 'PF' | 'FO') => {
    const inBand = word[level];
    if (inBand === undefined) throw new Error(`union count: the ${level} expansions of a word were not looked up`);
    return inBand.map(termExpression);
  };
  const oneWord = single.requiredTokens.length === 1;
  const minus = (expr: string, seen: string[]) => (seen.length ? `(${expr} NOT ${orOf(seen)})` : expr);
  const choices = single.words.map((word) => {
    const starts = terms(word, 'PF');
    const inside = terms(word, 'FO');
    const options = starts.length ? [orOf(starts)] : [];
    if (!oneWord) return inside.length ? [...options, minus(orOf(inside), starts)] : options;
    let seen = starts;
    for (let start = 0, size = 1; start < inside.length; start += size, size *= 4) {
      const group = inside.slice(start, start + size);
      options.push(minus(orOf(group), seen));
      seen = [...seen, ...group];
    }
    return options;
  });
  let combos: string[][] = [[]];
  for (const options of choices) combos = combos.flatMap((c) => options.map((o) => [...c, o]));
  return combos.map((c) => `{name syn}: (${c.join(' AND ')})`);
}
