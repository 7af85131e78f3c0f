/**
 * Why map-by-name queries with differing names are missed: how many are ambiguous by strength (the
 * text cannot tell atenolol 25 from 50 MG Oral Tablet) or name no strength of a target that has
 * one, how many of each method's misses those are, and a few top-1 misses of one method whose
 * query does name the strength, with what it ranked first.
 */
import type { ReleaseStore } from '../../src/store/release-store.js';
import type { MapQuery } from './map-by-name.js';
import { RANK_DEPTH, type EvalQuery, type OutcomesByMethod } from './query-outcomes.js';
import { SHARED, TFIDF } from './ranking-methods.js';

const EXAMPLES = 8;
/** A number written against its unit: "200mg", "0.5mcg/ml". */
const GLUED_STRENGTH = /\d(?:mg|mcg|ml|g|meq|mmol|unt|iu)\b/i;

export function explainMapMisses(queries: readonly MapQuery[], outcomes: OutcomesByMethod, store: ReleaseStore, exampleMethod: string): string {
  const differing = [...queries.keys()].filter((i) => !queries[i]!.identical);
  const ambiguous = (ids: number[]) => ids.filter((i) => queries[i]!.ambiguous).length;
  const noStrength = (ids: number[]) => ids.filter((i) => queries[i]!.strengthMissing && !queries[i]!.ambiguous).length;
  const lines = [
    `Misses (map by name, ${differing.length} differing-name queries). ${ambiguous(differing)} are ambiguous: another indexed concept has the target's ` +
      `words, or several share them once numbers and dose units are removed and the query names none of the target's numbers ` +
      `(e.g. "ATENOLOL - atenolol tablet" → atenolol 25/50/100 MG Oral Tablet); ${noStrength(differing)} more name no strength of a target that has one ` +
      `(the release may hold the strength-less drug form, e.g. "diphenhydramine Oral Tablet", which fits the text better).`,
  ];
  for (const [name, list] of outcomes) {
    const missed = (k: number) => differing.filter((i) => list[i]!.rank === null || list[i]!.rank! > k);
    const [m1, m10] = [missed(1), missed(10)];
    const why = (ids: number[]) => `${ids.length} (${ambiguous(ids)} ambiguous, ${noStrength(ids)} other without the strength)`;
    lines.push(`- ${name}: top-1 misses ${why(m1)}, top-10 misses ${why(m10)}`);
  }
  const list = outcomes.get(exampleMethod);
  if (list) {
    const named = differing.filter((i) => !queries[i]!.strengthMissing && list[i]!.rank !== 1);
    const glued = named.filter((i) => GLUED_STRENGTH.test(queries[i]!.text)).length;
    lines.push(
      `${exampleMethod}: ${named.length} top-1 misses name the target's strength (or it has none); ${glued} of them write a strength glued to its unit ` +
        `("200mg/1", where the concept name has "200 MG": a tokeniser that does not split digits from letters sees the word "200mg").`,
    );
    const examples = named.slice(0, EXAMPLES);
    lines.push(`First ${examples.length} ${exampleMethod} top-1 misses whose query names the target's strength (or it has none) (query → right concept [its rank]; ranked first):`);
    for (const i of examples) {
      const q = queries[i]!;
      const first = list[i]!.first;
      const firstName = first === null ? '(nothing)' : (store.concepts.byId(first)?.concept_name ?? String(first));
      lines.push(`- "${q.text}" → "${q.targetNames.join('" or "')}" [${list[i]!.rank ?? `not in the first ${RANK_DEPTH}`}]; first: "${firstName}"`);
    }
  }
  return lines.join('\n');
}

/**
 * The tuning-half queries of one release whose target the lexical baseline ranks in its top 10 and the shared ranking
 * does not, one line each: `- release: "query" → "target" [TF-IDF rank, shared rank]`.
 */
export function lexicalWinsOf(
  release: string,
  queries: readonly EvalQuery[],
  outcomes: OutcomesByMethod,
  tuningIndex: ReadonlyArray<number | undefined>,
  store: ReleaseStore,
): string[] {
  const lexical = outcomes.get(TFIDF);
  const shared = outcomes.get(SHARED);
  if (!lexical || !shared) return [];
  const lines: string[] = [];
  queries.forEach((q, i) => {
    if (tuningIndex[i] === undefined) return;
    const [l, s] = [lexical[i]!.rank, shared[i]!.rank];
    if (l === null || l > 10 || (s !== null && s <= 10)) return;
    const targets = [...q.targets].map((id) => store.concepts.byId(id)?.concept_name ?? String(id));
    lines.push(`- ${release}: "${q.text}" → "${targets.join('" or "')}" [TF-IDF ${l}, shared ${s ?? `not in the first ${RANK_DEPTH}`}]`);
  });
  return lines;
}
