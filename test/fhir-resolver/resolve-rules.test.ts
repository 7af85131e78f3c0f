/**
 * POST /v1/fhir/resolve over HTTPS, rule by rule (specification E7, the "Resolution (resolver
 * result)" table, Errors rule 3, Authentication 5; client contract §1.6), on the resolver fixture
 * (./resolver-fixture.ts) loaded three times: with vectors (2025.2, default), without vectors
 * (2025.1, as `load --skip-embeddings`) and without concept 0 (2024.2). Expected concepts and
 * tables come from the fixture's definitions and fhir-and-omop-notes.md §4–5.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRelease } from '../../src/importer/load-release.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { brief, C, CDM_TABLE_OF_DOMAIN, expectEnvelopeError, writeResolverFixture } from './resolver-fixture.js';

const SNOMED = 'http://snomed.info/sct';
const LOINC = 'http://loinc.org';
const ICD10CM = 'http://hl7.org/fhir/sid/icd-10-cm';
const NDC = 'http://hl7.org/fhir/sid/ndc';
const CVX = 'http://hl7.org/fhir/sid/cvx';
const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const CPT = 'http://www.ama-assn.org/go/cpt';
const OMOP = 'https://fhir-terminology.ohdsi.org';
const MAPPING_QUALITIES = ['high', 'medium', 'low', 'manual_review'];
const RESTRICTED = ['CPT4', 'GPI', 'MedDRA'];

let t: TestServer;
let cpt4Key: string;

beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeResolverFixture(), label: '2025.2', makeDefault: true }] });
  await loadRelease({ sourceDir: writeResolverFixture(), dataDir: t.dataDir, label: '2025.1', quiet: true, embeddings: false });
  await loadRelease({ sourceDir: writeResolverFixture({ withConceptZero: false }), dataDir: t.dataDir, label: '2024.2', quiet: true, embeddings: false });
  t.server.registry.rescan();
  cpt4Key = await t.createKey({ cpt4_validated_until: '2999-12-31' });
});
afterAll(async () => {
  await t?.close();
});

const resolve = (body: unknown, options: { key?: string; release?: string } = {}) =>
  t.request(`/v1/fhir/resolve${options.release ? `?vocab_release=${options.release}` : ''}`, { method: 'POST', body, key: options.key });

/** A 200 answer's resolution. */
async function resolution(body: unknown, options: { key?: string; release?: string } = {}) {
  const r = await resolve(body, options);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.success).toBe(true);
  expect(r.body.data.resolution).toBeTruthy();
  return r.body.data.resolution;
}

/** Every concept_id anywhere in a JSON answer. */
const conceptIdsIn = (body: unknown) => [...JSON.stringify(body).matchAll(/"concept_id":(\d+)/g)].map((m) => Number(m[1]));

describe('E7 valid inputs: (system and code), (vocabulary_id and code), or display', () => {
  it('system + code, vocabulary_id + code and display alone are each accepted; data.input echoes the input, null when absent', async () => {
    const bySystem = await resolve({ system: SNOMED, code: C.t2dm.concept_code, resource_type: 'Condition' });
    expect(bySystem.status).toBe(200);
    expect(bySystem.body.data.input).toEqual({ system: SNOMED, code: C.t2dm.concept_code, display: null, vocabulary_id: null, resource_type: 'Condition' });
    expect(bySystem.body.meta.vocab_release).toBe('2025.2');

    const byVocabulary = await resolve({ vocabulary_id: 'ICD10CM', code: C.e119.concept_code });
    expect(byVocabulary.status).toBe(200);
    expect(byVocabulary.body.data.input).toEqual({ system: null, code: C.e119.concept_code, display: null, vocabulary_id: 'ICD10CM', resource_type: null });

    const byDisplay = await resolve({ display: C.t2dm.concept_name });
    expect(byDisplay.status).toBe(200);
    expect(byDisplay.body.data.input).toEqual({ system: null, code: null, display: C.t2dm.concept_name, vocabulary_id: null, resource_type: null });
  });

  it('every other combination is 400 missing_input in the envelope', async () => {
    const invalid = [
      {},
      { system: SNOMED },
      { code: C.t2dm.concept_code },
      { vocabulary_id: 'SNOMED' },
      { system: SNOMED, vocabulary_id: 'SNOMED' },
      { resource_type: 'Condition' },
      { code: C.t2dm.concept_code, resource_type: 'Condition' },
      { include_quality: true, on_unmapped: 'sentinel' },
    ];
    for (const body of invalid) expectEnvelopeError(await resolve(body), 400, 'missing_input');
  });
});

describe('code systems (fhir-and-omop-notes.md §4)', () => {
  it('an unknown system is 400 unknown_system with the nearest known URI in details.suggestion (client contract §1.6)', async () => {
    const r = await resolve({ system: 'http://snomed.info/sc', code: C.t2dm.concept_code });
    expectEnvelopeError(r, 400, 'unknown_system', /http:\/\/snomed\.info\/sc\b/);
    expect(r.body.error.details.suggestion).toBe(SNOMED);
  });

  it('the THO URI of each vocabulary finds its code', async () => {
    const cases = [
      [SNOMED, C.t2dm],
      [LOINC, C.glucoseInBlood],
      [ICD10CM, C.e119],
      [RXNORM, C.metformin500],
      [NDC, C.ndcMetformin],
      [CVX, C.cvx140],
    ] as const;
    for (const [system, concept] of cases) {
      const res = await resolution({ system, code: concept.concept_code });
      expect(res.source_concept, system).toEqual(brief(concept));
      expect(res.vocabulary_id, system).toBe(concept.vocabulary_id);
    }
  });

  it('aliases of a system URI: its OID, a trailing slash, a |version suffix, a SNOMED edition, the non-preferred THO alternatives', async () => {
    const cases = [
      ['urn:oid:2.16.840.1.113883.6.96', C.t2dm],
      ['http://snomed.info/sct/', C.t2dm],
      ['http://snomed.info/sct|http://snomed.info/sct/731000124108/version/20250301', C.t2dm],
      ['http://snomed.info/sct/731000124108', C.t2dm],
      [`${LOINC}|2.77`, C.glucoseInBlood],
      ['urn:oid:2.16.840.1.113883.6.1', C.glucoseInBlood],
      ['urn:oid:2.16.840.1.113883.6.90', C.e119],
      ['http://terminology.hl7.org/CodeSystem/icd10CM', C.e119],
      ['urn:oid:2.16.840.1.113883.6.88', C.metformin500],
      ['http://terminology.hl7.org/CodeSystem/CVX', C.cvx140],
      ['urn:oid:2.16.840.1.113883.6.69', C.ndcMetformin],
    ] as const;
    for (const [system, concept] of cases) {
      const res = await resolution({ system, code: concept.concept_code });
      expect(res.source_concept.concept_id, system).toBe(concept.concept_id);
      expect(res.vocabulary_id, system).toBe(concept.vocabulary_id);
    }
  });

  it('system https://fhir-terminology.ohdsi.org: the code is an OMOP concept_id (standard → direct, non-standard → its Maps to)', async () => {
    const standard = await resolution({ system: OMOP, code: String(C.t2dm.concept_id) });
    expect(standard).toMatchObject({ vocabulary_id: 'SNOMED', source_concept: brief(C.t2dm), standard_concept: brief(C.t2dm), mapping_type: 'direct' });
    const mapped = await resolution({ system: OMOP, code: String(C.e119.concept_id) });
    expect(mapped).toMatchObject({ vocabulary_id: 'ICD10CM', source_concept: brief(C.e119), standard_concept: brief(C.t2dm), mapping_type: 'mapped' });
  });

  it('NDC: hyphenated 4-4-2, 5-3-2 and 5-4-2 package codes find the 11-digit OMOP concept_code', async () => {
    const cases = [
      ['0093-1048-01', C.ndcMetformin, C.metformin500], // 4-4-2
      ['00093-1048-01', C.ndcMetformin, C.metformin500], // 5-4-2
      ['00093104801', C.ndcMetformin, C.metformin500],
      ['50580-496-60', C.ndcTylenol, C.tylenol325], // 5-3-2
      ['50580049660', C.ndcTylenol, C.tylenol325],
    ] as const;
    for (const [code, source, target] of cases) {
      const res = await resolution({ system: NDC, code, resource_type: 'MedicationStatement' });
      expect(res.source_concept, code).toEqual(brief(source));
      expect(res.standard_concept, code).toEqual(brief(target));
      expect(res).toMatchObject({ mapping_type: 'mapped', relationship_id: 'Maps to', target_table: 'drug_exposure', domain_resource_alignment: 'aligned' });
    }
  });
});

describe('mapping types and E7 rules 1, 2 and 4', () => {
  it('mapping_type direct: a standard code is its own standard concept; no similarity_score', async () => {
    const res = await resolution({ system: SNOMED, code: C.t2dm.concept_code });
    expect(res).toMatchObject({
      vocabulary_id: 'SNOMED',
      source_concept: brief(C.t2dm),
      standard_concept: brief(C.t2dm),
      mapping_type: 'direct',
      target_table: 'condition_occurrence',
    });
    expect(res.similarity_score).toBeUndefined();
    expect(res.value_as_concept).toBeUndefined();
    expect(res.value_target_field).toBeUndefined();
  });

  it('E7 rule 2 (mapping_type mapped): a non-standard code is standardised through Maps to', async () => {
    const res = await resolution({ vocabulary_id: 'ICD10CM', code: C.e119.concept_code, resource_type: 'Condition' });
    expect(res).toMatchObject({
      vocabulary_id: 'ICD10CM',
      source_concept: brief(C.e119),
      standard_concept: brief(C.t2dm),
      mapping_type: 'mapped',
      relationship_id: 'Maps to',
      target_table: 'condition_occurrence',
      domain_resource_alignment: 'aligned',
    });
    expect(res.alternative_standard_concepts ?? []).toEqual([]);
    expect(res.value_as_concept).toBeUndefined();
  });

  it("E7 rule 2: an updated ('U') concept resolves through its Maps to, to its replacement", async () => {
    const res = await resolution({ system: SNOMED, code: C.prediabetesOld.concept_code });
    expect(res).toMatchObject({ source_concept: brief(C.prediabetesOld), standard_concept: brief(C.prediabetes), mapping_type: 'mapped', relationship_id: 'Maps to' });
  });

  it('E7 rule 1: the standard concept\'s domain decides target_table even when resource_type disagrees (misaligned, with alignment_note)', async () => {
    const lab = await resolution({ system: LOINC, code: C.glucoseInBlood.concept_code, resource_type: 'MedicationStatement' });
    expect(lab).toMatchObject({ standard_concept: brief(C.glucoseInBlood), target_table: 'measurement', domain_resource_alignment: 'misaligned' });
    expect(lab.alignment_note).toEqual(expect.any(String));
    expect(lab.alignment_note.length).toBeGreaterThan(0);

    const condition = await resolution({ system: SNOMED, code: C.t2dm.concept_code, resource_type: 'MedicationRequest' });
    expect(condition).toMatchObject({ target_table: 'condition_occurrence', domain_resource_alignment: 'misaligned' });
    expect(condition.alignment_note).toEqual(expect.any(String));
  });

  it('E7 rule 1: aligned when the resource type expects the domain, not_checked without a resource type (no alignment_note)', async () => {
    const aligned = [
      [{ system: SNOMED, code: C.t2dm.concept_code }, 'Condition'],
      [{ system: LOINC, code: C.glucoseInBlood.concept_code }, 'Observation'],
      [{ system: RXNORM, code: C.metformin500.concept_code }, 'MedicationRequest'],
      [{ system: CVX, code: C.cvx140.concept_code }, 'Immunization'],
    ] as const;
    for (const [coding, resource_type] of aligned) {
      const res = await resolution({ ...coding, resource_type });
      expect(res.domain_resource_alignment, resource_type).toBe('aligned');
      expect(res.alignment_note, resource_type).toBeUndefined();
    }
    const unchecked = await resolution({ system: LOINC, code: C.glucoseInBlood.concept_code });
    expect(unchecked).toMatchObject({ domain_resource_alignment: 'not_checked', target_table: 'measurement' });
    expect(unchecked.alignment_note).toBeUndefined();
  });

  it('Maps to value: value_as_concept + value_target_field "value_as_concept_id" beside the Maps to target', async () => {
    const res = await resolution({ system: SNOMED, code: C.allergyToPenicillin.concept_code, resource_type: 'AllergyIntolerance' });
    expect(res).toMatchObject({
      source_concept: brief(C.allergyToPenicillin),
      standard_concept: brief(C.allergyToDrug),
      mapping_type: 'mapped',
      relationship_id: 'Maps to',
      target_table: CDM_TABLE_OF_DOMAIN[C.allergyToDrug.domain_id],
      value_as_concept: brief(C.penicillinG),
      value_target_field: 'value_as_concept_id',
    });
    // the value concept is not a second standard target
    expect((res.alternative_standard_concepts ?? []).map((a: { concept_id: number }) => a.concept_id)).not.toContain(C.penicillinG.concept_id);
  });

  it('one-to-many Maps to: the target aligned with the resource type is primary, the other is in alternative_standard_concepts with its own table', async () => {
    const procedure = await resolution({ system: ICD10CM, code: C.z3400.concept_code, resource_type: 'Procedure' });
    expect(procedure).toMatchObject({ standard_concept: brief(C.routineAntenatalCare), target_table: 'procedure_occurrence', mapping_type: 'mapped' });
    expect(procedure.alternative_standard_concepts).toEqual([{ ...brief(C.primigravida), target_table: 'condition_occurrence' }]);

    const condition = await resolution({ system: ICD10CM, code: C.z3400.concept_code, resource_type: 'Condition' });
    expect(condition).toMatchObject({ standard_concept: brief(C.primigravida), target_table: 'condition_occurrence' });
    expect(condition.alternative_standard_concepts).toEqual([{ ...brief(C.routineAntenatalCare), target_table: 'procedure_occurrence' }]);

    const unspecified = await resolution({ system: ICD10CM, code: C.z3400.concept_code });
    const all = [unspecified.standard_concept, ...unspecified.alternative_standard_concepts].map((c: { concept_id: number }) => c.concept_id).sort();
    expect(all).toEqual([C.routineAntenatalCare.concept_id, C.primigravida.concept_id].sort());
    expect(unspecified.target_table).toBe(CDM_TABLE_OF_DOMAIN[unspecified.standard_concept.domain_id]);
  });

  it('E7 rule 4 (mapping_type unmapped): a found code without a standard Maps to gets concept 0 whatever on_unmapped says; target_table by its own domain', async () => {
    for (const on_unmapped of [undefined, 'error', 'sentinel']) {
      const res = await resolution({ vocabulary_id: 'ICD10CM', code: C.z9989.concept_code, ...(on_unmapped ? { on_unmapped } : {}) });
      expect(res, String(on_unmapped)).toMatchObject({
        vocabulary_id: 'ICD10CM',
        source_concept: brief(C.z9989),
        standard_concept: brief(C.noMatchingConcept),
        mapping_type: 'unmapped',
        target_table: CDM_TABLE_OF_DOMAIN[C.z9989.domain_id],
      });
    }
  });

  it('E7 rule 4 on a release without concept 0: the sentinel is spelled out', async () => {
    const res = await resolution({ vocabulary_id: 'ICD10CM', code: C.z9989.concept_code }, { release: '2024.2' });
    expect(res.standard_concept).toEqual(brief(C.noMatchingConcept));
    expect(res.mapping_type).toBe('unmapped');
  });

  it('Errors rule 3: a code not found (no display) is 404 concept_not_found unless on_unmapped is sentinel (then concept 0)', async () => {
    expectEnvelopeError(await resolve({ system: SNOMED, code: '00000000' }), 404, 'concept_not_found');
    expectEnvelopeError(await resolve({ system: SNOMED, code: '00000000', on_unmapped: 'error' }), 404, 'concept_not_found');
    expectEnvelopeError(await resolve({ vocabulary_id: 'ICD10CM', code: 'DEFINITELY-NOT-A-CODE' }), 404, 'concept_not_found');
    const sentinel = await resolution({ system: SNOMED, code: '00000000', on_unmapped: 'sentinel' });
    expect(sentinel.standard_concept).toEqual(brief(C.noMatchingConcept));
  });
});

describe('E7 rule 3: semantic fallback on display', () => {
  it('code not found + display → semantic_match with a similarity_score in 0..1 and a quality_note', async () => {
    const res = await resolution({ system: SNOMED, code: '00000000', display: C.t2dm.concept_name, resource_type: 'Condition' });
    expect(res.mapping_type).toBe('semantic_match');
    expect(res.standard_concept).toEqual(brief(C.t2dm));
    expect(res.target_table).toBe('condition_occurrence');
    expect(res.similarity_score).toBeGreaterThanOrEqual(0);
    expect(res.similarity_score).toBeLessThanOrEqual(1);
    expect(res.quality_note).toEqual(expect.any(String));
    expect(res.quality_note.length).toBeGreaterThan(0);
  });

  it('display alone → semantic_match with vocabulary_id null', async () => {
    const res = await resolution({ display: C.allergyToDrug.concept_name, resource_type: 'AllergyIntolerance' });
    expect(res).toMatchObject({ vocabulary_id: null, mapping_type: 'semantic_match', standard_concept: brief(C.allergyToDrug) });
    expect(res.similarity_score).toBeGreaterThan(0);
    expect(res.similarity_score).toBeLessThanOrEqual(1);
  });

  it("the fallback keeps to the resource type's expected domains", async () => {
    const observation = await resolution({ display: C.glucoseInBlood.concept_name, resource_type: 'Observation' });
    expect(observation.standard_concept).toEqual(brief(C.glucoseInBlood));
    const drug = await resolution({ display: C.glucoseInBlood.concept_name, resource_type: 'MedicationRequest', on_unmapped: 'sentinel' });
    if (drug.standard_concept.concept_id !== 0) expect(drug.standard_concept.domain_id).toBe('Drug');
  });

  it('a release without vectors still resolves display (keyword + lexical similarity), never a 503, and says so in quality_note', async () => {
    const res = await resolution({ display: C.t2dm.concept_name, resource_type: 'Condition' }, { release: '2025.1' });
    expect(res.mapping_type).toBe('semantic_match');
    expect(res.standard_concept).toEqual(brief(C.t2dm));
    expect(res.quality_note).toMatch(/vector|lexical|keyword/i);
  });

  it('a semantic match never returns a restricted vocabulary (Authentication 5); a CPT4-validated key may get CPT4', async () => {
    for (const release of ['2025.2', '2025.1']) {
      const r = await resolve({ display: C.cpt4Visit.concept_name, resource_type: 'Procedure', on_unmapped: 'sentinel', include_recommendations: true }, { release });
      expect(r.status, release).toBe(200);
      const restrictedIds = Object.values(C)
        .filter((c) => RESTRICTED.includes(c.vocabulary_id))
        .map((c): number => c.concept_id);
      expect(conceptIdsIn(r.body.data).filter((id) => restrictedIds.includes(id)), release).toEqual([]);
      expect(r.body.data.resolution.standard_concept.vocabulary_id).not.toBe('CPT4');
    }
    const validated = await resolution({ display: C.cpt4Visit.concept_name, resource_type: 'Procedure' }, { key: cpt4Key });
    expect(validated.standard_concept).toEqual(brief(C.cpt4Visit));
  });

  it('display with nothing like it: 404 concept_not_found, or concept 0 with on_unmapped sentinel (Errors rule 3)', async () => {
    expectEnvelopeError(await resolve({ display: 'zzz-no-such-thing-xyz-abc' }), 404, 'concept_not_found');
    const sentinel = await resolution({ display: 'zzz-no-such-thing-xyz-abc', on_unmapped: 'sentinel' });
    expect(sentinel.standard_concept.concept_id).toBe(0);
  });
});

describe('options: recommendations, quality, validation', () => {
  it('include_recommendations: at most recommendations_limit (default 5) items, each concept fields + relationship_id; absent when not requested', async () => {
    const plain = await resolution({ system: SNOMED, code: C.t2dm.concept_code });
    expect(plain.recommendations).toBeUndefined();

    const byDefault = await resolution({ system: SNOMED, code: C.t2dm.concept_code, include_recommendations: true });
    expect(byDefault.recommendations.length).toBeGreaterThan(1);
    expect(byDefault.recommendations.length).toBeLessThanOrEqual(5);
    const known = new Map(Object.values(C).map((c) => [c.concept_id, c]));
    for (const item of byDefault.recommendations) {
      expect(item).toMatchObject(brief(known.get(item.concept_id)!));
      expect(item.relationship_id).toEqual(expect.any(String));
    }

    const one = await resolution({ system: SNOMED, code: C.t2dm.concept_code, include_recommendations: true, recommendations_limit: 1 });
    expect(one.recommendations).toHaveLength(1);
    const twenty = await resolution({ system: SNOMED, code: C.t2dm.concept_code, include_recommendations: true, recommendations_limit: 20 });
    expect(twenty.recommendations.length).toBeGreaterThanOrEqual(byDefault.recommendations.length);
    expect(twenty.recommendations.length).toBeLessThanOrEqual(20);
  });

  it('include_quality adds mapping_quality (high, medium, low or manual_review) for every mapping type; absent when not requested', async () => {
    const inputs = [
      { system: SNOMED, code: C.t2dm.concept_code },
      { system: ICD10CM, code: C.e119.concept_code },
      { system: ICD10CM, code: C.z3400.concept_code },
      { system: SNOMED, code: C.allergyToPenicillin.concept_code },
      { system: ICD10CM, code: C.z9989.concept_code },
      { display: C.t2dm.concept_name },
    ];
    for (const input of inputs) {
      const withQuality = await resolution({ ...input, include_quality: true });
      expect(MAPPING_QUALITIES, JSON.stringify(input)).toContain(withQuality.mapping_quality);
      const without = await resolution(input);
      expect(without.mapping_quality, JSON.stringify(input)).toBeUndefined();
    }
  });

  it('mapping_quality follows the documented rule (client contract §6 heuristic, as the OpenAPI description states it)', async () => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ system: SNOMED, code: C.t2dm.concept_code }, ['high']], // direct
      [{ system: SNOMED, code: C.t2dm.concept_code, resource_type: 'Condition' }, ['high']], // direct, aligned
      [{ system: SNOMED, code: C.t2dm.concept_code, resource_type: 'Procedure' }, ['medium']], // direct, one step lower: misaligned
      [{ system: ICD10CM, code: C.e119.concept_code }, ['high']], // a single Maps to
      [{ system: SNOMED, code: C.prediabetesOld.concept_code }, ['medium']], // a single Maps to, one step lower: invalid ('U') source
      [{ system: ICD10CM, code: C.z3400.concept_code, resource_type: 'Procedure' }, ['medium']], // one-to-many
      [{ system: SNOMED, code: C.allergyToPenicillin.concept_code }, ['medium']], // Maps to value
      [{ system: ICD10CM, code: C.z9989.concept_code }, ['manual_review']], // sentinel
      [{ system: SNOMED, code: '00000000', on_unmapped: 'sentinel' }, ['manual_review']], // sentinel
      [{ display: C.t2dm.concept_name }, ['medium', 'low']], // semantic match
    ];
    for (const [input, expected] of cases) {
      const res = await resolution({ ...input, include_quality: true });
      expect(expected, JSON.stringify(input)).toContain(res.mapping_quality);
    }
  });

  it('bad option values are 400 validation_error naming the parameter', async () => {
    const base = { system: SNOMED, code: C.t2dm.concept_code };
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ include_recommendations: true, recommendations_limit: 0 }, /recommendations_limit/],
      [{ include_recommendations: true, recommendations_limit: 21 }, /recommendations_limit/],
      [{ include_recommendations: true, recommendations_limit: 2.5 }, /recommendations_limit/],
      [{ on_unmapped: 'ignore' }, /on_unmapped/],
      [{ resource_type: 'Spaceship' }, /resource_type/],
    ];
    for (const [extra, mentioned] of cases) expectEnvelopeError(await resolve({ ...base, ...extra }), 400, 'validation_error', mentioned);
  });
});

describe('licensed vocabularies (Authentication 5)', () => {
  it('CPT4 (by system or vocabulary_id) is 403 vocabulary_restricted without validation, 200 with a validated key', async () => {
    for (const input of [{ system: CPT, code: C.cpt4Visit.concept_code }, { vocabulary_id: 'CPT4', code: C.cpt4Visit.concept_code }]) {
      expectEnvelopeError(await resolve(input), 403, 'vocabulary_restricted');
      const res = await resolution(input, { key: cpt4Key });
      expect(res).toMatchObject({ source_concept: brief(C.cpt4Visit), standard_concept: brief(C.cpt4Visit), mapping_type: 'direct', target_table: 'procedure_occurrence' });
    }
  });

  it('a CPT4 Maps to target is never shown to a key without validation (403: it is the only target); a validated key gets it', async () => {
    const input = { vocabulary_id: 'SNOMED', code: C.officeVisitOld.concept_code, include_recommendations: true };
    const r = await resolve(input);
    expectEnvelopeError(r, 403, 'vocabulary_restricted');
    expect(conceptIdsIn(r.body)).not.toContain(C.cpt4Visit.concept_id);
    const validated = await resolution(input, { key: cpt4Key });
    expect(validated).toMatchObject({ source_concept: brief(C.officeVisitOld), standard_concept: brief(C.cpt4Visit), mapping_type: 'mapped' });
  });

  it('vocabulary_id is matched in any case, as the release spells it', async () => {
    const res = await resolution({ vocabulary_id: 'icd10cm', code: C.e119.concept_code });
    expect(res).toMatchObject({ vocabulary_id: 'ICD10CM', source_concept: brief(C.e119), standard_concept: brief(C.t2dm), mapping_type: 'mapped' });
  });

  it('GPI and MedDRA are 403 vocabulary_restricted for every key', async () => {
    for (const concept of [C.gpiDrug, C.meddraHeadache]) {
      for (const key of [undefined, cpt4Key]) {
        expectEnvelopeError(await resolve({ vocabulary_id: concept.vocabulary_id, code: concept.concept_code }, { key }), 403, 'vocabulary_restricted');
      }
    }
  });
});

describe('client shapes (client contract §1.6)', () => {
  it("the Node client's nested coding object is flattened: same answer as the flat body", async () => {
    const flat = await resolve({ system: ICD10CM, code: C.e119.concept_code, resource_type: 'Condition' });
    const nested = await resolve({ coding: { system: ICD10CM, code: C.e119.concept_code }, resource_type: 'Condition' });
    expect(nested.status).toBe(200);
    expect(nested.body.data).toEqual(flat.body.data);
  });

  it('the resolution carries the fields of the specification table with their types', async () => {
    const res = await resolution({ system: SNOMED, code: C.allergyToPenicillin.concept_code, include_quality: true });
    for (const field of ['vocabulary_id', 'source_concept', 'standard_concept', 'mapping_type', 'target_table', 'domain_resource_alignment', 'quality_note']) {
      expect(Object.keys(res), field).toContain(field);
    }
    for (const concept of [res.source_concept, res.standard_concept, res.value_as_concept]) {
      expect(Object.keys(concept).sort()).toEqual(['concept_class_id', 'concept_code', 'concept_id', 'concept_name', 'domain_id', 'standard_concept', 'vocabulary_id']);
    }
  });
});
