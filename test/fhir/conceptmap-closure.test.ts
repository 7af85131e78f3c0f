/**
 * ConceptMap/$closure over HTTPS (spec E11, "FHIR closure result", Errors rule 4, reading note 11):
 * POST only, stateless, a Parameters body with an optional `name` (echoed) and 1–50 `concept`
 * codings; the answer holds every subsumption pair among the supplied codes, grouped by (source
 * system, target system), `equivalence: subsumes` on r4/r4b and `relationship:
 * source-is-broader-than-target` on r5/r6. Expected pairs are computed from the fixture's
 * CONCEPT_ANCESTOR rows.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { ATC, CONCEPTS, CPT, isProperAncestor, OMOP, RXNORM, SNOMED, writeValueSetClosureFixture } from './valueset-closure-fixture.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeValueSetClosureFixture(), label: '2025.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
});

interface Coding {
  system: string;
  code: string;
}
interface Target {
  code: string;
  equivalence?: string;
  relationship?: string;
}
interface Group {
  source: string;
  target: string;
  element: Array<{ code: string; target: Target[] }>;
}

const C = CONCEPTS;
const snomed = (c: { concept_code: string }): Coding => ({ system: SNOMED, code: c.concept_code });
const omop = (c: { concept_id: number }): Coding => ({ system: OMOP, code: String(c.concept_id) });

function closureBody(concepts: Coding[], name?: string) {
  return {
    resourceType: 'Parameters',
    parameter: [...(name === undefined ? [] : [{ name: 'name', valueString: name }]), ...concepts.map((valueCoding) => ({ name: 'concept', valueCoding }))],
  };
}

function closure(version: string, concepts: Coding[], options: { name?: string; key?: string } = {}) {
  return t.request(`/fhir/${version}/ConceptMap/$closure`, {
    method: 'POST',
    headers: { 'content-type': 'application/fhir+json' },
    body: closureBody(concepts, options.name),
    key: options.key,
  });
}

/** The result's pairs as "ancestorSystem|code > descendantSystem|code" strings. */
function pairsOf(groups: Group[]): string[] {
  return groups.flatMap((g) => g.element.flatMap((e) => e.target.map((x) => `${g.source}|${e.code} > ${g.target}|${x.code}`))).sort();
}

/** The pairs the fixture's CONCEPT_ANCESTOR implies among these (coding, concept_id) inputs. */
function expectedPairs(inputs: Array<[Coding, number]>): string[] {
  const out = new Set<string>();
  for (const [a, aId] of inputs) {
    for (const [d, dId] of inputs) if (isProperAncestor(aId, dId)) out.add(`${a.system}|${a.code} > ${d.system}|${d.code}`);
  }
  return [...out].sort();
}

describe('E11: the closure result', () => {
  it('"FHIR closure result": ConceptMap, name echoed, status active, 73211009 subsumes 44054006 and 46635009 (r4)', async () => {
    const r = await closure('r4', [snomed(C.diabetes), snomed(C.type2), snomed(C.type1)], { name: 'my-closure-table' });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/fhir\+json/);
    expect(r.body).toEqual({
      resourceType: 'ConceptMap',
      name: 'my-closure-table',
      status: 'active',
      group: [
        {
          source: SNOMED,
          target: SNOMED,
          element: [
            {
              code: C.diabetes.concept_code,
              target: [
                { code: C.type2.concept_code, equivalence: 'subsumes' },
                { code: C.type1.concept_code, equivalence: 'subsumes' },
              ],
            },
          ],
        },
      ],
    });
  });

  it('contains all subsumption pairs, every level of CONCEPT_ANCESTOR, self pairs excluded', async () => {
    const inputs: Array<[Coding, number]> = [C.type1, C.endocrine, C.type2, C.diabetes, C.infarction].map((c) => [snomed(c), c.concept_id]);
    const r = await closure('r4', inputs.map(([coding]) => coding));
    expect(r.status).toBe(200);
    const expected = expectedPairs(inputs);
    expect(expected).toHaveLength(5);
    expect(pairsOf(r.body.group)).toEqual(expected);
    // One element per ancestor code; the descendant code never appears as its own target.
    for (const g of r.body.group as Group[]) {
      const codes = g.element.map((e) => e.code);
      expect(new Set(codes).size).toBe(codes.length);
      for (const e of g.element) expect(e.target.map((x) => x.code)).not.toContain(e.code);
    }
  });

  it('r4b answers like r4: equivalence subsumes on every target', async () => {
    const r = await closure('r4b', [snomed(C.endocrine), snomed(C.diabetes), snomed(C.type2)]);
    expect(r.status).toBe(200);
    const targets = (r.body.group as Group[]).flatMap((g) => g.element.flatMap((e) => e.target));
    expect(targets).toHaveLength(3);
    for (const x of targets) expect(x).toEqual({ code: x.code, equivalence: 'subsumes' });
  });

  it.each(['r5', 'r6'])('reading note 11: %s uses relationship source-is-broader-than-target and no equivalence', async (version) => {
    const r = await closure(version, [snomed(C.diabetes), snomed(C.type2)]);
    expect(r.status).toBe(200);
    expect(r.body.group).toEqual([
      {
        source: SNOMED,
        target: SNOMED,
        element: [{ code: C.diabetes.concept_code, target: [{ code: C.type2.concept_code, relationship: 'source-is-broader-than-target' }] }],
      },
    ]);
  });

  it('groups by (source system, target system): OMOP concept ids, SNOMED codes, ATC above RxNorm', async () => {
    const inputs: Array<[Coding, number]> = [
      [omop(C.diabetes), C.diabetes.concept_id],
      [snomed(C.type2), C.type2.concept_id],
      [omop(C.type1), C.type1.concept_id],
      [{ system: ATC, code: C.biguanides.concept_code }, C.biguanides.concept_id],
      [{ system: RXNORM, code: C.metformin.concept_code }, C.metformin.concept_id],
    ];
    const r = await closure('r4', inputs.map(([coding]) => coding));
    expect(r.status).toBe(200);
    const groups = r.body.group as Group[];
    expect(groups.map((g) => `${g.source} → ${g.target}`).sort()).toEqual([`${ATC} → ${RXNORM}`, `${OMOP} → ${OMOP}`, `${OMOP} → ${SNOMED}`].sort());
    expect(pairsOf(groups)).toEqual(expectedPairs(inputs));
  });

  it('two codings of the same concept are no pair; the same coding twice counts once', async () => {
    const r = await closure('r4', [omop(C.diabetes), snomed(C.diabetes), snomed(C.type2), snomed(C.type2)]);
    expect(r.status).toBe(200);
    expect(pairsOf(r.body.group)).toEqual([`${OMOP}|${C.diabetes.concept_id} > ${SNOMED}|${C.type2.concept_code}`, `${SNOMED}|${C.diabetes.concept_code} > ${SNOMED}|${C.type2.concept_code}`].sort());
    expect(r.body.group.flatMap((g: Group) => g.element.flatMap((e) => e.target))).toHaveLength(2);
  });

  it('codes without a pair give an empty group list, and the name defaults when none is sent', async () => {
    const r = await closure('r4', [snomed(C.diabetes), snomed(C.infarction)]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ resourceType: 'ConceptMap', name: 'closure', status: 'active', group: [] });
  });

  it('codes the release does not hold are left out; the others still get their pairs', async () => {
    const known = [snomed(C.diabetes), snomed(C.type2)];
    const withUnknown = await closure('r4', [{ system: SNOMED, code: '999999999' }, ...known, { system: OMOP, code: '123456789' }, { system: OMOP, code: 'not-an-id' }]);
    const alone = await closure('r4', known);
    expect(withUnknown.status).toBe(200);
    expect(withUnknown.body.group).toEqual(alone.body.group);
    expect(JSON.stringify(withUnknown.body)).not.toContain('999999999');
  });

  it('takes and answers FHIR XML on r4 (Parameters in, ConceptMap out)', async () => {
    const coding = (c: { concept_code: string }) =>
      `<parameter><name value="concept"/><valueCoding><system value="${SNOMED}"/><code value="${c.concept_code}"/></valueCoding></parameter>`;
    const xml = `<Parameters xmlns="http://hl7.org/fhir"><parameter><name value="name"/><valueString value="xml-table"/></parameter>${coding(C.diabetes)}${coding(C.type1)}</Parameters>`;
    const r = await t.request('/fhir/r4/ConceptMap/$closure?_format=xml', { method: 'POST', headers: { 'content-type': 'application/fhir+xml' }, body: xml });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/fhir\+xml/);
    expect(r.text).toContain('<name value="xml-table"/>');
    expect(r.text).toContain(`<element><code value="${C.diabetes.concept_code}"/><target><code value="${C.type1.concept_code}"/><equivalence value="subsumes"/></target></element>`);
  });

  it('is stateless: the same name with other codes gives only the pairs of those codes', async () => {
    await closure('r4', [snomed(C.endocrine), snomed(C.diabetes)], { name: 'table-1' });
    const second = await closure('r4', [snomed(C.type1), snomed(C.infarction)], { name: 'table-1' });
    expect(second.body.group).toEqual([]);
  });

  it('matches the pairs CONCEPT_ANCESTOR implies for any subset of the fixture (property, 25 runs)', async () => {
    const pool: Array<[Coding, number]> = [
      ...[C.endocrine, C.diabetes, C.type2, C.type1, C.infarction].flatMap((c): Array<[Coding, number]> => [
        [snomed(c), c.concept_id],
        [omop(c), c.concept_id],
      ]),
      [{ system: ATC, code: C.biguanides.concept_code }, C.biguanides.concept_id],
      [{ system: RXNORM, code: C.metformin.concept_code }, C.metformin.concept_id],
    ];
    await fc.assert(
      fc.asyncProperty(fc.subarray(pool, { minLength: 1 }), fc.constantFrom('r4', 'r5'), async (inputs, version) => {
        const r = await closure(version, inputs.map(([coding]) => coding));
        expect(r.status).toBe(200);
        expect(pairsOf(r.body.group)).toEqual(expectedPairs(inputs));
      }),
      { numRuns: 25 },
    );
  });
});

describe('Errors rule 4 and input checks: 400 invalid', () => {
  const expectInvalid = (r: { status: number; body: { resourceType: string; issue: Array<{ code: string; details: { text: string } }> } }, pattern: RegExp) => {
    expect(r.status).toBe(400);
    expect(r.body.resourceType).toBe('OperationOutcome');
    expect(r.body.issue[0]!.code).toBe('invalid');
    expect(r.body.issue[0]!.details.text).toMatch(pattern);
  };

  it('Errors rule 4: no concept parameter is a 400 invalid', async () => {
    expectInvalid(await closure('r4', [], { name: 'only-a-name' }), /'concept'.*none were given/);
  });

  it('Errors rule 4: 51 concepts is a 400 invalid; 50 is accepted', async () => {
    const fifty = Array.from({ length: 50 }, (_, i) => ({ system: OMOP, code: String(900000 + i) }));
    const ok = await closure('r4', [...fifty.slice(0, 48), snomed(C.diabetes), snomed(C.type2)]);
    expect(ok.status).toBe(200);
    expect(pairsOf(ok.body.group)).toHaveLength(1);
    expectInvalid(await closure('r4', [...fifty, snomed(C.diabetes)]), /1 to 50 'concept'.*51 were given/);
  });

  it.each([
    ['system', { code: '73211009' }],
    ['code', { system: SNOMED }],
    ['code', { system: SNOMED, code: '  ' }],
  ])('E11: a concept without %s is a 400 invalid naming it', async (missing, coding) => {
    const r = await closure('r4', [snomed(C.diabetes), coding as Coding]);
    expectInvalid(r, new RegExp(`'concept' 2 of 2 has no ${missing}`));
  });

  it('a concept that is not a valueCoding is a 400 invalid', async () => {
    const r = await t.request('/fhir/r4/ConceptMap/$closure', {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json' },
      body: { resourceType: 'Parameters', parameter: [{ name: 'concept', valueString: '73211009' }] },
    });
    expectInvalid(r, /valueCoding/);
  });

  it('an unknown system is a 400 invalid naming it, with the nearest known URI', async () => {
    const r = await closure('r4', [{ system: 'http://snomed.info/sctt', code: '73211009' }]);
    expectInvalid(r, /'http:\/\/snomed\.info\/sctt'.*Did you mean 'http:\/\/snomed\.info\/sct'/);
  });

  it('E11: the body must be a Parameters resource', async () => {
    const r = await t.request('/fhir/r4/ConceptMap/$closure', {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json' },
      body: { resourceType: 'Bundle' },
    });
    expectInvalid(r, /Parameters/);
  });
});

describe('method, authentication and licences', () => {
  it.each(['GET', 'DELETE'])('E11 POST only: %s is a 405 not-supported OperationOutcome with Allow: POST', async (method) => {
    const r = await t.request('/fhir/r4/ConceptMap/$closure', { method });
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('POST');
    expect(r.body.resourceType).toBe('OperationOutcome');
    expect(r.body.issue[0].code).toBe('not-supported');
    expect(r.body.issue[0].details.text).toMatch(/POST only/);
  });

  it('Authentication 3: without a key it is a 401 login OperationOutcome', async () => {
    const r = await t.request('/fhir/r4/ConceptMap/$closure', { method: 'POST', anonymous: true, body: closureBody([snomed(C.diabetes)]) });
    expect(r.status).toBe(401);
    expect(r.body.issue[0].code).toBe('login');
  });

  it('Authentication 5: a CPT4 code needs a validated key (403 forbidden), whether sent by code or by concept id', async () => {
    const byCode = await closure('r4', [snomed(C.diabetes), { system: CPT, code: C.officeVisit.concept_code }]);
    expect(byCode.status).toBe(403);
    expect(byCode.body.issue[0].code).toBe('forbidden');
    const byId = await closure('r4', [omop(C.officeVisit)]);
    expect(byId.status).toBe(403);
    const validated = await t.createKey({ cpt4_validated_until: '2999-12-31' });
    const allowed = await closure('r4', [{ system: CPT, code: C.evaluation.concept_code }, { system: CPT, code: C.officeVisit.concept_code }], { key: validated });
    expect(allowed.status).toBe(200);
    expect(pairsOf(allowed.body.group)).toEqual([`${CPT}|${C.evaluation.concept_code} > ${CPT}|${C.officeVisit.concept_code}`]);
  });
});
