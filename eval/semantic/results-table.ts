/**
 * The printed result: one markdown table (a row per evaluation subset and metric, a column per
 * method) and the issue's targets checked against it.
 */
import type { RankSummary } from './metrics.js';

export interface SubsetResult {
  /** e.g. "synonym hold-out: gibleed". */
  subset: string;
  queries: number;
  /** Summary per method name. */
  byMethod: ReadonlyMap<string, RankSummary>;
}

const METRICS: ReadonlyArray<{ label: string; value: (s: RankSummary) => number }> = [
  { label: 'recall@1', value: (s) => s.recallAt1 },
  { label: 'recall@10', value: (s) => s.recallAt10 },
  { label: 'MRR', value: (s) => s.mrr },
];

const fixed3 = (x: number) => x.toFixed(3);

export function formatResultsTable(results: readonly SubsetResult[], methods: readonly string[]): string {
  const lines = [`| evaluation | queries | metric | ${methods.join(' | ')} |`, `|---|---:|---|${methods.map(() => '---:').join('|')}|`];
  for (const r of results) {
    METRICS.forEach((m, i) => {
      const cells = methods.map((name) => {
        const s = r.byMethod.get(name);
        return s ? fixed3(m.value(s)) : 'n/a';
      });
      lines.push(`| ${i === 0 ? r.subset : ''} | ${i === 0 ? r.queries : ''} | ${m.label} | ${cells.join(' | ')} |`);
    });
  }
  return lines.join('\n');
}

export interface TargetCheck {
  description: string;
  /** Measured value, or null when the method did not run. */
  actual: number | null;
  required: number;
  /** What the requirement is made of, when it is not a constant (e.g. "TF-IDF 0.273 + 0.10"). */
  basis?: string;
}

/** "PASS" / "MISS by 0.034" lines, values as fractions. */
export function formatTargetChecks(checks: readonly TargetCheck[]): string {
  return checks
    .map((c) => {
      if (c.actual === null || Number.isNaN(c.required)) return `- ${c.description}: not measured (method unavailable)`;
      const verdict = c.actual >= c.required ? 'PASS' : `MISS by ${fixed3(c.required - c.actual)}`;
      return `- ${c.description}: ${fixed3(c.actual)} (needs ≥ ${fixed3(c.required)}${c.basis ? ` = ${c.basis}` : ''}) → ${verdict}`;
    })
    .join('\n');
}

/** The targets of issue #12, read from the table's subsets. */
export function issueTargetChecks(
  results: readonly SubsetResult[],
  subsets: { holdOut: string; differing: string },
  methods: { hybrid: string; baseline: string },
): TargetCheck[] {
  const summary = (subset: string, method: string) => results.find((r) => r.subset === subset)?.byMethod.get(method);
  const holdOut = summary(subsets.holdOut, methods.hybrid);
  const hybrid = summary(subsets.differing, methods.hybrid);
  const baseline = summary(subsets.differing, methods.baseline);
  return [
    { description: `${methods.hybrid} recall@10, ${subsets.holdOut}`, actual: holdOut?.recallAt10 ?? null, required: 0.9 },
    {
      description: `${methods.hybrid} top-1, ${subsets.differing}, at least ${methods.baseline} top-1 + 0.10`,
      actual: hybrid?.recallAt1 ?? null,
      required: baseline ? baseline.recallAt1 + 0.1 : Number.NaN,
      basis: baseline ? `${methods.baseline} ${fixed3(baseline.recallAt1)} + 0.100` : undefined,
    },
    { description: `${methods.hybrid} top-10, ${subsets.differing}`, actual: hybrid?.recallAt10 ?? null, required: 0.9 },
  ];
}

/** Issue #24: the shared ranking at least the lexical baseline at top-1 and top-10, on every set (one line per set and metric). */
export function baselineChecks(results: readonly SubsetResult[], methods: { shared: string; baseline: string }): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const r of results) {
    const shared = r.byMethod.get(methods.shared);
    const baseline = r.byMethod.get(methods.baseline);
    for (const [label, value] of [
      ['top-1', (s: RankSummary) => s.recallAt1],
      ['top-10', (s: RankSummary) => s.recallAt10],
    ] as const) {
      const margin = shared && baseline ? value(shared) - value(baseline) : 0;
      checks.push({
        description: `${methods.shared} ${label} ≥ ${methods.baseline}, ${r.subset} (${r.queries} queries; ${margin >= 0 ? '+' : ''}${fixed3(margin)})`,
        actual: shared ? value(shared) : null,
        required: baseline ? value(baseline) : Number.NaN,
        basis: baseline ? `${methods.baseline}` : undefined,
      });
    }
  }
  return checks;
}
