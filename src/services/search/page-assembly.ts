/**
 * Paging over the ranked result list without materialising it: the list is a concatenation of ordered sources, and
 * a page skips whole sources by their (capped) counts and reads only the sources it falls in.
 */
import { ordOfRank } from '../../search-model/ranking.js';

export interface RankSource {
  /** Items in the source; when `cap` is given the answer may stop at `cap` (meaning "at least cap"). */
  count(cap?: number): number;
  /** Items [offset, offset + limit), in order. */
  take(offset: number, limit: number): number[];
}

/** A fixed, already ordered list. */
export class ListSource implements RankSource {
  constructor(private readonly ranks: readonly number[]) {}
  count(): number {
    return this.ranks.length;
  }
  take(offset: number, limit: number): number[] {
    return this.ranks.slice(offset, offset + limit);
  }
}

/** Several sources whose items interleave by static ord (one rank group spanning several bands). */
export class MergedSource implements RankSource {
  constructor(private readonly parts: readonly RankSource[]) {}

  count(cap?: number): number {
    let sum = 0;
    for (const part of this.parts) {
      sum += part.count(cap === undefined ? undefined : cap - sum);
      if (cap !== undefined && sum >= cap) return sum;
    }
    return sum;
  }

  take(offset: number, limit: number): number[] {
    if (this.parts.length === 1) return this.parts[0]!.take(offset, limit);
    const lists = this.parts.map((p) => p.take(0, offset + limit));
    const merged = lists.flat().sort((a, b) => ordOfRank(a) - ordOfRank(b));
    return merged.slice(offset, offset + limit);
  }
}

export interface PlacedRank<T> {
  rank: number;
  placement: T;
}

/**
 * The items at [offset, offset + limit) of the concatenation of `sources`. Each item carries the
 * placement of its source (which rule/group/tier put it there).
 */
export function assemblePage<T>(sources: ReadonlyArray<{ source: RankSource; placement: T }>, offset: number, limit: number): PlacedRank<T>[] {
  const out: PlacedRank<T>[] = [];
  let skip = offset;
  for (const { source, placement } of sources) {
    if (out.length >= limit) break;
    if (skip > 0) {
      const n = source.count(skip + 1);
      if (n <= skip) {
        skip -= n;
        continue;
      }
    }
    for (const rank of source.take(skip, limit - out.length)) out.push({ rank, placement });
    skip = 0;
  }
  return out;
}

/** Exact total over all sources (used when no cheaper total exists, e.g. with min_score). */
export function countAll(sources: ReadonlyArray<{ source: RankSource }>): number {
  let n = 0;
  for (const { source } of sources) n += source.count();
  return n;
}
