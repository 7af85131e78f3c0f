/**
 * POST /v1/fhir/resolve/codeable-concept over HTTPS on the resolver fixture (client contract §1.6
 * and §6 "FHIR resolver"): the best match is the coding with user_selected, otherwise by SNOMED >
 * RxNorm > LOINC > CVX > ICD-10 > other; the other resolved codings are alternatives, the failed
 * ones unresolved with their error; `text` is the semantic fallback when no coding resolves;
 * 1–20 codings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { brief, C, expectEnvelopeError, writeResolverFixture } from './resolver-fixture.js';

const SNOMED = 'http://snomed.info/sct';

/** One resolvable coding per rank of the preference order, best first. */
const BY_PREFERENCE = [
  { system: SNOMED, code: C.t2dm.concept_code },
  { system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: C.metformin500.concept_code },
  { system: 'http://loinc.org', code: C.glucoseInBlood.concept_code },
  { system: 'http://hl7.org/fhir/sid/cvx', code: C.cvx140.concept_code },
  { system: 'http://hl7.org/fhir/sid/icd-10-cm', code: C.e119.concept_code },
  { system: 'http://hl7.org/fhir/sid/ndc', code: C.ndcMetformin.concept_code },
];

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeResolverFixture(), label: '2025.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
});

const resolveConcept = (body: unknown) => t.request('/v1/fhir/resolve/codeable-concept', { method: 'POST', body });
async function answer(body: unknown) {
  const r = await resolveConcept(body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}
const systemsOf = (items: Array<{ input: { system: string | null } }>) => items.map((x) => x.input.system);

describe('POST /v1/fhir/resolve/codeable-concept', () => {
  it('preference order SNOMED > RxNorm > LOINC > CVX > ICD-10 > other, whatever the order of the codings', async () => {
    for (let better = 0; better < BY_PREFERENCE.length - 1; better++) {
      for (let worse = better + 1; worse < BY_PREFERENCE.length; worse++) {
        const data = await answer({ coding: [BY_PREFERENCE[worse], BY_PREFERENCE[better]] });
        const label = `${BY_PREFERENCE[better]!.system} over ${BY_PREFERENCE[worse]!.system}`;
        expect(data.best_match.input.system, label).toBe(BY_PREFERENCE[better]!.system);
        expect(systemsOf(data.alternatives), label).toEqual([BY_PREFERENCE[worse]!.system]);
        expect(data.unresolved, label).toEqual([]);
      }
    }
    const all = await answer({ coding: [...BY_PREFERENCE].reverse(), resource_type: 'Condition' });
    expect(all.best_match.input.system).toBe(SNOMED);
    expect(all.best_match.resolution.standard_concept).toEqual(brief(C.t2dm));
    expect(new Set(systemsOf(all.alternatives))).toEqual(new Set(BY_PREFERENCE.slice(1).map((c) => c.system)));
    for (const alternative of all.alternatives) expect(alternative.resolution.standard_concept.concept_id).toBeGreaterThan(0);
  });

  it('a coding with user_selected true wins over the preference order', async () => {
    const data = await answer({ coding: [BY_PREFERENCE[0], { ...BY_PREFERENCE[4], user_selected: true }, BY_PREFERENCE[2]] });
    expect(data.best_match.input.system).toBe(BY_PREFERENCE[4]!.system);
    expect(data.best_match.resolution).toMatchObject({ source_concept: brief(C.e119), standard_concept: brief(C.t2dm), mapping_type: 'mapped' });
    expect(new Set(systemsOf(data.alternatives))).toEqual(new Set([BY_PREFERENCE[0]!.system, BY_PREFERENCE[2]!.system]));
  });

  it('a user_selected coding that does not resolve is unresolved; the best of the others wins', async () => {
    const data = await answer({ coding: [BY_PREFERENCE[2], { system: SNOMED, code: '00000000', user_selected: true }, BY_PREFERENCE[1]] });
    expect(data.best_match.input.system).toBe(BY_PREFERENCE[1]!.system);
    expect(data.unresolved).toHaveLength(1);
    expect(data.unresolved[0]).toMatchObject({ input: { system: SNOMED, code: '00000000' }, error: { code: 'concept_not_found' } });
  });

  it('unresolved lists every coding that failed, with its error code; the others are best match and alternatives', async () => {
    const data = await answer({
      coding: [
        { system: 'http://snomed.info/sc', code: C.t2dm.concept_code },
        BY_PREFERENCE[4],
        { system: 'http://www.ama-assn.org/go/cpt', code: C.cpt4Visit.concept_code },
        BY_PREFERENCE[0],
        { vocabulary_id: 'ICD10CM', code: 'DEFINITELY-NOT-A-CODE' },
      ],
    });
    expect(data.best_match.input.system).toBe(SNOMED);
    expect(systemsOf(data.alternatives)).toEqual([BY_PREFERENCE[4]!.system]);
    const errors = Object.fromEntries(data.unresolved.map((u: { input: { code: string }; error: { code: string } }) => [u.input.code, u.error.code]));
    expect(errors).toEqual({ [C.t2dm.concept_code]: 'unknown_system', [C.cpt4Visit.concept_code]: 'vocabulary_restricted', 'DEFINITELY-NOT-A-CODE': 'concept_not_found' });
    for (const u of data.unresolved) {
      expect(u.resolution).toBeUndefined();
      expect(u.error.message).toEqual(expect.any(String));
    }
  });

  it('text is the semantic fallback when no coding resolves (E7 rule 3)', async () => {
    const data = await answer({
      coding: [{ system: SNOMED, code: '00000000' }, { vocabulary_id: 'ICD10CM', code: 'DEFINITELY-NOT-A-CODE' }],
      text: C.t2dm.concept_name,
      resource_type: 'Condition',
    });
    expect(data.best_match.resolution).toMatchObject({ mapping_type: 'semantic_match', vocabulary_id: null, standard_concept: brief(C.t2dm) });
    expect(data.best_match.resolution.similarity_score).toBeGreaterThan(0);
    expect(data.best_match.resolution.similarity_score).toBeLessThanOrEqual(1);
    expect(data.unresolved).toHaveLength(2);
  });

  it('nothing resolves and no text: best_match null (client contract §1.6), every coding unresolved', async () => {
    const data = await answer({ coding: [{ system: SNOMED, code: '00000000' }, { system: 'http://snomed.info/sc', code: '1' }] });
    expect(data.best_match).toBeNull();
    expect(data.alternatives).toEqual([]);
    expect(data.unresolved.map((u: { error: { code: string } }) => u.error.code)).toEqual(['concept_not_found', 'unknown_system']);
  });

  it('a text that matches nothing is unresolved like a coding: its display echoed, the error with its details', async () => {
    const text = 'qzxv plorfk wubbleton';
    const data = await answer({ coding: [{ system: SNOMED, code: '00000000' }], text, resource_type: 'Condition' });
    expect(data.best_match).toBeNull();
    expect(data.unresolved).toHaveLength(2);
    expect(data.unresolved[1]).toMatchObject({
      input: { system: null, code: null, display: text, vocabulary_id: null, resource_type: 'Condition' },
      error: { code: 'concept_not_found', details: { display: text } },
    });
  });

  it('text is not used when a coding resolves', async () => {
    const data = await answer({ coding: [BY_PREFERENCE[2]], text: C.t2dm.concept_name });
    expect(data.best_match.resolution).toMatchObject({ mapping_type: 'direct', standard_concept: brief(C.glucoseInBlood) });
  });

  it('takes 1 to 20 codings: 0 and 21 are 400 validation_error naming coding', async () => {
    for (const coding of [[], Array.from({ length: 21 }, () => BY_PREFERENCE[0])]) {
      expectEnvelopeError(await resolveConcept({ coding }), 400, 'validation_error', /coding/);
    }
    const notFound = Array.from({ length: 20 - BY_PREFERENCE.length }, (_, i) => ({ system: SNOMED, code: `0000000${i}` }));
    const twenty = await answer({ coding: [...notFound, ...BY_PREFERENCE] });
    expect(twenty.best_match.input.system).toBe(SNOMED);
    expect(twenty.best_match.input.code).toBe(C.t2dm.concept_code);
    expect(twenty.alternatives).toHaveLength(BY_PREFERENCE.length - 1);
    expect(twenty.unresolved).toHaveLength(notFound.length);
  });

  it('bad shared options are 400 validation_error naming the option', async () => {
    const coding = [BY_PREFERENCE[0]];
    expectEnvelopeError(await resolveConcept({ coding, resource_type: 'Spaceship' }), 400, 'validation_error', /resource_type/);
    expectEnvelopeError(await resolveConcept({ coding, include_recommendations: true, recommendations_limit: 0 }), 400, 'validation_error', /recommendations_limit/);
    expectEnvelopeError(await resolveConcept({ coding, on_unmapped: 'maybe' }), 400, 'validation_error', /on_unmapped/);
  });
});
