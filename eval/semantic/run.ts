/**
 * `npm run eval:semantic`: measures the shared candidate ranking against the lexical baseline and meaning alone on
 * real vocabulary data (issues #12, #24): chooses its weights on the tuning half of every set (./halves.ts,
 * ./tuning.ts), prints the table of the reporting halves, the choice, the misses and the PASS lines on stdout.
 *
 *   1. synonym hold-out (./synonym-holdout.ts) on eunomia-gibleed-2019 and the demo vocabulary;
 *   2. map by name (./map-by-name.ts): the tutorial ETL map and the shared datasets' `Maps to` rows;
 *   3. the same two in releases of names only (no synonyms, relationships or ancestors: the release teaches nothing);
 *   4. columns (./ranking-methods.ts); `--ablations` adds the provider ablations, `--exhaustive` the every-entry column,
 *      `--keep` keeps the temporary releases, `--dump-tuning FILE` writes the tuning halves' candidates (JSON).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AthenaTables } from './athena-tables.js';
import { loadEvalRelease, type EvalRelease } from './eval-release.js';
import { isIndexedConcept } from './indexed-concepts.js';
import { buildMapByName, type MapQuery } from './map-by-name.js';
import { explainMapMisses, lexicalWinsOf } from './miss-analysis.js';
import { concatOutcomes, RANK_DEPTH, runQueries, summariseSubset, type EvalQuery, type OutcomesByMethod, type QueryOutcome } from './query-outcomes.js';
import { evalContext, MEANING, rankingMethodsFor, RESOLVER, SHARED, TFIDF } from './ranking-methods.js';
import { baselineChecks, formatResultsTable, formatTargetChecks, issueTargetChecks, type SubsetResult } from './results-table.js';
import { isTuningQuery, SPLIT_DESCRIPTION } from './halves.js';
import {
  candidateRecall,
  chooseDisplay,
  chooseWeights,
  evaluateWeights,
  gatherDisplayQuery,
  gatherTuningQuery,
  outcomeUnder,
  WEIGHT_STEP,
  DISPLAY_KEEP_RIGHT,
  FIXED_EXACT_WEIGHT,
  MEANING_ONLY_SIMILARITY,
  type DisplayTuningQuery,
  type TuningQuery,
  type TuningSet,
} from './tuning.js';
import { DISPLAY_DOMAIN_WEIGHT, DISPLAY_MATCH_THRESHOLD, RANKING_WEIGHTS, type RankingWeights } from '../../src/search-model/candidate-ranking.js';
import { readSharedDatasets } from './shared-datasets.js';
import { SEMANTIC_DEFAULT_THRESHOLD } from '../../src/services/semantic/semantic-search.js';
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

/** The same concepts with nothing else a release teaches: no synonyms, relationships or ancestors. */
function namesOnly(tables: AthenaTables): AthenaTables {
  return { VOCABULARY: tables.VOCABULARY, DOMAIN: tables.DOMAIN, CONCEPT_CLASS: tables.CONCEPT_CLASS, RELATIONSHIP: tables.RELATIONSHIP, CONCEPT: tables.CONCEPT };
}

/** A set's outcomes, and for each query its index among the tuning queries (undefined: a reporting-half query). */
interface Evaluated {
  outcomes: OutcomesByMethod;
  tuning: Array<number | undefined>;
  /** For a reporting-half query, its index among the reporting queries' gathered candidates. */
  reporting: Array<number | undefined>;
}

const weightsText = (w: RankingWeights) =>
  `lexical ${w.lexical}, meaning ${w.meaning}, coverage ${w.coverage}, exact ${w.exact}, lexical rank ${w.lexicalRank}, meaning rank ${w.meaningRank}`;
const fixed3 = (x: number) => x.toFixed(3);

async function main(): Promise<void> {
  const keep = process.argv.includes('--keep');
  const exhaustive = process.argv.includes('--exhaustive');
  const ablations = process.argv.includes('--ablations');
  /** `--sample N`: about N queries per release (every k-th), to try the command quickly; the figures are then not the evaluation's. */
  const sampleAt = process.argv.indexOf('--sample');
  const sample = sampleAt > 0 ? Number(process.argv[sampleAt + 1]) : 0;
  const sampled = <T>(queries: readonly T[]): T[] => (sample > 0 ? queries.filter((_, i) => i % Math.max(1, Math.ceil(queries.length / sample)) === 0) : [...queries]);
  /** `--dump-tuning FILE`: the tuning halves' candidates as JSON (asked for before the long run, so a missing FILE stops it at once). */
  const dumpAt = process.argv.indexOf('--dump-tuning');
  const dumpFile = dumpAt > 0 ? process.argv[dumpAt + 1] : undefined;
  if (dumpAt > 0 && (!dumpFile || dumpFile.startsWith('--'))) throw new Error('--dump-tuning needs a file to write, e.g. --dump-tuning tuning.json');
  const started = Date.now();
  progress('reading the demo vocabulary and the shared datasets');
  const datasets = await readSharedDatasets();
  const workDir = mkdtempSync(join(tmpdir(), 'omopterm-eval-semantic-'));
  const releases: EvalRelease[] = [];
  /** The table's columns: the methods of the release with the most of them (every other release's are among them, in the same order). */
  let columns: string[] = [];
  const tuningQueries: TuningQuery[] = [];
  const reportingQueries: TuningQuery[] = [];
  const displayTuning: DisplayTuningQuery[] = [];
  /** Tuning-half queries whose target the lexical baseline ranks in its top 10 and the shared ranking does not. */
  const lexicalWins: string[] = [];
  const evaluate = async (name: string, tables: AthenaTables, queries: readonly EvalQuery[], options: { resolver?: boolean } = {}) => {
    progress(`loading release ${name} (${tables.CONCEPT?.length ?? 0} concepts)`);
    const release = await loadEvalRelease(name, tables, workDir);
    releases.push(release);
    progress(`loaded ${name} in ${release.loadSeconds.toFixed(1)} s; ${queries.length} queries`);
    const methods = rankingMethodsFor(release, { exhaustive, ablations, ...options });
    if (methods.length > columns.length) columns = methods.map((m) => m.name);
    const outcomes = await runQueries(methods, queries, (method, seconds) => progress(`${name}: ${method} in ${seconds.toFixed(1)} s`));
    // the shared ranking: every query's candidates gathered once (as semantic search gathers them), ranked by the code's
    // weights for the table; the tuning half's also kept for choosing the weights
    const ctx = evalContext(release);
    const tuning: Array<number | undefined> = [];
    const reporting: Array<number | undefined> = [];
    const t0 = Date.now();
    if (ctx) {
      const shared: QueryOutcome[] = [];
      for (const q of queries) {
        const gathered = await gatherTuningQuery(ctx, q);
        shared.push(outcomeUnder(gathered, RANKING_WEIGHTS));
        if (!isTuningQuery(q)) {
          tuning.push(undefined);
          reporting.push(reportingQueries.length);
          reportingQueries.push(gathered);
          continue;
        }
        reporting.push(undefined);
        tuning.push(tuningQueries.length);
        tuningQueries.push(gathered);
        if (options.resolver) displayTuning.push(await gatherDisplayQuery({ view: ctx.view, semantic: ctx, lexical: ctx.lexical }, q));
      }
      const ordered: OutcomesByMethod = new Map();
      for (const [name, list] of outcomes) {
        ordered.set(name, list);
        if (name === MEANING) ordered.set(SHARED, shared);
      }
      if (!ordered.has(SHARED)) ordered.set(SHARED, shared);
      outcomes.clear();
      for (const [name, list] of ordered) outcomes.set(name, list);
      if (outcomes.size > columns.length) columns = [...outcomes.keys()];
      lexicalWins.push(...lexicalWinsOf(name, queries, outcomes, tuning, release.store));
      progress(`${name}: ${SHARED} (and the tuning half's resolver candidates) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    } else for (const _ of queries) [tuning.push(undefined), reporting.push(undefined)];
    return { release, evaluated: { outcomes, tuning, reporting } satisfies Evaluated };
  };
  try {
    const results: SubsetResult[] = [];
    const tuningSets: TuningSet[] = [];
    const reportingSets: TuningSet[] = [];
    const countLines: string[] = [];
    const subset = (name: string, e: Evaluated, keepQuery: (i: number) => boolean = () => true, primary = false) => {
      results.push({ subset: name, ...summariseSubset(e.outcomes, (i) => keepQuery(i) && e.tuning[i] === undefined) });
      const members = e.tuning.flatMap((t, i) => (t !== undefined && keepQuery(i) ? [t] : []));
      const baseline = summariseSubset(new Map([[TFIDF, e.outcomes.get(TFIDF)!]]), (i) => keepQuery(i) && e.tuning[i] !== undefined).byMethod.get(TFIDF)!;
      if (members.length) tuningSets.push({ name, members, baseline, primary });
      const reported = e.reporting.flatMap((t, i) => (t !== undefined && keepQuery(i) ? [t] : []));
      const reportedBaseline = results.at(-1)!.byMethod.get(TFIDF)!;
      if (reported.length) reportingSets.push({ name, members: reported, baseline: reportedBaseline, primary });
    };
    const concat = (parts: readonly Evaluated[]): Evaluated => ({
      outcomes: concatOutcomes(parts.map((p) => p.outcomes)),
      tuning: parts.flatMap((p) => p.tuning),
      reporting: parts.flatMap((p) => p.reporting),
    });

    // 1. synonym hold-out, 3. names only
    for (const onlyNames of [false, true]) {
      const parts: Evaluated[] = [];
      const prefix = onlyNames ? 'names only, synonym hold-out' : 'synonym hold-out';
      for (const [name, tables] of [
        ['eunomia-gibleed-2019', datasets.gibleed],
        ['demo vocabulary', datasets.demo],
      ] as const) {
        const holdOut = holdOutSynonyms(tables);
        const queries = sampled(holdOut.queries).map((q) => ({ text: q.text, targets: new Set([q.conceptId]) }));
        const releaseTables = onlyNames ? namesOnly(holdOut.tables) : holdOut.tables;
        const { release, evaluated } = await evaluate(`${onlyNames ? 'names-' : ''}holdout-${name.split(' ')[0]}`, releaseTables, queries);
        parts.push(evaluated);
        subset(`${prefix}: ${name}`, evaluated, undefined, true);
        const tagOnly = holdOut.queries.filter((q) => q.tagOnly).length;
        const elsewhere = holdOut.queries.filter((q) => q.textElsewhere).length;
        countLines.push(
          `- ${prefix}, ${name}: ${queries.length} queries (${tagOnly} differ from the name only by a trailing tag; ` +
            `${elsewhere} are the name or a synonym of another indexed concept); release: ${describeRelease(release, releaseTables)}`,
        );
      }
      subset(onlyNames ? 'names only, synonym hold-out: both datasets' : HOLD_OUT_BOTH, concat(parts));
    }

    // 2. map by name, 3. names only
    const mapByName = buildMapByName(datasets);
    const mapQueries = sampled(mapByName.queries);
    let mapRelease: EvalRelease | undefined;
    let mapOutcomes: OutcomesByMethod | undefined;
    for (const onlyNames of [false, true]) {
      const releaseTables = onlyNames ? namesOnly(mapByName.tables) : mapByName.tables;
      const { release, evaluated } = await evaluate(onlyNames ? 'names-map-by-name' : 'map-by-name', releaseTables, mapQueries, { resolver: !onlyNames });
      const where = (test: (q: MapQuery) => boolean) => (i: number) => test(mapQueries[i]!);
      const prefix = onlyNames ? 'names only, map by name' : 'map by name';
      subset(`${prefix}: tutorial map, differing names`, evaluated, where((q) => q.pairSource === 'tutorial-map' && !q.identical), true);
      subset(`${prefix}: tutorial map, identical names`, evaluated, where((q) => q.pairSource === 'tutorial-map' && q.identical));
      subset(`${prefix}: Maps to rows, differing names`, evaluated, where((q) => q.pairSource === 'maps-to' && !q.identical), true);
      subset(`${prefix}: Maps to rows, identical names`, evaluated, where((q) => q.pairSource === 'maps-to' && q.identical));
      subset(onlyNames ? `${prefix}: all differing names` : MAP_DIFFERING, evaluated, where((q) => !q.identical));
      if (!onlyNames) {
        subset(`${prefix}: differing names, not ambiguous by strength`, evaluated, where((q) => !q.identical && !q.ambiguous));
        subset(`${prefix}: differing names, strength named (or none)`, evaluated, where((q) => !q.identical && !q.strengthMissing));
        [mapRelease, mapOutcomes] = [release, evaluated.outcomes];
      }
      countLines.push(
        `- ${prefix}: ${mapQueries.length} queries; candidates ${describeRelease(release, releaseTables)}` +
          (onlyNames
            ? ''
            : `; left out: ${mapByName.excludedConcepts} concepts of the shared datasets (source concepts, and the vocabularies only on the source side: ${mapByName.excludedVocabularies.join(', ')}) ` +
              `and ${mapByName.staleCopies} distractors copying a target's vocabulary and words (an older release's version); ` +
              `${mapByName.selfMappedRows} tutorial map rows mapping a concept to itself not used`),
      );
      const resolverOutcomes = evaluated.outcomes.get(RESOLVER);
      if (resolverOutcomes) {
        const reported = mapQueries.filter((_, i) => evaluated.tuning[i] === undefined);
        countLines.push(
          `- ${prefix}, ${RESOLVER}: ${reported.filter((q) => q.resourceType !== undefined).length} of the ${reported.length} reporting-half queries have a resource type; ` +
            `${resolverOutcomes.filter((o, i) => evaluated.tuning[i] === undefined && o.first === null).length} resolved to nothing (no match at or above the resolver's threshold)`,
        );
      }
    }

    if (dumpFile) {
      // the tuning halves' gathered candidates, to try other rankings offline (never the reporting halves)
      const plain = (q: TuningQuery) => ({ features: [...q.features], owner: [...q.owner], conceptIds: [...q.conceptIds], isTarget: [...q.isTarget], withMeaning: q.withMeaning });
      writeFileSync(dumpFile, JSON.stringify({ queries: tuningQueries.map(plain), sets: tuningSets }));
      progress(`tuning halves written to ${dumpFile}`);
    }
    progress(`choosing the weights on ${tuningQueries.length} tuning queries`);
    const choice = chooseWeights(tuningQueries, tuningSets);
    const inCode = evaluateWeights(tuningQueries, tuningSets, RANKING_WEIGHTS);
    const sameWeights = (Object.keys(RANKING_WEIGHTS) as Array<keyof RankingWeights>).every((k) => Math.abs(RANKING_WEIGHTS[k] - choice.weights[k]) < 1e-9);
    const display = chooseDisplay(displayTuning);
    const sameDisplay = Math.abs(display.domainWeight - DISPLAY_DOMAIN_WEIGHT) < 1e-9 && Math.abs(display.threshold - DISPLAY_MATCH_THRESHOLD) < 1e-9;
    const reportedWithChoice = evaluateWeights(reportingQueries, reportingSets, choice.weights);
    const tuningLines = [
      `Tuning (${SPLIT_DESCRIPTION}; ${tuningQueries.length} tuning queries):`,
      `- shared ranking weights chosen on the tuning halves: ${weightsText(choice.weights)} (grid step ${WEIGHT_STEP}, ${choice.gridPoints} points, the exact weight fixed at ${FIXED_EXACT_WEIGHT}: it only sets the scale; ` +
        `only weights under which a text sharing no word with the query, nearest by meaning at similarity ${MEANING_ONLY_SIMILARITY}, reaches semantic search's default threshold ${SEMANTIC_DEFAULT_THRESHOLD}; ` +
        `${choice.feasible ? 'at least the lexical baseline at top-1 and top-10 on every tuning half' : 'NO grid point reaches the lexical baseline on every tuning half: the smallest total shortfall was taken'}; ` +
        `objective, the mean of top-1, top-10 and MRR over the ${tuningSets.filter((t) => t.primary).length} primary sets: ${fixed3(choice.objective)})`,
      sameWeights
        ? `- RANKING_WEIGHTS in src/search-model/candidate-ranking.ts: ${weightsText(RANKING_WEIGHTS)} → the same`
        : `- RANKING_WEIGHTS in src/search-model/candidate-ranking.ts: ${weightsText(RANKING_WEIGHTS)} → DIFFER from the tuning choice (objective ${fixed3(inCode.objective)}${inCode.feasible ? '' : ', below the baseline on some tuning half'}): update the constants`,
      `- display resolver chosen on the tuning halves of the map-by-name sets (${displayTuning.length} displays): domain weight ${display.domainWeight} (top-1 ${fixed3(display.top1)}), ` +
        `threshold ${display.threshold} (the highest that keeps ${DISPLAY_KEEP_RIGHT * 100} % of the right first matches; right decisions — resolve when the first match is right, abstain when it is wrong — ${fixed3(display.decisionsRight)})`,
      sameDisplay
        ? `- DISPLAY_DOMAIN_WEIGHT ${DISPLAY_DOMAIN_WEIGHT} and DISPLAY_MATCH_THRESHOLD ${DISPLAY_MATCH_THRESHOLD} in the code → the same`
        : `- DISPLAY_DOMAIN_WEIGHT ${DISPLAY_DOMAIN_WEIGHT} and DISPLAY_MATCH_THRESHOLD ${DISPLAY_MATCH_THRESHOLD} in the code → DIFFER from the tuning choice: update the constants`,
      `- tuning halves with the chosen weights (top-1 / top-10 / MRR; lexical baseline top-1 / top-10; target among the candidates at all):`,
      ...tuningSets.map((t) => {
        const s = choice.bySet.get(t.name)!;
        return `  - ${t.name} (${t.members.length}): ${fixed3(s.recallAt1)} / ${fixed3(s.recallAt10)} / ${fixed3(s.mrr)}; baseline ${fixed3(t.baseline.recallAt1)} / ${fixed3(t.baseline.recallAt10)}; candidates ${fixed3(candidateRecall(t.members.map((i) => tuningQueries[i]!)))}`;
      }),
      ...(sameWeights
        ? []
        : [
            `- the reporting halves with the tuning choice instead of the code's weights (top-1 / top-10 / MRR; lexical baseline top-1 / top-10):`,
            ...reportingSets.map((t) => {
              const s = reportedWithChoice.bySet.get(t.name)!;
              const verdict = s.recallAt1 >= t.baseline.recallAt1 && s.recallAt10 >= t.baseline.recallAt10 ? 'PASS' : 'FAIL';
              return `  - ${t.name} (${t.members.length}): ${fixed3(s.recallAt1)} / ${fixed3(s.recallAt10)} / ${fixed3(s.mrr)}; baseline ${fixed3(t.baseline.recallAt1)} / ${fixed3(t.baseline.recallAt10)} → ${verdict}`;
            }),
          ]),
    ];

    const out = [
      `Every figure is on the reporting half of its set (${SPLIT_DESCRIPTION}).` +
        (sample > 0 ? ` SAMPLED RUN (--sample ${sample}): every ${'k'}-th query only, about ${sample} per release.` : ''),
      formatResultsTable(results, columns),
      `recall@k: share of queries whose right concept is among the first k distinct concepts (top-1 = recall@1); MRR over the first ${RANK_DEPTH}; no threshold. ` +
        'Every column sees the valid standard and classification concepts only (what the semantic index holds: names and synonyms); keyword search is filtered to the same. ' +
        `The ${RESOLVER} column (map by name only) resolves the text as POST /v1/fhir/resolve does a display alone with the resource type of the target's domain: ` +
        "valid standard concepts of the resource type's expected domains first, with the resolver's own threshold (a text resolved to nothing is a miss).",
      `Candidates:\n${countLines.join('\n')}`,
      tuningLines.join('\n'),
      explainMapMisses(mapQueries, mapOutcomes!, mapRelease!.store, SHARED),
      `Where the lexical baseline finds the target in its top 10 and the shared ranking does not (tuning halves only, so that the cause can be worked on without looking at the reported queries; ${lexicalWins.length}):\n` +
        (lexicalWins.length ? lexicalWins.join('\n') : '- none'),
      `Targets (issue #12; hybrid is the shared ranking):\n${formatTargetChecks(issueTargetChecks(results, { holdOut: HOLD_OUT_BOTH, differing: MAP_DIFFERING }, { hybrid: SHARED, baseline: TFIDF }))}`,
      `Targets (issue #24: the shared ranking at least the lexical baseline, top-1 and top-10, every set):\n${formatTargetChecks(baselineChecks(results, { shared: SHARED, baseline: TFIDF }))}`,
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
