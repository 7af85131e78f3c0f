/**
 * CodeSystem/$diff over HTTPS (OMOPHub extension, issue #14): what changed for one code between two
 * loaded releases. Two small releases, 2024.2 (20240716) and 2025.2 (20250827, the default), with one
 * concept of each change type: renamed, re-domained, deprecated, reinstated, remapped (a source whose
 * `Maps to` target changes), added, and one unchanged concept. Unknown release → 404 not-found
 * (Errors rule 2: an OperationOutcome on /fhir); CPT4 only for a validated key (Authentication 5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAthenaFixture, type FixtureConcept } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { CLASSES, CPT, DOMAINS, ICD10CM, OMOP, SNOMED, VOCABULARIES } from './codesystem-fixture.js';

const base = (id: number, name: string, code: string, extra: Partial<FixtureConcept> = {}): FixtureConcept => ({
  concept_id: id,
  concept_name: name,
  domain_id: 'Condition',
  vocabulary_id: 'SNOMED',
  concept_class_id: 'Clinical Finding',
  standard_concept: 'S',
  concept_code: code,
  ...extra,
});
const icdSource = base(1005, 'Source code', 'E1', { vocabulary_id: 'ICD10CM', concept_class_id: '5-char billing code', standard_concept: null });
const cpt = base(1008, 'A procedure', '99213', { vocabulary_id: 'CPT4', concept_class_id: 'CPT4', domain_id: 'Procedure' });

/** `mapsTo`: 1005's standard target; `alsoMapsTo`: a second one (a CPT4 procedure in the later release). */
function release(releaseVersion: string, concepts: FixtureConcept[], mapsTo: number, alsoMapsTo?: number): string {
  return writeAthenaFixture({
    releaseVersion,
    vocabularies: VOCABULARIES.map(([id, name]) => [id, name, `${id} test`] as [string, string, string]),
    domains: DOMAINS,
    conceptClasses: CLASSES,
    concepts,
    relationships: [
      { concept_id_1: 1005, concept_id_2: mapsTo, relationship_id: 'Maps to' },
      { concept_id_1: mapsTo, concept_id_2: 1005, relationship_id: 'Mapped from' },
      ...(alsoMapsTo ? [{ concept_id_1: 1005, concept_id_2: alsoMapsTo, relationship_id: 'Maps to' }] : []),
    ],
  });
}

let t: TestServer;
let validatedKey: string;
beforeAll(async () => {
  t = await startTestServer({
    releases: [
      {
        dir: release(
          'v5.0 16-JUL-24',
          [
            base(1001, 'Name before', 'R1'),
            base(1002, 'Moves domain', 'D1'),
            base(1003, 'Goes away', 'X1'),
            base(1004, 'Comes back', 'I1', { invalid_reason: 'D', standard_concept: null }),
            icdSource,
            base(1006, 'Unchanged', 'U1'),
            cpt,
          ],
          1001,
        ),
        label: '2024.2',
      },
      {
        dir: release(
          'v5.0 27-AUG-25',
          [
            base(1001, 'Name after', 'R1'),
            base(1002, 'Moves domain', 'D1', { domain_id: 'Observation' }),
            base(1003, 'Goes away', 'X1', { invalid_reason: 'D', standard_concept: null }),
            base(1004, 'Comes back', 'I1'),
            icdSource,
            base(1006, 'Unchanged', 'U1'),
            base(1007, 'New concept', 'A1'),
            cpt,
          ],
          1002,
          cpt.concept_id,
        ),
        label: '2025.2',
        makeDefault: true,
      },
    ],
  });
  validatedKey = await t.createKey({ cpt4_validated_until: '2999-12-31' });
});
afterAll(async () => {
  await t?.close();
});

const diff = (query: string, options: { version?: string; key?: string } = {}) =>
  t.request(`/fhir/${options.version ?? 'r4'}/CodeSystem/$diff?${query}`, { key: options.key });

interface Parameter {
  name: string;
  valueString?: string;
  valueCode?: string;
  valueInteger?: number;
  part?: Parameter[];
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const changes = (body: any) =>
  (body.parameter as Parameter[])
    .filter((p) => p.name === 'change')
    .map((p) => Object.fromEntries(p.part!.map((q) => [q.name, q.valueCode ?? q.valueString])));
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const countOf = (body: any, type: string) =>
  (body.parameter as Parameter[]).find((p) => p.name === 'count' && p.part!.some((q) => q.valueCode === type))!.part!.find((q) => q.name === 'value')!.valueInteger;

describe('CodeSystem/$diff for one code (default: the release before the selected one → the selected one)', () => {
  it('names the compared releases and reports each change type with its old and new value', async () => {
    const cases: Array<[string, Record<string, string>]> = [
      ['1001', { code: '1001', display: 'Name after', type: 'renamed', from: 'Name before', to: 'Name after' }],
      ['1002', { code: '1002', display: 'Moves domain', type: 're-domained', from: 'Condition', to: 'Observation' }],
      ['1003', { code: '1003', display: 'Goes away', type: 'deprecated', from: 'valid', to: 'D' }],
      ['1004', { code: '1004', display: 'Comes back', type: 'reinstated', from: 'D', to: 'valid' }],
      ['1005', { code: '1005', display: 'Source code', type: 'remapped', from: '1001', to: '1002' }],
      ['1007', { code: '1007', display: 'New concept', type: 'added', from: '', to: 'New concept' }],
    ];
    for (const [code, expected] of cases) {
      const r = await diff(`system=${encodeURIComponent(OMOP)}&code=${code}`);
      expect(r.status, code).toBe(200);
      const body = r.body;
      expect(body.resourceType).toBe('Parameters');
      expect(body.parameter.find((p: Parameter) => p.name === 'fromVersion').valueString).toBe('2024.2');
      expect(body.parameter.find((p: Parameter) => p.name === 'toVersion').valueString).toBe('2025.2');
      expect(changes(body), code).toEqual([expected]);
      expect(countOf(body, expected.type!)).toBe(1);
    }
  });

  it('an unchanged concept has no change and every count is 0', async () => {
    const body = (await diff(`system=${encodeURIComponent(OMOP)}&code=1006`)).body;
    expect(changes(body)).toEqual([]);
    for (const type of ['added', 'deprecated', 'reinstated', 'renamed', 're-domained', 'remapped']) expect(countOf(body, type)).toBe(0);
  });

  it('a vocabulary URI takes the concept_code; fromVersion/toVersion accept labels, omop-v ids and YYYYMMDD dates (reversed order too)', async () => {
    const bySnomed = (await diff(`system=${encodeURIComponent(SNOMED)}&code=R1&fromVersion=omop-v20240716&toVersion=20250827`)).body;
    expect(changes(bySnomed)).toEqual([{ code: 'R1', display: 'Name after', type: 'renamed', from: 'Name before', to: 'Name after' }]);
    const reversed = (await diff(`system=${encodeURIComponent(OMOP)}&code=1007&fromVersion=2025.2&toVersion=2024.2`)).body;
    expect(changes(reversed)).toEqual([{ code: '1007', display: 'New concept', type: 'deprecated', from: 'valid', to: '' }]);
    const bySource = (await diff(`system=${encodeURIComponent(ICD10CM)}&code=E1`)).body;
    expect(changes(bySource)[0]).toMatchObject({ type: 'remapped', from: '1001', to: '1002' });
  });

  it('POST with a Parameters body, on r5, gives the same answer', async () => {
    const r = await t.request('/fhir/r5/CodeSystem/$diff', {
      method: 'POST',
      body: {
        resourceType: 'Parameters',
        parameter: [
          { name: 'system', valueUri: OMOP },
          { name: 'code', valueCode: '1002' },
          { name: 'fromVersion', valueString: '2024.2' },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(changes(r.body)).toEqual([{ code: '1002', display: 'Moves domain', type: 're-domained', from: 'Condition', to: 'Observation' }]);
  });
});

describe('CodeSystem/$diff errors', () => {
  it('an unknown release is 404 not-found naming the parameter (Errors rule 2), on r4 and r5', async () => {
    for (const version of ['r4', 'r5']) {
      const r = await diff(`system=${encodeURIComponent(OMOP)}&code=1001&fromVersion=1999.1`, { version });
      expect(r.status).toBe(404);
      const body = r.body;
      expect(body.resourceType).toBe('OperationOutcome');
      expect(body.issue[0].code).toBe('not-found');
      expect(body.issue[0].details.text).toContain('fromVersion');
    }
  });

  it('a code in neither release is 404; a missing system or code is 400 naming it', async () => {
    expect((await diff(`system=${encodeURIComponent(OMOP)}&code=424242`)).status).toBe(404);
    const noCode = await diff(`system=${encodeURIComponent(OMOP)}`);
    expect(noCode.status).toBe(400);
    expect(noCode.body.issue[0].details.text).toContain("'code'");
    const noSystem = await diff('code=1001');
    expect(noSystem.status).toBe(400);
    expect(noSystem.body.issue[0].details.text).toContain("'system'");
  });

  it('CPT4 needs a validated key (Authentication 5)', async () => {
    expect((await diff(`system=${encodeURIComponent(CPT)}&code=99213`)).status).toBe(403);
    const validated = await diff(`system=${encodeURIComponent(CPT)}&code=99213`, { key: validatedKey });
    expect(validated.status).toBe(200);
    expect(changes(validated.body)).toEqual([]);
  });

  it('a remap to a CPT4 target lists that target only for a validated key (Authentication 5)', async () => {
    const query = `system=${encodeURIComponent(ICD10CM)}&code=E1`;
    expect(changes((await diff(query)).body)[0]).toMatchObject({ type: 'remapped', from: '1001', to: '1002' });
    expect(changes((await diff(query, { key: validatedKey })).body)[0]).toMatchObject({ type: 'remapped', from: '1001', to: `1002 ${cpt.concept_id}` });
  });
});
