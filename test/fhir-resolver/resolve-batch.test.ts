/**
 * POST /v1/fhir/resolve/batch over HTTPS on the resolver fixture (client contract §1.6; spec
 * Limits "Batch or bulk request size": up to 100 items, one call against the quota): 1–100
 * codings, per-item failure isolation in input order, summary counts, shared options applied to
 * every item, and one call counted against the monthly quota.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { brief, C, expectEnvelopeError, writeResolverFixture } from './resolver-fixture.js';

const SNOMED = 'http://snomed.info/sct';
const MAPPING_QUALITIES = ['high', 'medium', 'low', 'manual_review'];

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeResolverFixture(), label: '2025.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
});

const batch = (body: unknown, key?: string) => t.request('/v1/fhir/resolve/batch', { method: 'POST', body, key });
const t2dmCoding = { system: SNOMED, code: C.t2dm.concept_code };

describe('POST /v1/fhir/resolve/batch', () => {
  it('takes 1 to 100 codings: 0 and 101 (or no array) are 400 validation_error naming codings', async () => {
    for (const body of [{ codings: [] }, { codings: Array.from({ length: 101 }, () => t2dmCoding) }, {}, { codings: t2dmCoding }]) {
      expectEnvelopeError(await batch(body), 400, 'validation_error', /codings/);
    }
    const one = await batch({ codings: [t2dmCoding] });
    expect(one.status).toBe(200);
    expect(one.body.data.results).toHaveLength(1);
    const hundred = await batch({ codings: Array.from({ length: 100 }, () => t2dmCoding) });
    expect(hundred.status).toBe(200);
    expect(hundred.body.data.results).toHaveLength(100);
    expect(hundred.body.data.summary).toEqual({ total: 100, resolved: 100, failed: 0 });
  });

  it('a failing item fails alone, with its error code, in input order; resolved + failed == total', async () => {
    const codings = [
      t2dmCoding,
      { system: 'http://snomed.info/sc', code: C.t2dm.concept_code },
      { code: C.e119.concept_code },
      { system: 'http://www.ama-assn.org/go/cpt', code: C.cpt4Visit.concept_code },
      { system: SNOMED, code: '00000000' },
      { vocabulary_id: 'ICD10CM', code: C.e119.concept_code },
      { vocabulary_id: 'MedDRA', code: C.meddraHeadache.concept_code },
      { system: 'http://loinc.org', code: C.glucoseInBlood.concept_code },
    ];
    const r = await batch({ codings });
    expect(r.status).toBe(200);
    const results = r.body.data.results;
    expect(results).toHaveLength(codings.length);
    // input order: every item echoes its own coding
    results.forEach((item: { input: { code: string | null } }, i: number) => expect(item.input.code, String(i)).toBe(codings[i]!.code ?? null));

    const expectedErrors: Array<string | null> = [null, 'unknown_system', 'missing_input', 'vocabulary_restricted', 'concept_not_found', null, 'vocabulary_restricted', null];
    results.forEach((item: { resolution?: unknown; error?: { code: string; message: string } }, i: number) => {
      if (expectedErrors[i] === null) {
        expect(item.error, String(i)).toBeUndefined();
        expect(item.resolution, String(i)).toBeTruthy();
      } else {
        expect(item.resolution, String(i)).toBeUndefined();
        expect(item.error, String(i)).toMatchObject({ code: expectedErrors[i], message: expect.any(String) });
      }
    });
    expect(results[1].error.details.suggestion).toBe(SNOMED);
    expect(results[0].resolution.standard_concept).toEqual(brief(C.t2dm));
    expect(results[5].resolution.standard_concept).toEqual(brief(C.t2dm));
    expect(results[7].resolution.standard_concept).toEqual(brief(C.glucoseInBlood));

    const failed = expectedErrors.filter((e) => e !== null).length;
    expect(r.body.data.summary).toEqual({ total: codings.length, resolved: codings.length - failed, failed });
  });

  it('an item resolves exactly as the single endpoint resolves it', async () => {
    const codings = [t2dmCoding, { vocabulary_id: 'SNOMED', code: C.allergyToPenicillin.concept_code }, { system: 'http://hl7.org/fhir/sid/icd-10-cm', code: C.z3400.concept_code }];
    const r = await batch({ codings, resource_type: 'Procedure' });
    for (const [i, coding] of codings.entries()) {
      const single = await t.request('/v1/fhir/resolve', { method: 'POST', body: { ...coding, resource_type: 'Procedure' } });
      expect(r.body.data.results[i], String(i)).toEqual(single.body.data);
    }
  });

  it('shared options apply to every item (resource_type, include_quality, include_recommendations + limit, on_unmapped)', async () => {
    const codings = [t2dmCoding, { vocabulary_id: 'ICD10CM', code: C.e119.concept_code }, { system: SNOMED, code: '00000000' }, { vocabulary_id: 'ICD10CM', code: C.z9989.concept_code }];
    const r = await batch({ codings, resource_type: 'Condition', include_quality: true, include_recommendations: true, recommendations_limit: 1, on_unmapped: 'sentinel' });
    expect(r.status).toBe(200);
    expect(r.body.data.summary).toEqual({ total: 4, resolved: 4, failed: 0 });
    for (const [i, item] of r.body.data.results.entries()) {
      expect(item.input.resource_type, String(i)).toBe('Condition');
      // alignment is checked for a real standard concept (the concept 0 sentinel has no domain to align)
      if (item.resolution.standard_concept.concept_id !== 0) expect(item.resolution.domain_resource_alignment, String(i)).not.toBe('not_checked');
      expect(MAPPING_QUALITIES, String(i)).toContain(item.resolution.mapping_quality);
      expect(item.resolution.recommendations.length, String(i)).toBeLessThanOrEqual(1);
    }
    expect(r.body.data.results[0].resolution.recommendations).toHaveLength(1);
    // on_unmapped sentinel: the code not found is concept 0 instead of an error
    expect(r.body.data.results[2].resolution.standard_concept.concept_id).toBe(0);

    const plain = await batch({ codings: codings.slice(0, 2) });
    for (const item of plain.body.data.results) {
      expect(item.resolution.mapping_quality).toBeUndefined();
      expect(item.resolution.recommendations).toBeUndefined();
      expect(item.resolution.domain_resource_alignment).toBe('not_checked');
    }
  });

  it('bad shared options fail the whole request with 400 validation_error naming the option', async () => {
    const codings = [t2dmCoding];
    expectEnvelopeError(await batch({ codings, include_recommendations: true, recommendations_limit: 21 }), 400, 'validation_error', /recommendations_limit/);
    expectEnvelopeError(await batch({ codings, on_unmapped: 'skip' }), 400, 'validation_error', /on_unmapped/);
    expectEnvelopeError(await batch({ codings, resource_type: 'Spaceship' }), 400, 'validation_error', /resource_type/);
  });

  it('counts as one call against the monthly quota, whatever its size', async () => {
    const key = await t.createKey({ monthly_quota: 2 });
    const codings = Array.from({ length: 100 }, (_, i) => (i % 2 ? t2dmCoding : { vocabulary_id: 'ICD10CM', code: C.e119.concept_code }));
    expect((await batch({ codings }, key)).status).toBe(200);
    expect((await batch({ codings }, key)).status).toBe(200);
    expectEnvelopeError(await batch({ codings }, key), 429, 'monthly_quota_exceeded');
  });
});
