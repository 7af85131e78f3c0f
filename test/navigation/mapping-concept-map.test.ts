/**
 * POST /v1/concepts/map over HTTPS (client-compatibility §1.4): by ids and by codes, the four
 * mapping types, include_invalid, failures as entries (never a failed request), bad input (400 with
 * the parameter named) and the licence rules. Expected targets come from the fixture files
 * (mapping-athena-files.ts), not from the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/test-server.js';
import { expectedMapTargets, visibleTo, type AthenaFiles, type MappingType } from './mapping-athena-files.js';
import {
  CPT4_SOURCE,
  CPT4_TARGET,
  GPI_SOURCE,
  ICD_SOURCE,
  ICD9_SOURCES,
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

const map = (body: unknown, options: { release?: string; key?: string } = {}) =>
  t.request(`/v1/concepts/map${options.release ? `?vocab_release=${options.release}` : ''}`, { method: 'POST', body, ...(options.key ? { key: options.key } : {}) });

interface MapRecord {
  source_concept_id: number;
  target_concept_id: number;
  relationship_id: string;
  via_concept_id?: number;
}
const pairs = (records: MapRecord[]) =>
  records.map((m) => ({
    source_concept_id: m.source_concept_id,
    target_concept_id: m.target_concept_id,
    relationship_id: m.relationship_id,
    ...(m.via_concept_id === undefined ? {} : { via_concept_id: m.via_concept_id }),
  }));
const idsOf = (files: AthenaFiles, vocabularyId: string) => [...files.concepts.values()].filter((c) => c.vocabulary_id === vocabularyId).map((c) => c.concept_id);

describe('POST /v1/concepts/map on the demo vocabulary', () => {
  it("direct (the default): every ICD10CM concept's 'Maps to' targets in SNOMED, in input order, with full records", async () => {
    const sources = idsOf(demo, 'ICD10CM');
    expect(sources.length).toBe(15);
    const res = await map({ target_vocabulary: 'SNOMED', source_concepts: sources });
    expect(res.status).toBe(200);
    const expected = sources.flatMap((id) => expectedMapTargets(demo, id, 'SNOMED', 'direct'));
    expect(pairs(res.body.data.mappings)).toEqual(expected);
    const unmapped = sources.filter((id) => expectedMapTargets(demo, id, 'SNOMED', 'direct').length === 0);
    expect(res.body.data.failed_mappings.map((f: { source_concept_id: number }) => f.source_concept_id)).toEqual(unmapped);
    for (const failure of res.body.data.failed_mappings) expect(failure.error_code).toBe('no_mapping');
    expect(res.body.data.summary).toEqual({ total: 15, mapped: 15 - unmapped.length, failed: unmapped.length, total_mappings: expected.length });
    expect(res.body.data.truncated_sources).toEqual([]);

    const e119 = res.body.data.mappings.find((m: MapRecord) => m.source_concept_id === 35206882);
    const target = demo.concepts.get(201826)!;
    expect(e119).toMatchObject({
      source_concept_name: demo.concepts.get(35206882)!.concept_name,
      source_vocabulary_id: 'ICD10CM',
      source_concept_code: 'E11.9',
      target_concept_id: 201826,
      target_concept_name: target.concept_name,
      target_vocabulary_id: 'SNOMED',
      target_concept_code: target.concept_code,
      target_domain_id: target.domain_id,
      target_concept_class_id: target.concept_class_id,
      target_standard_concept: 'S',
      relationship_id: 'Maps to',
      mapping_type: 'direct',
      invalid_reason: null,
    });
    expect(e119).not.toHaveProperty('confidence');
  });

  it('by codes: known codes map, an unknown code or vocabulary is a failed entry echoing the code, and the request is 200', async () => {
    const res = await map({
      target_vocabulary: 'SNOMED',
      source_codes: [
        { vocabulary_id: 'ICD10CM', concept_code: 'E11.9' },
        { vocabulary_id: 'ICD10CM', concept_code: 'ZZZ.99' },
        { vocabulary_id: 'NOPE', concept_code: 'E11.9' },
        { vocabulary_id: 'ICD10CM', concept_code: 'I48.91' },
      ],
    });
    expect(res.status).toBe(200);
    const i4891 = [...demo.concepts.values()].find((c) => c.vocabulary_id === 'ICD10CM' && c.concept_code === 'I48.91')!;
    expect(pairs(res.body.data.mappings)).toEqual([
      ...expectedMapTargets(demo, 35206882, 'SNOMED', 'direct'),
      ...expectedMapTargets(demo, i4891.concept_id, 'SNOMED', 'direct'),
    ]);
    expect(res.body.data.failed_mappings).toEqual([
      { source_code: { vocabulary_id: 'ICD10CM', concept_code: 'ZZZ.99' }, error_code: 'concept_not_found', reason: expect.stringContaining('ZZZ.99') },
      { source_code: { vocabulary_id: 'NOPE', concept_code: 'E11.9' }, error_code: 'concept_not_found', reason: expect.stringContaining('NOPE') },
    ]);
    expect(res.body.data.summary).toMatchObject({ total: 4, mapped: 2, failed: 2 });
  });

  it('invalid codes only → 200 with empty mappings (R integration test)', async () => {
    const res = await map({ target_vocabulary: 'SNOMED', source_codes: [{ vocabulary_id: 'ICD10CM', concept_code: 'INVALID' }] });
    expect(res.status).toBe(200);
    expect(res.body.data.mappings).toEqual([]);
    expect(res.body.data.summary).toEqual({ total: 1, mapped: 0, failed: 1, total_mappings: 0 });
  });

  it('a standard source in the target vocabulary maps to itself through its own Maps to row; a non-standard one does not', async () => {
    const res = await map({ target_vocabulary: 'SNOMED', source_concepts: [201826] });
    expect(pairs(res.body.data.mappings)).toEqual(expectedMapTargets(demo, 201826, 'SNOMED', 'direct'));
    expect(res.body.data.mappings.map((m: MapRecord) => m.target_concept_id)).toEqual([201826]);
    const icd = await map({ target_vocabulary: 'ICD10CM', source_concepts: [35206882] });
    expect(expectedMapTargets(demo, 35206882, 'ICD10CM', 'direct')).toEqual([]);
    expect(icd.body.data.mappings).toEqual([]);
    expect(icd.body.data.failed_mappings[0]).toMatchObject({ source_concept_id: 35206882, error_code: 'no_mapping' });
    // Equivalent reaches the other ICD10CM codes of 201826, never the source itself.
    const siblings = await map({ target_vocabulary: 'ICD10CM', source_concepts: [35206882], mapping_type: 'equivalent' });
    expect(pairs(siblings.body.data.mappings)).toEqual(expectedMapTargets(demo, 35206882, 'ICD10CM', 'equivalent'));
    expect(siblings.body.data.mappings.map((m: MapRecord) => m.target_concept_id)).not.toContain(35206882);
  });

  it("equivalent: SNOMED → ICD10CM through 'Mapped from', and ICD10CM → SNOMED as direct", async () => {
    const snomed = idsOf(demo, 'SNOMED').filter((id) => expectedMapTargets(demo, id, 'ICD10CM', 'equivalent').length > 0);
    expect(snomed).toContain(201826);
    const res = await map({ target_vocabulary: 'ICD10CM', source_concepts: snomed.slice(0, 100), mapping_type: 'equivalent' });
    expect(pairs(res.body.data.mappings)).toEqual(snomed.slice(0, 100).flatMap((id) => expectedMapTargets(demo, id, 'ICD10CM', 'equivalent')));
    expect(res.body.data.mappings.every((m: { mapping_type: string }) => m.mapping_type === 'equivalent')).toBe(true);
    expect(res.body.data.mappings.find((m: MapRecord) => m.source_concept_id === 201826 && m.target_concept_id === 35206882)).toBeTruthy();

    const icd = idsOf(demo, 'ICD10CM');
    const back = await map({ target_vocabulary: 'SNOMED', source_concepts: icd, mapping_type: 'equivalent' });
    expect(pairs(back.body.data.mappings)).toEqual(icd.flatMap((id) => expectedMapTargets(demo, id, 'SNOMED', 'equivalent')));
  });

  it('broader: RxNorm drugs → their ATC classes; narrower: ATC classes → RxNorm drugs (CONCEPT_ANCESTOR, nearest first)', async () => {
    const rxnorm = idsOf(demo, 'RxNorm');
    const up = await map({ target_vocabulary: 'ATC', source_concepts: rxnorm, mapping_type: 'broader' });
    const expectedUp = rxnorm.flatMap((id) => expectedMapTargets(demo, id, 'ATC', 'broader'));
    expect(expectedUp.length).toBeGreaterThan(0);
    expect(pairs(up.body.data.mappings)).toEqual(expectedUp);
    expect(up.body.data.mappings[0]).toHaveProperty('min_levels_of_separation');

    const atc = idsOf(demo, 'ATC');
    const down = await map({ target_vocabulary: 'RxNorm', source_concepts: atc, mapping_type: 'narrower' });
    const expectedDown = atc.flatMap((id) => expectedMapTargets(demo, id, 'RxNorm', 'narrower'));
    expect(expectedDown.length).toBeGreaterThan(0);
    expect(pairs(down.body.data.mappings)).toEqual(expectedDown);

    // Within SNOMED: ancestors of Myocardial infarction.
    const mi = await map({ target_vocabulary: 'SNOMED', source_concepts: [4329847], mapping_type: 'broader' });
    expect(pairs(mi.body.data.mappings)).toEqual(expectedMapTargets(demo, 4329847, 'SNOMED', 'broader'));
  });
});

describe('POST /v1/concepts/map: bad input is 400 naming the field (Errors rule 1)', () => {
  const cases: Array<[string, unknown, string]> = [
    ['both source fields', { target_vocabulary: 'SNOMED', source_concepts: [201826], source_codes: [{ vocabulary_id: 'ICD10CM', concept_code: 'E11.9' }] }, 'not both'],
    ['neither source field', { target_vocabulary: 'SNOMED' }, 'exactly one of'],
    ['a bad mapping_type', { target_vocabulary: 'SNOMED', source_concepts: [201826], mapping_type: 'closest' }, "'mapping_type': must be one of: direct, equivalent, broader, narrower"],
    ['a non-numeric id', { target_vocabulary: 'SNOMED', source_concepts: ['abc'] }, "'source_concepts.0'"],
    ['a negative id', { target_vocabulary: 'SNOMED', source_concepts: [-1] }, "'source_concepts.0'"],
    ['101 ids', { target_vocabulary: 'SNOMED', source_concepts: Array.from({ length: 101 }, (_, i) => i + 1) }, "'source_concepts'"],
    ['an empty list', { target_vocabulary: 'SNOMED', source_concepts: [] }, "'source_concepts'"],
    ['no target_vocabulary', { source_concepts: [201826] }, "'target_vocabulary'"],
    ['a code without its vocabulary', { target_vocabulary: 'SNOMED', source_codes: [{ concept_code: 'E11.9' }] }, "'source_codes.0.vocabulary_id'"],
    ['a non-boolean include_invalid', { target_vocabulary: 'SNOMED', source_concepts: [201826], include_invalid: 'perhaps' }, "'include_invalid'"],
  ];
  for (const [name, body, message] of cases) {
    it(name, async () => {
      const res = await map(body);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message).toContain(message);
      expect(res.headers['x-request-id']).toBe(res.body.meta.request_id);
      expect(res.headers['x-ratelimit-remaining']).toBeDefined();
    });
  }
});

describe('POST /v1/concepts/map: validity and licence rules (Authentication 5; fixture)', () => {
  it('include_invalid defaults to false; true adds invalid rows and invalid targets', async () => {
    const valid = await map({ target_vocabulary: 'SNOMED', source_concepts: [ICD_SOURCE] }, { release: FIXTURE });
    expect(valid.body.meta.vocab_release).toBe(FIXTURE);
    expect(pairs(valid.body.data.mappings)).toEqual(expectedMapTargets(fixture, ICD_SOURCE, 'SNOMED', 'direct'));
    expect(valid.body.data.mappings.map((m: MapRecord) => m.target_concept_id)).toEqual([SNOMED_TARGET]);
    const all = await map({ target_vocabulary: 'SNOMED', source_concepts: [ICD_SOURCE], include_invalid: true }, { release: FIXTURE });
    expect(pairs(all.body.data.mappings)).toEqual(expectedMapTargets(fixture, ICD_SOURCE, 'SNOMED', 'direct', { includeInvalid: true }));
    expect(all.body.data.mappings.map((m: MapRecord) => m.target_concept_id)).toEqual([SNOMED_TARGET, SNOMED_INVALID_ROW_TARGET, SNOMED_INVALID_TARGET]);
  });

  it('equivalent reaches sibling codes through the shared standard concept (via_concept_id)', async () => {
    const res = await map({ target_vocabulary: 'ICD9CM', source_concepts: [ICD_SOURCE], mapping_type: 'equivalent' }, { release: FIXTURE });
    const expected = expectedMapTargets(fixture, ICD_SOURCE, 'ICD9CM', 'equivalent');
    expect(expected.map((e) => e.target_concept_id)).toEqual(ICD9_SOURCES);
    expect(pairs(res.body.data.mappings)).toEqual(expected);
    expect(res.body.data.mappings.every((m: MapRecord) => m.via_concept_id === SNOMED_TARGET)).toBe(true);
  });

  it('a CPT4 or GPI source is a failed entry (vocabulary_restricted) for a key without CPT4 validation, by id and by code', async () => {
    const byId = await map({ target_vocabulary: 'SNOMED', source_concepts: [CPT4_SOURCE, GPI_SOURCE, ICD_SOURCE] }, { release: FIXTURE });
    expect(byId.status).toBe(200);
    expect(byId.body.data.failed_mappings.map((f: { source_concept_id: number; error_code: string }) => [f.source_concept_id, f.error_code])).toEqual([
      [CPT4_SOURCE, 'vocabulary_restricted'],
      [GPI_SOURCE, 'vocabulary_restricted'],
    ]);
    expect(pairs(byId.body.data.mappings)).toEqual(expectedMapTargets(fixture, ICD_SOURCE, 'SNOMED', 'direct'));
    const byCode = await map({ target_vocabulary: 'SNOMED', source_codes: [{ vocabulary_id: 'CPT4', concept_code: '87998' }] }, { release: FIXTURE });
    expect(byCode.body.data.failed_mappings).toEqual([
      { source_code: { vocabulary_id: 'CPT4', concept_code: '87998' }, error_code: 'vocabulary_restricted', reason: expect.stringContaining('CPT4') },
    ]);

    const validated = await t.createKey({ cpt4_validated_until: '2999-12-31' });
    const served = await map({ target_vocabulary: 'SNOMED', source_concepts: [CPT4_SOURCE, GPI_SOURCE] }, { release: FIXTURE, key: validated });
    expect(pairs(served.body.data.mappings)).toEqual(expectedMapTargets(fixture, CPT4_SOURCE, 'SNOMED', 'direct', { visible: visibleTo(true) }));
    expect(served.body.data.failed_mappings).toEqual([{ source_concept_id: GPI_SOURCE, error_code: 'vocabulary_restricted', reason: expect.any(String) }]);
  });

  it('a restricted target vocabulary is 403; CPT4 targets only for a validated key; hidden concepts never appear as via_concept_id', async () => {
    const denied = await map({ target_vocabulary: 'CPT4', source_concepts: [ICD_SOURCE] }, { release: FIXTURE });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('vocabulary_restricted');
    const validated = await t.createKey({ cpt4_validated_until: '2999-12-31' });
    const gpi = await map({ target_vocabulary: 'GPI', source_concepts: [ICD_SOURCE] }, { release: FIXTURE, key: validated });
    expect(gpi.status).toBe(403);
    const cpt4 = await map({ target_vocabulary: 'CPT4', source_concepts: [ICD_SOURCE] }, { release: FIXTURE, key: validated });
    expect(cpt4.status).toBe(200);
    expect(cpt4.body.data.mappings.map((m: MapRecord) => m.target_concept_id)).toEqual([CPT4_TARGET]);

    // Narrower from the SNOMED concept: its CPT4 descendant only for the validated key.
    for (const [key, cpt4Validated] of [[undefined, false], [validated, true]] as const) {
      for (const vocabulary of cpt4Validated ? ['SNOMED', 'CPT4'] : ['SNOMED']) {
        const res = await map({ target_vocabulary: vocabulary, source_concepts: [SNOMED_TARGET], mapping_type: 'narrower' as MappingType }, { release: FIXTURE, key });
        expect(pairs(res.body.data.mappings)).toEqual(expectedMapTargets(fixture, SNOMED_TARGET, vocabulary, 'narrower', { visible: visibleTo(cpt4Validated) }));
      }
    }
    // ICD_SOURCE 'Maps to' CPT4_TARGET, but a key without validation never reaches anything through it.
    const equivalent = await map({ target_vocabulary: 'SNOMED', source_concepts: [ICD_SOURCE], mapping_type: 'broader' }, { release: FIXTURE });
    expect(equivalent.body.data.mappings.map((m: MapRecord) => m.via_concept_id)).not.toContain(CPT4_TARGET);
    expect(pairs(equivalent.body.data.mappings)).toEqual(expectedMapTargets(fixture, ICD_SOURCE, 'SNOMED', 'broader'));
  });
});
