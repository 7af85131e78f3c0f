/**
 * GET /v1/concepts/{concept_id}/mappings over HTTPS (client-compatibility §1.4): defaults
 * ('Maps to', include_invalid true, page_size 100 clamped to 200), every parameter, bad input, and
 * the licence rules. Expected rows are computed from the fixture files, not by the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/test-server.js';
import { expectedMappings, visibleTo, type AthenaFiles } from './mapping-athena-files.js';
import {
  CPT4_SOURCE,
  CPT4_TARGET,
  GPI_SOURCE,
  ICD9_SOURCES,
  ICD_SOURCE,
  SNOMED_INVALID_ROW_TARGET,
  SNOMED_INVALID_TARGET,
  SNOMED_TARGET,
  FIXTURE,
  startMappingServer,
} from './mapping-licence-fixture.js';

let t: TestServer;
let demo: AthenaFiles;
let fixture: AthenaFiles;

beforeAll(async () => ({ t, demo, fixture } = await startMappingServer()));
afterAll(async () => t?.close());

const get = (path: string, key?: string) => t.request(path, key ? { key } : {});

describe('GET /v1/concepts/{id}/mappings on the demo vocabulary', () => {
  it("lists every 'Maps to' row of a concept by default, with the target's fields and the row's validity", async () => {
    // Every demo concept with 'Maps to' rows, non-standard and standard (self rows) alike.
    const sources = [...new Set(demo.relationships.filter((r) => r.relationship_id === 'Maps to').map((r) => r.concept_id_1))];
    expect(sources.length).toBeGreaterThan(100);
    for (const id of sources.filter((id) => demo.concepts.get(id)!.vocabulary_id !== 'CPT4').slice(0, 60)) {
      const res = await get(`/v1/concepts/${id}/mappings`);
      expect(res.status, String(id)).toBe(200);
      const expected = expectedMappings(demo, id);
      expect(res.body.data.mappings).toEqual(expected);
      expect(res.body.data.total_mappings).toBe(expected.length);
      expect(res.body.data.source_concept.concept_id).toBe(id);
      expect(res.body.data.source_concept.concept_name).toBe(demo.concepts.get(id)!.concept_name);
    }
  });

  it('E11.9 (35206882) maps to 201826 with its E10 confidence; pagination defaults to page 1 of 100', async () => {
    const res = await get('/v1/concepts/35206882/mappings');
    expect(res.body.data.mappings).toHaveLength(1);
    const [row] = res.body.data.mappings;
    expect(row).toMatchObject({ source_concept_id: 35206882, target_concept_id: 201826, relationship_id: 'Maps to', target_vocabulary_id: 'SNOMED' });
    // By hand: words {type, 2, diabetes, mellitus, without, complications} vs {type, 2, diabetes, mellitus}: Dice 8/10;
    // 0.3·0.8 + 0.15·1 (Maps to) + 0.2·1 (one row) + 0.2·1 (valid standard) + 0.15·1 (Condition both) = 0.94.
    expect(row.confidence).toBe(0.94);
    expect(res.body.meta.pagination).toEqual({ page: 1, page_size: 100, total_items: 1, total_pages: 1, has_next: false, has_previous: false });
    expect(res.body.meta.vocab_release).toBe('2025.1');
    expect(res.headers['x-request-id']).toBe(res.body.meta.request_id);
  });

  it("'Maps to value' only when asked: Z86.16 (713860) lists it after 'Maps to' in the order given", async () => {
    const byDefault = await get('/v1/concepts/713860/mappings');
    expect(byDefault.body.data.mappings).toEqual(expectedMappings(demo, 713860));
    expect(byDefault.body.data.mappings.map((m: { relationship_id: string }) => m.relationship_id)).toEqual(['Maps to']);

    // Node sends spaces as '+' and the list comma-joined.
    const both = await get('/v1/concepts/713860/mappings?relationship_ids=Maps+to%2CMaps+to+value');
    const expected = expectedMappings(demo, 713860, { relationshipIds: ['Maps to', 'Maps to value'] });
    expect(expected.map((m) => m.relationship_id)).toEqual(['Maps to', 'Maps to value']);
    expect(both.body.data.mappings).toEqual(expected);

    const reversed = await get('/v1/concepts/713860/mappings?relationship_ids=Maps%20to%20value,Maps%20to');
    expect(reversed.body.data.mappings).toEqual(expectedMappings(demo, 713860, { relationshipIds: ['Maps to value', 'Maps to'] }));
  });

  it('target_vocabulary (one id or a list) and its alias target_vocabularies keep targets in those vocabularies', async () => {
    const relationshipIds = ['Maps to', 'Maps to value'];
    const q = 'relationship_ids=Maps%20to,Maps%20to%20value';
    for (const [param, vocabularies] of [
      ['target_vocabulary=SNOMED', ['SNOMED']],
      ['target_vocabulary=OMOP%20Extension', ['OMOP Extension']],
      ['target_vocabulary=SNOMED,OMOP%20Extension', ['SNOMED', 'OMOP Extension']],
      ['target_vocabularies=SNOMED', ['SNOMED']],
      ['target_vocabulary=SNOMED&target_vocabularies=OMOP%20Extension', ['SNOMED', 'OMOP Extension']],
      ['target_vocabulary=LOINC', ['LOINC']],
    ] as const) {
      const res = await get(`/v1/concepts/713860/mappings?${q}&${param}`);
      const expected = expectedMappings(demo, 713860, { relationshipIds, vocabularies: [...vocabularies] });
      expect(res.body.data.mappings, param).toEqual(expected);
      expect(res.body.data.total_mappings).toBe(expected.length);
    }
  });

  it('unknown concept → 404 not_found; a non-numeric or negative id → 400 naming concept_id', async () => {
    const missing = await get('/v1/concepts/987654321/mappings');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
    expect(missing.body.error.message).toContain('987654321');
    for (const bad of ['abc', '-5', '1.5', '1e3']) {
      const res = await get(`/v1/concepts/${bad}/mappings`);
      expect(res.status, bad).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message).toContain("'concept_id'");
    }
  });

  it('bad query values → 400 naming the parameter (Errors rule 1: the REST envelope)', async () => {
    for (const [query, parameter] of [
      ['include_invalid=maybe', 'include_invalid'],
      ['page=0', 'page'],
      ['page_size=0', 'page_size'],
      ['page=x', 'page'],
    ]) {
      const res = await get(`/v1/concepts/35206882/mappings?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.message).toContain(`'${parameter}'`);
    }
  });
});

describe('GET /v1/concepts/{id}/mappings: validity, paging and licence rules (fixture)', () => {
  const inFixture = (path: string) => `${path}${path.includes('?') ? '&' : '?'}vocab_release=${FIXTURE}`;

  it('include_invalid defaults to true; false drops invalid rows and invalid targets', async () => {
    const all = await get(inFixture(`/v1/concepts/${ICD_SOURCE}/mappings`));
    const expectedAll = expectedMappings(fixture, ICD_SOURCE);
    expect(all.body.data.mappings).toEqual(expectedAll);
    const ids = expectedAll.map((m) => m.target_concept_id);
    expect(ids).toContain(SNOMED_INVALID_ROW_TARGET);
    expect(ids).toContain(SNOMED_INVALID_TARGET);

    const explicit = await get(inFixture(`/v1/concepts/${ICD_SOURCE}/mappings?include_invalid=true`));
    expect(explicit.body.data.mappings).toEqual(expectedAll);

    const valid = await get(inFixture(`/v1/concepts/${ICD_SOURCE}/mappings?include_invalid=false`));
    const expectedValid = expectedMappings(fixture, ICD_SOURCE, { includeInvalid: false });
    expect(valid.body.data.mappings).toEqual(expectedValid);
    expect(expectedValid.map((m) => m.target_concept_id)).toEqual([SNOMED_TARGET]);
    expect(valid.body.data.total_mappings).toBe(1);
  });

  it('pages through a list with exact totals; page_size above 200 is clamped silently', async () => {
    const expected = expectedMappings(fixture, SNOMED_TARGET, { relationshipIds: ['Mapped from'] });
    expect(expected.length).toBe(6); // the CPT4 and GPI sources are hidden from this key
    const first = await get(inFixture(`/v1/concepts/${SNOMED_TARGET}/mappings?relationship_ids=Mapped%20from&page_size=4`));
    expect(first.body.data.mappings).toEqual(expected.slice(0, 4));
    expect(first.body.meta.pagination).toEqual({ page: 1, page_size: 4, total_items: 6, total_pages: 2, has_next: true, has_previous: false });
    const second = await get(inFixture(`/v1/concepts/${SNOMED_TARGET}/mappings?relationship_ids=Mapped%20from&page_size=4&page=2`));
    expect(second.body.data.mappings).toEqual(expected.slice(4));
    expect(second.body.meta.pagination).toMatchObject({ page: 2, has_next: false, has_previous: true });
    const past = await get(inFixture(`/v1/concepts/${SNOMED_TARGET}/mappings?relationship_ids=Mapped%20from&page_size=4&page=9`));
    expect(past.body.data.mappings).toEqual([]);
    expect(past.body.data.total_mappings).toBe(6);

    // Across two relationship ids the offset runs on: 'Maps to' (self row) first, then 'Mapped from'.
    const mixed = expectedMappings(fixture, SNOMED_TARGET, { relationshipIds: ['Maps to', 'Mapped from'] });
    const page2 = await get(inFixture(`/v1/concepts/${SNOMED_TARGET}/mappings?relationship_ids=Maps%20to,Mapped%20from&page_size=3&page=2`));
    expect(page2.body.data.mappings).toEqual(mixed.slice(3, 6));

    const clamped = await get(inFixture(`/v1/concepts/${SNOMED_TARGET}/mappings?page_size=500`));
    expect(clamped.status).toBe(200);
    expect(clamped.body.meta.pagination.page_size).toBe(200);
  });

  it('licence (Authentication 5): CPT4 targets are left out and not counted for a key without validation; GPI/MedDRA never', async () => {
    const plain = await get(inFixture(`/v1/concepts/${ICD_SOURCE}/mappings`));
    const plainVocabularies = plain.body.data.mappings.map((m: { target_vocabulary_id: string }) => m.target_vocabulary_id);
    expect(plainVocabularies).not.toContain('CPT4');
    expect(plainVocabularies).not.toContain('GPI');
    expect(plainVocabularies).not.toContain('MedDRA');
    expect(plain.body.data.total_mappings).toBe(expectedMappings(fixture, ICD_SOURCE, { visible: visibleTo(false) }).length);

    const validated = await t.createKey({ cpt4_validated_until: '2999-12-31' });
    const full = await get(inFixture(`/v1/concepts/${ICD_SOURCE}/mappings`), validated);
    const expected = expectedMappings(fixture, ICD_SOURCE, { visible: visibleTo(true) });
    expect(full.body.data.mappings).toEqual(expected);
    expect(expected.map((m) => m.target_concept_id)).toContain(CPT4_TARGET);
    expect(full.body.data.total_mappings).toBe(plain.body.data.total_mappings + 1);
  });

  it('licence (Authentication 5): a CPT4 source is 403 without validation, served with it; a GPI source is always 403', async () => {
    const denied = await get(inFixture(`/v1/concepts/${CPT4_SOURCE}/mappings`));
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('vocabulary_restricted');
    const validated = await t.createKey({ cpt4_validated_until: '2999-12-31' });
    const served = await get(inFixture(`/v1/concepts/${CPT4_SOURCE}/mappings`), validated);
    expect(served.status).toBe(200);
    expect(served.body.data.mappings).toEqual(expectedMappings(fixture, CPT4_SOURCE, { visible: visibleTo(true) }));
    const gpi = await get(inFixture(`/v1/concepts/${GPI_SOURCE}/mappings`), validated);
    expect(gpi.status).toBe(403);
    expect(gpi.body.error.code).toBe('vocabulary_restricted');
  });

  it('licence (Authentication 5): naming a target vocabulary the key may not see is 403 vocabulary_restricted', async () => {
    const cpt4 = await get(inFixture(`/v1/concepts/${ICD_SOURCE}/mappings?target_vocabulary=CPT4`));
    expect(cpt4.status).toBe(403);
    expect(cpt4.body.error.code).toBe('vocabulary_restricted');
    const validated = await t.createKey({ cpt4_validated_until: '2999-12-31' });
    const medDra = await get(inFixture(`/v1/concepts/${ICD_SOURCE}/mappings?target_vocabularies=SNOMED,MedDRA`), validated);
    expect(medDra.status).toBe(403);
    expect(medDra.body.error.details.vocabulary_id).toBe('MedDRA');
  });
});

describe('GET /v1/concepts/{id}/mappings: confidence (the E10 model, src/services/mapping-quality/mapping-confidence.ts)', () => {
  const inFixture = (path: string) => `${path}${path.includes('?') ? '&' : '?'}vocab_release=${FIXTURE}`;
  type Row = { target_concept_id: number; relationship_id: string; confidence: number };
  const byTarget = (rows: Row[]) => Object.fromEntries(rows.map((m) => [`${m.relationship_id} ${m.target_concept_id}`, m.confidence]));

  it("every row of the demo's mapped concepts carries a confidence in [0, 1]", async () => {
    const sources = [...new Set(demo.relationships.filter((r) => r.relationship_id === 'Maps to').map((r) => r.concept_id_1))];
    for (const id of sources.filter((id) => demo.concepts.get(id)!.vocabulary_id !== 'CPT4').slice(0, 40)) {
      const res = await get(`/v1/concepts/${id}/mappings?relationship_ids=Maps%20to,Maps%20to%20value,Mapped%20from`);
      for (const m of res.body.data.mappings as Row[]) {
        expect(typeof m.confidence, String(id)).toBe('number');
        expect(m.confidence).toBeGreaterThanOrEqual(0);
        expect(m.confidence).toBeLessThanOrEqual(1);
      }
    }
  });

  it("Z86.16 'Personal history of COVID-19' (713860): two mapping rows, so fan-out 1/2 each", async () => {
    const res = await get('/v1/concepts/713860/mappings?relationship_ids=Maps%20to,Maps%20to%20value');
    expect(byTarget(res.body.data.mappings)).toEqual({
      // {personal, history, covid, 19} vs {history, event}: Dice 2/6; 0.3/3 + 0.15 + 0.2/2 + 0.2 + 0.15 (Observation both) = 0.7
      'Maps to 1340204': 0.7,
      // vs {covid, 19}: Dice 4/6; 0.3·2/3 + 0.15·0.5 (Maps to value) + 0.2/2 + 0.2 + 0 (Condition ≠ Observation) = 0.575
      'Maps to value 37311061': 0.575,
    });
  });

  it('fixture: fan-out counts every valid mapping row of the release (hidden targets too), an invalid row is 0, an invalid target scores 0 for status', async () => {
    // Cholera (ICD10CM, Condition) has five valid 'Maps to' rows (SNOMED, CPT4, GPI, MedDRA, the invalid target): fan-out 0.2/5 = 0.04.
    const plain = await get(inFixture(`/v1/concepts/${ICD_SOURCE}/mappings`));
    expect(byTarget(plain.body.data.mappings)).toEqual({
      // {cholera} vs {cholera, disorder}: Dice 2/3 → 0.2; + 0.15 + 0.04 + 0.2 + 0.15 = 0.74
      [`Maps to ${SNOMED_TARGET}`]: 0.74,
      // the relationship row is invalid ('D'): outside the model, 0
      [`Maps to ${SNOMED_INVALID_ROW_TARGET}`]: 0,
      // vs {old, cholera, finding}: Dice 2/4 → 0.15; + 0.15 + 0.04 + 0 (invalid target) + 0.15 = 0.49
      [`Maps to ${SNOMED_INVALID_TARGET}`]: 0.49,
    });
    const validated = await t.createKey({ cpt4_validated_until: '2999-12-31' });
    const full = await get(inFixture(`/v1/concepts/${ICD_SOURCE}/mappings?target_vocabulary=CPT4`), validated);
    // 'Cholera test' (Procedure): Dice 2/3 → 0.2; + 0.15 + 0.04 + 0.2 + 0 (Procedure ≠ Condition) = 0.59
    expect(byTarget(full.body.data.mappings)).toEqual({ [`Maps to ${CPT4_TARGET}`]: 0.59 });
  });

  it("fixture: a standard concept's row to itself is 1; 'Mapped from' rows score 0 for relationship kind", async () => {
    const res = await get(inFixture(`/v1/concepts/${SNOMED_TARGET}/mappings?relationship_ids=Maps%20to,Mapped%20from`));
    const rows = byTarget(res.body.data.mappings);
    // self map: similarity 1, Maps to, one valid mapping row (itself), valid standard, same domain
    expect(rows[`Maps to ${SNOMED_TARGET}`]).toBe(1);
    // {cholera, disorder} vs {cholera}: Dice 2/3 → 0.2; + 0 + 0.2 (fan-out 1) + 0.1 (valid non-standard) + 0.15 = 0.65
    expect(rows[`Mapped from ${ICD_SOURCE}`]).toBe(0.65);
    // vs {cholera, variant, 0}: Dice 2/5 → 0.12; + 0 + 0.2 + 0.1 + 0.15 = 0.57
    expect(rows[`Mapped from ${ICD9_SOURCES[0]}`]).toBe(0.57);
  });
});
