/**
 * The semantic services' own contract on the demo vocabulary, with the vectors held by an
 * in-memory index and a spelling-only provider (./semantic-service-fakes.ts), so these rules are
 * checked whatever stores the vectors: thresholds, filters, paging, licence rules, bulk failure
 * isolation, similar's exactly-one rule and the resolver's standard-only fallback. Expected
 * concepts are read from the demo CSV files.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRelease } from '../../src/importer/load-release.js';
import { LicenceRules } from '../../src/licences/licence-rules.js';
import { ReleaseView } from '../../src/services/release-view.js';
import { ServiceError } from '../../src/services/errors.js';
import { createLexicalScorer } from '../../src/services/semantic/lexical-similarity.js';
import { UNIFORM_IDF } from '../../src/search-model/semantic/lexicon/sparse-features.js';
import { CANDIDATE_K_START } from '../../src/services/semantic/semantic-candidates.js';
import { semanticBulkSearch } from '../../src/services/semantic/semantic-bulk.js';
import { semanticSearch } from '../../src/services/semantic/semantic-search.js';
import { HYBRID_WEIGHTS, similarConcepts, type SimilarContext } from '../../src/services/semantic/similar-concepts.js';
import { listReleaseBuilds } from '../../src/store/data-dir.js';
import type { ReleaseStore } from '../../src/store/release-store.js';
import { openSqliteRelease } from '../../src/store/sqlite/open-sqlite-release.js';
import { DEMO_VOCABULARY_DIR, readSourceConcepts } from '../metadata/concept-file.js';
import { indexedEntries, InMemorySemanticIndex, spellingProvider } from './semantic-service-fakes.js';

const UNVALIDATED = new LicenceRules(null);
const VALIDATED = new LicenceRules('2999-12-31');
const demo = new Map(readSourceConcepts(DEMO_VOCABULARY_DIR).map((c) => [c.concept_id, c]));
const idsNamed = (pattern: RegExp, vocabularyId?: string) =>
  [...demo.values()].filter((c) => pattern.test(c.concept_name) && (!vocabularyId || c.vocabulary_id === vocabularyId)).map((c) => c.concept_id);

let dataDir: string;
let store: ReleaseStore;
let index: InMemorySemanticIndex;
let ctx: SimilarContext;
const withPolicy = (policy: LicenceRules): SimilarContext => ({ ...ctx, view: new ReleaseView(store, policy) });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'omopterm-semantic-'));
  await loadRelease({ sourceDir: DEMO_VOCABULARY_DIR, dataDir, label: '2025.2', makeDefault: true, replace: false, quiet: true, embeddings: false });
  store = openSqliteRelease(listReleaseBuilds(dataDir)[0]!);
  const provider = spellingProvider();
  index = await InMemorySemanticIndex.build(provider, indexedEntries());
  const lexical = createLexicalScorer(UNIFORM_IDF);
  ctx = { index, provider, view: new ReleaseView(store, UNVALIDATED), lexical: (q, t) => lexical.score(q, t) };
});
afterAll(() => {
  store?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function expectServiceError(promise: Promise<unknown>, status: number, messagePart: RegExp) {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  expect((err as ServiceError).status).toBe(status);
  expect((err as ServiceError).message).toMatch(messagePart);
}

describe('semantic search: thresholds', () => {
  it('raising the threshold never adds a result, and every result reaches its threshold', async () => {
    for (const query of ['myocardial infarction', 'diabetes', 'blood glucose measurement']) {
      let previous: Set<number> | undefined;
      for (const threshold of [0, 0.2, 0.4, 0.6, 0.8, 1]) {
        const r = await semanticSearch(ctx, { query, threshold, pageSize: 100 });
        for (const x of r.results) expect(x.similarity_score).toBeGreaterThanOrEqual(threshold);
        const ids = new Set(r.results.map((x) => x.concept_id));
        if (previous) for (const id of ids) expect(previous.has(id)).toBe(true);
        previous = ids;
      }
    }
  });

  it('threshold 1 keeps only texts equal to the query', async () => {
    const r = await semanticSearch(ctx, { query: 'Myocardial infarction', threshold: 1 });
    expect(r.results.map((x) => x.concept_id)).toContain(idsNamed(/^Myocardial infarction$/, 'SNOMED')[0]);
    for (const x of r.results) {
      expect(x.similarity_score).toBe(1);
      expect(x.matched_text.toLowerCase()).toBe('myocardial infarction');
    }
  });

  it('results are best first and name the text that matched (a name or synonym of the concept)', async () => {
    const r = await semanticSearch(ctx, { query: 'heart attack', threshold: 0.3, pageSize: 50 });
    const scores = r.results.map((x) => x.similarity_score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const entries = indexedEntries();
    for (const x of r.results) expect(entries.some((e) => e.concept_id === x.concept_id && e.text === x.matched_text)).toBe(true);
    // the demo's "Heart attack" synonym belongs to Myocardial infarction
    expect(r.results[0]).toMatchObject({ concept_id: 4329847, matched_text: 'Heart attack', similarity_score: 1 });
  });

  it('a whole-query abbreviation is searched as its expansion (query enhancement)', async () => {
    const r = await semanticSearch(ctx, { query: 'MI', threshold: 0.9 });
    expect(r.enhancement).toEqual({ original_query: 'MI', enhanced_query: 'myocardial infarction', abbreviations_expanded: ['MI'], misspellings_corrected: [] });
    expect(r.results.map((x) => x.concept_id)).toContain(4329847);
  });

  it('a blank or over-long query is a 400 naming the parameter', async () => {
    await expectServiceError(semanticSearch(ctx, { query: '   ' }), 400, /'query'/);
    await expectServiceError(semanticSearch(ctx, { query: 'x'.repeat(501) }), 400, /'query'.*501/);
  });
});

describe('semantic search: filters', () => {
  it('vocabulary, domain, class and standard filters are each honoured', async () => {
    const cases = [
      { filters: { vocabularyIds: ['LOINC'] }, check: (id: number) => demo.get(id)!.vocabulary_id === 'LOINC' },
      { filters: { domainIds: ['Measurement'] }, check: (id: number) => demo.get(id)!.domain_id === 'Measurement' },
      { filters: { conceptClassIds: ['Disorder'] }, check: (id: number) => demo.get(id)!.concept_class_id === 'Disorder' },
      { filters: { standardConcepts: ['C' as const] }, check: (id: number) => demo.get(id)!.standard_concept === 'C' },
    ];
    for (const { filters, check } of cases) {
      const r = await semanticSearch(ctx, { query: 'glucose in blood', filters, threshold: 0, pageSize: 100 });
      expect(r.results.length).toBeGreaterThan(0);
      for (const x of r.results) expect(check(x.concept_id)).toBe(true);
    }
  });

  it('without a standard_concept filter only valid standard and classification concepts come back', async () => {
    const r = await semanticSearch(ctx, { query: 'diabetes mellitus', threshold: 0, pageSize: 100 });
    for (const x of r.results) {
      const c = demo.get(x.concept_id)!;
      expect(['S', 'C']).toContain(c.standard_concept);
      expect(c.invalid_reason).toBeNull();
    }
  });

  it('an unknown vocabulary gives no results (not an error)', async () => {
    const r = await semanticSearch(ctx, { query: 'diabetes', filters: { vocabularyIds: ['NoSuchVocabulary'] }, threshold: 0 });
    expect(r.results).toEqual([]);
  });

  it('a filter that drops most neighbours makes the nearest-neighbour read grow', async () => {
    index.calls.largestK = 0;
    const r = await semanticSearch(ctx, { query: 'diabetes', filters: { vocabularyIds: ['Gender'] }, threshold: 0 });
    expect(index.calls.largestK).toBeGreaterThan(CANDIDATE_K_START);
    for (const x of r.results) expect(demo.get(x.concept_id)!.vocabulary_id).toBe('Gender');
  });
});

describe('semantic search: paging', () => {
  it('pages are consecutive slices of one ranking; total is at least what was seen; has_next is honest', async () => {
    const all = await semanticSearch(ctx, { query: 'acute disorder', threshold: 0.2, page: 1, pageSize: 12 });
    expect(all.results.length).toBe(12);
    const p1 = await semanticSearch(ctx, { query: 'acute disorder', threshold: 0.2, page: 1, pageSize: 6 });
    const p2 = await semanticSearch(ctx, { query: 'acute disorder', threshold: 0.2, page: 2, pageSize: 6 });
    expect([...p1.results, ...p2.results].map((x) => x.concept_id)).toEqual(all.results.map((x) => x.concept_id));
    expect(p1.totalAboveThreshold).toBeGreaterThan(6);
    const last = await semanticSearch(ctx, { query: 'acute disorder', threshold: 0.2, page: 1, pageSize: 100 });
    const n = last.totalAboveThreshold;
    expect(last.results.length).toBe(Math.min(100, n));
    const beyond = await semanticSearch(ctx, { query: 'acute disorder', threshold: 0.2, page: Math.floor(n / 5) + 2, pageSize: 5 });
    expect(beyond.results).toEqual([]);
  });
});

describe('licence rules (Authentication 5)', () => {
  const cptIds = idsNamed(/cesarean/i, 'CPT4').filter((id) => demo.get(id)!.standard_concept === 'S');

  it('a key without CPT4 validation never sees CPT4 concepts; a validated key does', async () => {
    expect(cptIds.length).toBeGreaterThan(0);
    const hidden = await semanticSearch(withPolicy(UNVALIDATED), { query: 'cesarean delivery', threshold: 0, pageSize: 100 });
    expect(hidden.results.filter((x) => x.vocabulary_id === 'CPT4')).toEqual([]);
    const shown = await semanticSearch(withPolicy(VALIDATED), { query: 'cesarean delivery', threshold: 0, pageSize: 100 });
    expect(shown.results.map((x) => x.concept_id)).toEqual(expect.arrayContaining(cptIds));
  });

  it('naming CPT4 without validation is a 403 vocabulary_restricted', async () => {
    await expectServiceError(semanticSearch(withPolicy(UNVALIDATED), { query: 'cesarean', filters: { vocabularyIds: ['CPT4'] } }), 403, /CPT4/);
  });

  it('similar hides CPT4 too (the resolver fallback: test/fhir-resolver/display-resolution.test.ts)', async () => {
    const similar = await similarConcepts(withPolicy(UNVALIDATED), { query: 'cesarean delivery only', similarity_threshold: 0, page_size: 1000 });
    expect(similar.similar_concepts.filter((x) => x.vocabulary_id === 'CPT4')).toEqual([]);
    await expectServiceError(similarConcepts(withPolicy(UNVALIDATED), { concept_id: cptIds[0]! }), 403, /CPT4/);
  });
});

describe('semantic bulk: each search fails alone', () => {
  it('bad searches fail with an error, the others complete', async () => {
    const r = await semanticBulkSearch(ctx, {
      searches: [
        { search_id: 'good', query: 'myocardial infarction' },
        { search_id: 'blank', query: '  ' },
        { search_id: 'threshold', query: 'diabetes', threshold: 2 },
        { search_id: 'licence', query: 'cesarean', vocabulary_ids: ['CPT4'] },
        { query: 'diabetes', page_size: 101 },
      ],
      defaults: { threshold: 0.6 },
    });
    expect(r.total_searches).toBe(5);
    expect(r.completed_count).toBe(1);
    expect(r.failed_count).toBe(4);
    expect(r.results.map((x) => [x.search_id, x.status])).toEqual([
      ['good', 'completed'],
      ['blank', 'failed'],
      ['threshold', 'failed'],
      ['licence', 'failed'],
      ['5', 'failed'],
    ]);
    expect(r.results[0]!.similarity_threshold).toBe(0.6);
    expect(r.results[0]!.results.map((x) => x.concept_id)).toContain(4329847);
    expect(r.results[2]!.error).toMatch(/threshold/);
    expect(r.results[3]).toMatchObject({ error_code: 'vocabulary_restricted' });
    expect(r.results[4]!.error).toMatch(/page_size/);
  });
});

describe('similar concepts', () => {
  it('needs exactly one of concept_id, concept_name, query', async () => {
    await expectServiceError(similarConcepts(ctx, {}), 400, /exactly one/);
    await expectServiceError(similarConcepts(ctx, { concept_id: 4329847, query: 'heart attack' }), 400, /'concept_id' and 'query'/);
  });

  it('an unknown concept_id is a 404', async () => {
    await expectServiceError(similarConcepts(ctx, { concept_id: 999999999 }), 404, /999999999/);
  });

  it('by concept_id the concept itself is never returned', async () => {
    const r = await similarConcepts(ctx, { concept_id: 4329847, similarity_threshold: 0, page_size: 1000 });
    expect(r.search_metadata.original_query).toBe('Myocardial infarction');
    expect(r.similar_concepts.length).toBeGreaterThan(0);
    expect(r.similar_concepts.map((x) => x.concept_id)).not.toContain(4329847);
  });

  it('lexical is typo-tolerant', async () => {
    const r = await similarConcepts(ctx, { query: 'myocardal infarcton', algorithm: 'lexical', similarity_threshold: 0.3 });
    expect(r.search_metadata.algorithm_used).toBe('lexical');
    expect(r.similar_concepts.map((x) => x.concept_id)).toContain(4329847);
  });

  it('each algorithm ranks by its own score; hybrid is the documented weighting (meaning and lexical, plus at most the word-coverage, exact and rank weights)', async () => {
    for (const algorithm of ['semantic', 'lexical', 'hybrid'] as const) {
      const r = await similarConcepts(ctx, { query: 'type 2 diabetes', algorithm, similarity_threshold: 0.2, include_scores: true, include_explanations: true });
      expect(r.similar_concepts.length).toBeGreaterThan(0);
      for (const x of r.similar_concepts) {
        expect(x.similarity_score).toBeCloseTo(x.scores![algorithm], 3);
        const w = HYBRID_WEIGHTS;
        const base = w.meaning * x.scores!.semantic + w.lexical * x.scores!.lexical;
        expect(x.scores!.hybrid).toBeGreaterThanOrEqual(base - 0.001);
        expect(x.scores!.hybrid).toBeLessThanOrEqual(base + w.coverage + w.exact + w.lexicalRank + w.meaningRank + 0.001);
        expect(x.explanation).toContain(algorithm);
      }
    }
  });

  it('page_size bounds the answer and the default threshold is 0.7', async () => {
    const r = await similarConcepts(ctx, { query: 'diabetes mellitus', page_size: 3 });
    expect(r.search_metadata.similarity_threshold).toBe(0.7);
    expect(r.similar_concepts.length).toBeLessThanOrEqual(3);
    for (const x of r.similar_concepts) expect(x.similarity_score).toBeGreaterThanOrEqual(0.7);
  });
});
