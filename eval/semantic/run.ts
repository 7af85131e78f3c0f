/**
 * `npm run eval:semantic`: measures meaning-based search on real vocabulary data (issue #12) and
 * prints one markdown table, the candidate counts, an analysis of the misses and the issue's targets
 * on stdout; progress on stderr. Every release is built with the real loader into a temporary
 * directory, removed at the end (`--keep` keeps it and prints where). `--exhaustive` adds a slow
 * column: the default provider's exact similarity against every entry (what semantic search's
 * candidate step loses).
 *
 *   1. synonym hold-out (./synonym-holdout.ts) on eunomia-gibleed-2019 and the demo vocabulary;
 *   2. map by name (./map-by-name.ts): the tutorial ETL map and the shared datasets' `Maps to` rows;
 *   3. columns (./ranking-methods.ts): keyword search (E4), the TF-IDF baseline, semantic, hybrid,
 *      the FHIR resolver's display resolution with the target's resource type (map by name only),
 *      and ablations of the default provider.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AthenaTables } from './athena-tables.js';
import { loadEvalRelease, type EvalRelease } from './eval-release.js';
import { isIndexedConcept } from './indexed-concepts.js';
import { buildMapByName, type MapQuery } from './map-by-name.js';
import { explainMapMisses } from './miss-analysis.js';
import { concatOutcomes, RANK_DEPTH, runQueries, summariseSubset, type EvalQuery, type OutcomesByMethod } from './query-outcomes.js';
import { HYBRID, rankingMethodsFor, RESOLVER, TFIDF } from './ranking-methods.js';
import { formatResultsTable, formatTargetChecks, issueTargetChecks, type SubsetResult } from './results-table.js';
import { readSharedDatasets } from './shared-datasets.js';
import { holdOutSynonyms } from './synonym-holdout.js';

const HOLD_OUT_BOTH = 'synonym hold-out: both datasets';
const MAP_DIFFERING = 'map by name: all differing names';

const progress = (message: string) => process.stderr.write(`[eval:semantic] ${message}\n`);

/** "435 concepts, 434 indexed (valid S/C) with 772 names + synonyms; vector index: …". */
function describeRelease(release: EvalRelease, tables: AthenaTables): string {
  const concepts = tables.CONCEPT ?? [];
  const indexed = new Set(concepts.filter(isIndexedConcept).map((c) => c.concept_id)).size;
  const vectors = release.semantic.ok
    ? `; vector index: ${release.semantic.index.meta.entryCount} entries of ${release.semantic.index.meta.conceptCount} concepts (${release.semantic.index.meta.provider})`
    : `; no vectors (${release.semantic.message})`;
  return `${new Set(concepts.map((c) => c.concept_id)).size} concepts, ${indexed} indexed (valid S/C) with ${release.entries.length} names + synonyms${vectors}`;
}

async function main(): Promise<void> {
  const keep = process.argv.includes('--keep');
  const exhaustive = process.argv.includes('--exhaustive');
  const started = Date.now();
  progress('reading the demo vocabulary and the shared datasets');
  const datasets = await readSharedDatasets();
  const workDir = mkdtempSync(join(tmpdir(), 'omopterm-eval-semantic-'));
  const releases: EvalRelease[] = [];
  /** The table's columns: the methods of the release with the most of them (every other release's are among them, in the same order). */
  let columns: string[] = [];
  const evaluate = async (name: string, tables: AthenaTables, queries: readonly EvalQuery[], options: { resolver?: boolean } = {}) => {
    progress(`loading release ${name} (${tables.CONCEPT?.length ?? 0} concepts)`);
    const release = await loadEvalRelease(name, tables, workDir);
    releases.push(release);
    progress(`loaded ${name} in ${release.loadSeconds.toFixed(1)} s; ${queries.length} queries`);
    const methods = rankingMethodsFor(release, { exhaustive, ...options });
    if (methods.length > columns.length) columns = methods.map((m) => m.name);
    const outcomes = await runQueries(methods, queries, (method, seconds) => progress(`${name}: ${method} in ${seconds.toFixed(1)} s`));
    return { release, outcomes };
  };
  try {
    const results: SubsetResult[] = [];
    const countLines: string[] = [];
    const subset = (name: string, outcomes: OutcomesByMethod, keep: (i: number) => boolean = () => true) =>
      results.push({ subset: name, ...summariseSubset(outcomes, keep) });

    // 1. synonym hold-out
    const holdOutOutcomes: OutcomesByMethod[] = [];
    for (const [name, tables] of [
      ['eunomia-gibleed-2019', datasets.gibleed],
      ['demo vocabulary', datasets.demo],
    ] as const) {
      const holdOut = holdOutSynonyms(tables);
      const queries = holdOut.queries.map((q) => ({ text: q.text, targets: new Set([q.conceptId]) }));
      const { release, outcomes } = await evaluate(`holdout-${name.split(' ')[0]}`, holdOut.tables, queries);
      holdOutOutcomes.push(outcomes);
      subset(`synonym hold-out: ${name}`, outcomes);
      const tagOnly = holdOut.queries.filter((q) => q.tagOnly).length;
      const elsewhere = holdOut.queries.filter((q) => q.textElsewhere).length;
      countLines.push(
        `- synonym hold-out, ${name}: ${queries.length} queries (${tagOnly} differ from the name only by a trailing tag; ` +
          `${elsewhere} are the name or a synonym of another indexed concept); release: ${describeRelease(release, holdOut.tables)}`,
      );
    }
    subset(HOLD_OUT_BOTH, concatOutcomes(holdOutOutcomes));

    // 2. map by name
    const mapByName = buildMapByName(datasets);
    const mapQueries = mapByName.queries;
    const { release: mapRelease, outcomes: mapOutcomes } = await evaluate('map-by-name', mapByName.tables, mapQueries, { resolver: true });
    const where = (test: (q: MapQuery) => boolean) => (i: number) => test(mapQueries[i]!);
    subset('map by name: tutorial map, differing names', mapOutcomes, where((q) => q.pairSource === 'tutorial-map' && !q.identical));
    subset('map by name: tutorial map, identical names', mapOutcomes, where((q) => q.pairSource === 'tutorial-map' && q.identical));
    subset('map by name: Maps to rows, differing names', mapOutcomes, where((q) => q.pairSource === 'maps-to' && !q.identical));
    subset('map by name: Maps to rows, identical names', mapOutcomes, where((q) => q.pairSource === 'maps-to' && q.identical));
    subset(MAP_DIFFERING, mapOutcomes, where((q) => !q.identical));
    subset('map by name: differing names, not ambiguous by strength', mapOutcomes, where((q) => !q.identical && !q.ambiguous));
    subset('map by name: differing names, strength named (or none)', mapOutcomes, where((q) => !q.identical && !q.strengthMissing));
    countLines.push(
      `- map by name: ${mapQueries.length} queries; candidates ${describeRelease(mapRelease, mapByName.tables)}; ` +
        `left out: ${mapByName.excludedConcepts} concepts of the shared datasets (source concepts, and the vocabularies only on the source side: ${mapByName.excludedVocabularies.join(', ')}) ` +
        `and ${mapByName.staleCopies} distractors copying a target's vocabulary and words (an older release's version); ` +
        `${mapByName.selfMappedRows} tutorial map rows mapping a concept to itself not used`,
    );
    const resolverOutcomes = mapOutcomes.get(RESOLVER);
    if (resolverOutcomes) {
      const withType = mapQueries.filter((q) => q.resourceType !== undefined).length;
      countLines.push(
        `- ${RESOLVER}: ${withType} of the ${mapQueries.length} map-by-name queries have a resource type (their target's domain has one); ` +
          `${resolverOutcomes.filter((o) => o.first === null).length} resolved to nothing (no match at or above the resolver's threshold)`,
      );
    }

    const out = [
      formatResultsTable(results, columns),
      `recall@k: share of queries whose right concept is among the first k distinct concepts (top-1 = recall@1); MRR over the first ${RANK_DEPTH}; no threshold. ` +
        'Every column sees the valid standard and classification concepts only (what the semantic index holds: names and synonyms); keyword search is filtered to the same. ' +
        `The ${RESOLVER} column (map by name only) resolves the text as POST /v1/fhir/resolve does a display alone with the resource type of the target's domain: ` +
        "valid standard concepts of the resource type's expected domains first, with the resolver's own threshold (a text resolved to nothing is a miss).",
      `Candidates:\n${countLines.join('\n')}`,
      explainMapMisses(mapQueries, mapOutcomes, mapRelease.store, HYBRID),
      `Targets (issue #12):\n${formatTargetChecks(issueTargetChecks(results, { holdOut: HOLD_OUT_BOTH, differing: MAP_DIFFERING }, { hybrid: HYBRID, baseline: TFIDF }))}`,
    ];
    process.stdout.write(`${out.join('\n\n')}\n`);
    progress(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    for (const r of releases) await r.close();
    if (keep) progress(`kept ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
