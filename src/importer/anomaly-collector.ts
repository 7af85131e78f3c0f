/**
 * Counts the oddities met during a load, per kind, keeping the first few occurrences as
 * `FILE:LINE: detail` examples for the summary and the manifest.
 */
import type { AnomalyKindSummary } from '../store/release-manifest.js';
import { ANOMALY_KINDS, type AnomalyKind } from './anomaly-kinds.js';

export const EXAMPLES_PER_KIND = 3;

interface KindTally {
  count: number;
  examples: string[];
}

export class AnomalyCollector {
  private readonly tallies = new Map<AnomalyKind, KindTally>();

  /** One occurrence at `file:line` (line null: the file as a whole). */
  report(kind: AnomalyKind, file: string, line: number | null, detail: string): void {
    const tally = this.tally(kind);
    tally.count++;
    if (tally.examples.length < EXAMPLES_PER_KIND) tally.examples.push(`${line === null ? file : `${file}:${line}`}: ${detail}`);
  }

  /** Occurrences counted elsewhere (e.g. duplicates found by SQL), with their examples. */
  reportMany(kind: AnomalyKind, count: number, examples: readonly string[]): void {
    if (count <= 0) return;
    const tally = this.tally(kind);
    tally.count += count;
    for (const example of examples) if (tally.examples.length < EXAMPLES_PER_KIND) tally.examples.push(example);
  }

  /** Occurrences reported earlier that turn out not to count (rows dropped later as duplicates); examples are kept. */
  withdraw(kind: AnomalyKind, count: number): void {
    const tally = this.tallies.get(kind);
    if (!tally || count <= 0) return;
    tally.count -= count;
    if (tally.count <= 0) this.tallies.delete(kind);
  }

  count(kind: AnomalyKind): number {
    return this.tallies.get(kind)?.count ?? 0;
  }

  /** Every kind seen, in the order of ANOMALY_KINDS. */
  summaries(): AnomalyKindSummary[] {
    return (Object.keys(ANOMALY_KINDS) as AnomalyKind[])
      .filter((kind) => this.tallies.has(kind))
      .map((kind) => ({ kind, description: ANOMALY_KINDS[kind], count: this.tallies.get(kind)!.count, examples: [...this.tallies.get(kind)!.examples] }));
  }

  private tally(kind: AnomalyKind): KindTally {
    let tally = this.tallies.get(kind);
    if (!tally) {
      tally = { count: 0, examples: [] };
      this.tallies.set(kind, tally);
    }
    return tally;
  }
}
