/**
 * rankCandidates (the mapping jobs' candidate list) on the demo release loaded with its real vectors: each reason
 * (exact code, name, synonym, keyword, meaning, Maps to with the concepts it came through), filters, the bound k and
 * the licence rule that a restricted concept is never a candidate. Expected concepts come from the demo CSV files.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRelease } from '../../src/importer/load-release.js';
import { LicenceRules } from '../../src/licences/licence-rules.js';
import { ReleaseView } from '../../src/services/release-view.js';
import { createLexicalScorer } from '../../src/services/semantic/lexical-similarity.js';
import { gatherCandidates, rankCandidates, searchedWords, type RankedCandidate, type RankingContext } from '../../src/services/semantic/ranked-candidates.js';
import { SemanticIndexRegistry } from '../../src/services/semantic/semantic-index-registry.js';
import { sharedRanks } from '../../src/services/semantic/semantic-candidates.js';
import { UNIFORM_IDF } from '../../src/search-model/semantic/lexicon/sparse-features.js';
import { listReleaseBuilds } from '../../src/store/data-dir.js';
import type { ReleaseStore } from '../../src/store/release-store.js';
import { openSqliteRelease } from '../../src/store/sqlite/open-sqlite-release.js';
import { openSqliteSemanticIndex } from '../../src/store/sqlite/sqlite-semantic-index.js';
import { DEMO_VOCABULARY_DIR, readSourceConcepts, readSourceTable } from '../metadata/concept-file.js';

const UNVALIDATED = new LicenceRules(null);
const VALIDATED = new LicenceRules('2999-12-31');
const demo = readSourceConcepts(DEMO_VOCABULARY_DIR);
const demoById = new Map(demo.map((c) => [c.concept_id, c]));
const mapsTo = readSourceTable(DEMO_VOCABULARY_DIR, 'CONCEPT_RELATIONSHIP.csv').filter(
  (r) => r.relationship_id === 'Maps to' && r.concept_id_1 !== r.concept_id_2 && !r.invalid_reason,
);
const synonyms = readSourceTable(DEMO_VOCABULARY_DIR, 'CONCEPT_SYNONYM.csv');

const byCode = (code: string, vocabularyId: string) => demo.find((c) => c.concept_code === code && c.vocabulary_id === vocabularyId)!;
const standardNamed = (name: string) => demo.filter((c) => c.concept_name === name && c.standard_concept === 'S' && !c.invalid_reason);

let dataDir: string;
let store: ReleaseStore;
let registry: SemanticIndexRegistry;
let context: (policy: LicenceRules, withVectors?: boolean) => RankingContext;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'omopterm-ranked-'));
  await loadRelease({ sourceDir: DEMO_VOCABULARY_DIR, dataDir, label: '2025.2', quiet: true });
  const build = listReleaseBuilds(dataDir)[0]!;
  store = openSqliteRelease(build);
  registry = new SemanticIndexRegistry({ choice: { kind: 'lexicon' }, openIndex: openSqliteSemanticIndex, retireDelayMs: 0 });
  const found = await registry.get({ label: build.label, build });
  if (!found.ok) throw new Error(found.message);
  const lexical = createLexicalScorer(found.idf ?? UNIFORM_IDF);
  context = (policy, withVectors = true) => ({
    view: new ReleaseView(store, policy),
    index: withVectors ? found.index : null,
    provider: withVectors ? found.provider : null,
    lexical: (q, t) => lexical.score(q, t),
  });
});
afterAll(async () => {
  await registry?.close();
  store?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const find = (list: RankedCandidate[], id: number) => list.find((c) => c.concept.concept_id === id);

function expectWellFormed(list: RankedCandidate[], k: number) {
  expect(list.length).toBeLessThanOrEqual(k);
  for (let i = 1; i < list.length; i++) {
    const [a, b] = [list[i - 1]!, list[i]!];
    expect(a.score > b.score || (a.score === b.score && a.concept.concept_id < b.concept.concept_id)).toBe(true);
  }
  for (const c of list) {
    expect(c.score).toBeGreaterThanOrEqual(0);
    expect(c.score).toBeLessThanOrEqual(1);
    expect(c.reasons.length).toBeGreaterThan(0);
  }
}

describe('reasons', () => {
  it('exact_name: the standard concept of that name comes first, and Maps to brings it through the non-standard concept of the same name', async () => {
    // ICD10CM I21 "Acute myocardial infarction" Maps to the SNOMED concept of the same name
    const icd = byCode('I21', 'ICD10CM');
    const target = Number(mapsTo.find((r) => Number(r.concept_id_1) === icd.concept_id)!.concept_id_2);
    expect(demoById.get(target)!.concept_name).toBe(icd.concept_name);
    for (const withVectors of [true, false]) {
      const list = await rankCandidates(context(UNVALIDATED, withVectors), { text: icd.concept_name, filters: {}, k: 10 });
      expectWellFormed(list, 10);
      expect(list[0]!.concept.concept_id).toBe(target);
      expect(list[0]!.reasons).toEqual(expect.arrayContaining(['exact_name', 'maps_to']));
      expect(list[0]!.via_concept_ids).toContain(icd.concept_id);
      expect(list[0]!.score).toBe(1);
      // the non-standard concept itself is not a candidate (default: standard and classification concepts)
      expect(find(list, icd.concept_id)).toBeUndefined();
    }
  });

  it('exact_synonym: "Heart attack" is a synonym of Myocardial infarction, which comes first with that text', async () => {
    const owner = Number(synonyms.find((s) => s.concept_synonym_name === 'Heart attack')!.concept_id);
    const list = await rankCandidates(context(UNVALIDATED), { text: 'Heart attack', filters: {}, k: 5 });
    expect(list[0]!.concept.concept_id).toBe(owner);
    expect(list[0]!.reasons).toContain('exact_synonym');
    expect(list[0]!.matched_text).toBe('Heart attack');
  });

  it('exact_code: a standard concept with the source code; through Maps to for a non-standard one (via_concept_ids names it)', async () => {
    const snomed = byCode('44054006', 'SNOMED');
    const direct = await rankCandidates(context(UNVALIDATED), { text: 'T2DM', code: '44054006', filters: {}, k: 10 });
    expect(find(direct, snomed.concept_id)!.reasons).toContain('exact_code');
    expect(find(direct, snomed.concept_id)!.components.exact).toBe(1);
    // the code counts in the score: the same text without it ranks the concept lower, or not at all
    const withoutCode = find(await rankCandidates(context(UNVALIDATED), { text: 'T2DM', filters: {}, k: 10 }), snomed.concept_id);
    if (withoutCode) expect(withoutCode.score).toBeLessThan(find(direct, snomed.concept_id)!.score);

    const icd = byCode('E11', 'ICD10CM');
    const targets = mapsTo.filter((r) => Number(r.concept_id_1) === icd.concept_id).map((r) => Number(r.concept_id_2));
    expect(targets.length).toBeGreaterThan(0);
    const viaCode = await rankCandidates(context(UNVALIDATED), { text: 'diabetes type II, adult onset', code: 'E11', filters: {}, k: 25 });
    for (const id of targets) {
      const c = find(viaCode, id)!;
      expect(c.reasons).toContain('maps_to');
      expect(c.via_concept_ids).toContain(icd.concept_id);
      // every concept it came through Maps to it in the fixture
      for (const via of c.via_concept_ids!) expect(mapsTo.some((r) => Number(r.concept_id_1) === via && Number(r.concept_id_2) === id)).toBe(true);
    }
    expect(targets).toContain(viaCode[0]!.concept.concept_id);
  });

  it('keyword and meaning: a free text gets candidates from keyword search and from the vector index', async () => {
    const list = await rankCandidates(context(UNVALIDATED), { text: 'diabetes mellitus', filters: {}, k: 25 });
    expectWellFormed(list, 25);
    expect(list.some((c) => c.reasons.includes('keyword'))).toBe(true);
    expect(list.some((c) => c.reasons.includes('meaning'))).toBe(true);
    // without vectors there is no meaning reason, and the meaning component is 0
    const lexicalOnly = await rankCandidates(context(UNVALIDATED, false), { text: 'diabetes mellitus', filters: {}, k: 25 });
    expect(lexicalOnly.length).toBeGreaterThan(0);
    for (const c of lexicalOnly) {
      expect(c.reasons).not.toContain('meaning');
      expect(c.components.meaning).toBe(0);
    }
  });

  it('keyword: a British or international name is also searched in its US spelling ("paracetamol" finds acetaminophen)', async () => {
    // the demo names the drug "acetaminophen" only: no concept, synonym or word of the release says "paracetamol"
    expect(synonyms.some((s) => /paracetamol/i.test(s.concept_synonym_name ?? ''))).toBe(false);
    expect(demo.some((c) => /paracetamol/i.test(c.concept_name))).toBe(false);
    const ingredient = standardNamed('acetaminophen')[0]!;
    const list = await rankCandidates(context(UNVALIDATED, false), { text: 'Paracetamol', filters: {}, k: 10 });
    const found = list.find((c) => c.concept.concept_id === ingredient.concept_id);
    expect(found?.reasons).toContain('keyword');
  });
});

describe('filters and bounds', () => {
  it('domain and vocabulary filters are honoured; k bounds the list', async () => {
    for (const filters of [{ domainIds: ['Measurement'] }, { vocabularyIds: ['LOINC'] }, { domainIds: ['Condition'], vocabularyIds: ['SNOMED'] }]) {
      const list = await rankCandidates(context(UNVALIDATED), { text: 'glucose in blood', filters, k: 7 });
      expect(list.length).toBeGreaterThan(0);
      expectWellFormed(list, 7);
      for (const c of list) {
        const row = demoById.get(c.concept.concept_id)!;
        if (filters.domainIds) expect(filters.domainIds).toContain(row.domain_id);
        if ('vocabularyIds' in filters && filters.vocabularyIds) expect(filters.vocabularyIds).toContain(row.vocabulary_id);
        expect(['S', 'C']).toContain(row.standard_concept);
      }
    }
  });
});

describe('licences', () => {
  it('a CPT4 concept is never a candidate for an unvalidated key, even by its exact code or name; a validated key gets it first', async () => {
    const cpt = demo.find((c) => c.vocabulary_id === 'CPT4' && c.standard_concept === 'S' && c.concept_name.startsWith('Cesarean'))!;
    for (const withVectors of [true, false]) {
      const hidden = await rankCandidates(context(UNVALIDATED, withVectors), { text: cpt.concept_name, code: cpt.concept_code, filters: {}, k: 25 });
      for (const c of hidden) expect(c.concept.vocabulary_id).not.toBe('CPT4');
      for (const c of hidden) for (const via of c.via_concept_ids ?? []) expect(demoById.get(via)!.vocabulary_id).not.toBe('CPT4');
      const shown = await rankCandidates(context(VALIDATED, withVectors), { text: cpt.concept_name, code: cpt.concept_code, filters: {}, k: 25 });
      expect(shown[0]!.concept.concept_id).toBe(cpt.concept_id);
      expect(shown[0]!.reasons).toEqual(expect.arrayContaining(['exact_code', 'exact_name']));
    }
  });
});

describe('standard names of the fixture', () => {
  it('the fixture has the concepts these tests name (so no test above passes vacuously)', () => {
    expect(standardNamed('Acute myocardial infarction')).toHaveLength(1);
    expect(byCode('44054006', 'SNOMED').standard_concept).toBe('S');
    expect(byCode('E11', 'ICD10CM').standard_concept).toBeNull();
  });
});

describe('searchedWords: the words of a long source text that keyword search also searches alone', () => {
  it('the 4 longest distinct content words, longest first, each cut to its first 5 letters (a word fragment)', () => {
    // by hand: content words of 3+ letters are norethisterone (14), parenteral (10), injection (9), solution (8), oily (4);
    // "for" is a stop word
    expect(searchedWords('Norethisterone solution for injection, oily; parenteral', 4)).toEqual(['noret', 'paren', 'injec', 'solut']);
  });
  it('a word of 5 letters or fewer is searched whole; words under 3 letters and repeated words are left out', () => {
    expect(searchedWords('MCV of RBC, MCV', 4)).toEqual(['mcv', 'rbc']);
  });
  it('none for a one-word text (the text query itself covers it)', () => {
    expect(searchedWords('salbutamol', 4)).toEqual([]);
    expect(searchedWords('salbutamol in', 4)).toEqual([]);
  });
});

describe('the rank features', () => {
  for (const [score, rank] of [
    ['lexical', 'lexicalRank'],
    ['meaning', 'meaningRank'],
  ] as const) {
    it(`${rank} is 1/r on every text of a candidate whose best ${score} score (4 decimals) is r-th, equal scores sharing r`, async () => {
      const gathered = await gatherCandidates(context(UNVALIDATED), { text: 'heart attack with chest pain', filters: {}, k: 10 });
      expect(gathered.candidates.length).toBeGreaterThan(3);
      const best = gathered.candidates.map((c) => ({ score: Math.round(Math.max(...c.texts.map((t) => t.features[score])) * 1e4), ranks: c.texts.map((t) => t.features[rank]) }));
      expect(new Set(best.map((c) => c.score)).size).toBeGreaterThan(3);
      for (const c of best) {
        const r = 1 + best.filter((o) => o.score > c.score).length;
        for (const x of c.ranks) expect(x).toBeCloseTo(1 / r, 12);
      }
    });
  }
});

describe('sharedRanks (the rank features\' positions)', () => {
  it('ranks the highest 1 and gives equal scores one rank: 1 + how many score more', () => {
    expect(sharedRanks([0.7, 0.9, 0.8, 0.8])).toEqual([4, 1, 2, 2]);
    expect(sharedRanks([1, 1, 0.5])).toEqual([1, 1, 3]);
    expect(sharedRanks([])).toEqual([]);
  });
});
