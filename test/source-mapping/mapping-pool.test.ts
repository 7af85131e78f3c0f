/**
 * Mapping on worker threads (MappingPool): the workers open the build and its vectors themselves and give exactly
 * the candidates and reviews the calling thread computes with the same vectors, with 1 or 2 workers; each batch is
 * reported as it is done; cancel stops handing out batches; the caller's licence travels with the batch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SemanticIndexRegistry } from '../../src/services/semantic/semantic-index-registry.js';
import type { SourceTerm } from '../../src/services/source-mapping/mapping-types.js';
import { checkMappingOptions, mapTermBatch, mappingRankingContext, type TermMappingResult } from '../../src/services/source-mapping/term-mapping.js';
import { openSqliteSemanticIndex } from '../../src/store/sqlite/sqlite-semantic-index.js';
import { MappingPool, mapTermsInPool } from '../../src/threads/mapping-pool.js';
import { demoConcepts, openDemoRelease, type DemoRelease } from './demo-release.js';

let demo: DemoRelease;
let registry: SemanticIndexRegistry;
let terms: SourceTerm[];
beforeAll(async () => {
  demo = await openDemoRelease();
  registry = new SemanticIndexRegistry({ choice: { kind: 'lexicon' }, openIndex: openSqliteSemanticIndex });
  // every standard concept of the demo vocabulary under a lowercased name, plus the CPT4 codes
  const all = demoConcepts();
  terms = [...all.filter((c) => c.standard_concept === 'S' && c.vocabulary_id !== 'CPT4').slice(0, 50), ...all.filter((c) => c.vocabulary_id === 'CPT4')]
    .map((c, index) => ({ index, line: index + 2, source_code: c.vocabulary_id === 'CPT4' ? c.concept_code : '', source_name: c.concept_name.toLowerCase(), source_frequency: index, additional_info: {} }));
});
afterAll(async () => {
  await registry?.close();
  demo?.close();
});

const NOW = new Date('2026-02-03T04:05:06Z');
const options = checkMappingOptions({ k: 5, auto_approve: { exact_name: true, exact_code: true } });
const byIndex = (results: TermMappingResult[]) => [...results].sort((a, b) => a.index - b.index);

describe('MappingPool', () => {
  it('gives the same results as the calling thread, with one worker and with two, batch by batch', async () => {
    const lookup = await registry.get(demo.unlicensed);
    expect(lookup.ok).toBe(true);
    const expected = await mapTermBatch(mappingRankingContext(demo.unlicensed, lookup.ok ? lookup : null), terms, options, { now: NOW });
    for (const workers of [1, 2]) {
      const batches: number[][] = [];
      const outcome = await mapTermsInPool({ workers, view: demo.unlicensed, terms, options, now: NOW, batchSize: 7, onBatch: (r) => void batches.push(r.map((x) => x.index)) });
      expect(outcome).toEqual({ mapped: terms.length, cancelled: false, semantic: true });
      expect(batches).toHaveLength(Math.ceil(terms.length / 7));
      expect(batches.flat().sort((a, b) => a - b)).toEqual(terms.map((t) => t.index));
    }
    const results: TermMappingResult[] = [];
    await mapTermsInPool({ workers: 2, view: demo.unlicensed, terms, options, now: NOW, onBatch: (r) => void results.push(...r) });
    expect(byIndex(results)).toEqual(expected);
  }, 120_000);

  it('never proposes CPT4 without the validation date, and does with it', async () => {
    const cptTerms = terms.filter((t) => t.source_code !== '');
    expect(cptTerms.length).toBeGreaterThan(0);
    const run = async (cpt4: boolean) => {
      const out: TermMappingResult[] = [];
      await mapTermsInPool({ workers: 1, view: cpt4 ? demo.licensed : demo.unlicensed, terms: cptTerms, options, onBatch: (r) => void out.push(...r) });
      return out.flatMap((r) => r.candidates.map((c) => c.vocabulary_id));
    };
    expect(await run(false)).not.toContain('CPT4');
    expect(await run(true)).toContain('CPT4');
  }, 120_000);

  it('cancel: no batch is handed out after the signal; the batches under way are reported', async () => {
    const pool = new MappingPool({ workers: 1 });
    try {
      const abort = new AbortController();
      const seen: number[] = [];
      const outcome = await pool.mapTerms({
        view: demo.unlicensed,
        terms,
        options,
        batchSize: 10,
        signal: abort.signal,
        onBatch: (r) => {
          seen.push(...r.map((x) => x.index));
          if (seen.length >= 20) abort.abort();
        },
      });
      expect(outcome.cancelled).toBe(true);
      expect(outcome.mapped).toBe(20);
      expect(seen).toEqual(terms.slice(0, 20).map((t) => t.index));
      // the pool stays usable for the next run
      const again = await pool.mapTerms({ view: demo.unlicensed, terms: terms.slice(0, 3), options });
      expect(again).toMatchObject({ mapped: 3, cancelled: false });
    } finally {
      await pool.close();
    }
  }, 120_000);
});
