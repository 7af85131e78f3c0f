/**
 * The ranked sources of the indexed text tiers: one StreamSource per band and tier (merged per rank
 * group by page-assembly), and the per-band budget that lets a walk stop at a band's last match.
 */
import type { SearchHit, SearchStore, TextStream, TextStreamQuery } from '../../store/search-store.js';
import type { RankSource } from './page-assembly.js';
import type { ParsedQuery } from './query-parser.js';
import { bandOfRank } from '../../search-model/ranking.js';

/**
 * What is left to find in each band: its textual matches (the union of every tier, counted for the
 * total anyway) minus those already placed. The tiers of a band partition that union, so once a
 * band's budget reaches 0 its remaining tiers are skipped without touching the index, and a walk
 * stops as soon as it has found the band's last match (instead of reading a long doclist to its end).
 */
export class BandBudget {
  private readonly remaining = new Map<number, number | undefined>();
  constructor(
    /** A band's textual matches, or undefined when unknown (then the band is walked without a budget). */
    private readonly matchesIn: (band: number) => number | undefined,
    /** Per band, how many of its textual matches rule 1 and the exact tiers placed already. */
    private readonly placed: Map<number, number>,
    /** How many rule-1 identifier matches are also textual matches (counted in the bands already). */
    readonly textualIdentifiers: number,
  ) {}
  /** What is left to find in `band` (its matches are counted when first asked). */
  get(band: number): number | undefined {
    if (!this.remaining.has(band)) {
      const n = this.matchesIn(band);
      this.remaining.set(band, n === undefined ? undefined : Math.max(0, n - (this.placed.get(band) ?? 0)));
    }
    return this.remaining.get(band);
  }
  consume(band: number, n: number): void {
    const r = this.get(band);
    if (r !== undefined) this.remaining.set(band, Math.max(0, r - n));
  }
}

/**
 * Each band's budget: its textual matches (`matchesIn`) minus those rule 1 and the exact tiers
 * placed. `matchesIn` is asked lazily, so a band the walk never reaches is never counted.
 */
export function textBudget(
  search: SearchStore,
  parsed: ParsedQuery,
  matchesIn: (band: number) => number | undefined,
  identifierRanks: readonly number[],
  exact: { names: SearchHit[]; synonyms: SearchHit[] },
): BandBudget {
  const textual = search.textMatchesAmong(parsed.phrasings, identifierRanks);
  const placed = new Map<number, number>();
  for (const rank of [...textual, ...exact.names.map((h) => h.rank), ...exact.synonyms.map((h) => h.rank)]) {
    const band = bandOfRank(rank);
    placed.set(band, (placed.get(band) ?? 0) + 1);
  }
  return new BandBudget(matchesIn, placed, textual.size);
}

export class StreamSource implements RankSource {
  private known: number | undefined;
  private resolved: TextStream | undefined;
  constructor(
    private readonly store: SearchStore,
    private readonly query: TextStreamQuery,
    private readonly budget: BandBudget | undefined,
  ) {}

  private get stream(): TextStream {
    return (this.resolved ??= this.store.textStream(this.query));
  }

  private settle(n: number): void {
    if (this.known !== undefined) return;
    this.known = n;
    this.budget?.consume(this.query.band, n);
  }

  count(cap?: number): number {
    if (this.known !== undefined) return cap === undefined ? this.known : Math.min(this.known, cap);
    const remaining = this.budget?.get(this.query.band);
    if (remaining === 0) {
      this.settle(0);
      return 0;
    }
    const bound = remaining === undefined ? cap : cap === undefined ? remaining : Math.min(cap, remaining);
    const n = this.stream.count(bound);
    if (bound === undefined || n < bound || bound === remaining) this.settle(n);
    return n;
  }

  take(offset: number, limit: number): number[] {
    if (this.known !== undefined && offset >= this.known) return [];
    // Once this stream's size is known it has been taken out of the band budget: bound by the size.
    const remaining = this.known ?? this.budget?.get(this.query.band);
    const bounded = remaining === undefined ? limit : Math.min(limit, remaining - offset);
    if (bounded <= 0) {
      if (remaining !== undefined && offset >= remaining) this.settle(remaining);
      return [];
    }
    const ranks = this.stream.ranks(offset, bounded);
    if (ranks.length < bounded || (remaining !== undefined && offset + ranks.length === remaining)) {
      if (offset === 0 && this.known === undefined) this.stream.remember(ranks);
      this.settle(offset + ranks.length);
    }
    return ranks;
  }
}

