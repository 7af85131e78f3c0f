/**
 * CodeSystem/$find-matches over HTTPS on r4 and r5: exact and inexact matching of column and
 * relationship properties (codes as $lookup names them), the R4-only `equivalence` part, vocabulary
 * systems (concept codes), invalid relationship rows, licences (Authentication 5) and parameter
 * errors (Errors rule 2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { MAX_PROPERTIES } from '../../src/services/terminology/find-matches.js';
import { CPT, HUB_SOURCE_COUNT, ICD10CM, OMOP, SNOMED, writeCodeSystemFixture } from './codesystem-fixture.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeCodeSystemFixture(), label: '2024.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
});

type Part = { name: string; valueCode?: string; valueCoding?: { system?: string; code?: string }; valueString?: string; part?: Part[] };

const property = (code: string, value: Record<string, unknown>) => ({ name: 'property', part: [{ name: 'code', valueCode: code }, { name: 'value', ...value }] });
const post = (parameter: object[], version = 'r4', key?: string) =>
  t.request(`/fhir/${version}/CodeSystem/$find-matches`, {
    method: 'POST',
    headers: { 'content-type': 'application/fhir+json' },
    body: { resourceType: 'Parameters', parameter },
    ...(key ? { key } : {}),
  });
const matchesOf = (body: { parameter?: Part[] }) => (body.parameter ?? []).filter((p) => p.name === 'match').map((m) => m.part!);
const codeOf = (match: Part[]) => match.find((p) => p.name === 'code')!.valueCoding!.code;

describe('exact matching', () => {
  it('OMOP system: the concepts that are "Is a" 201820, with equivalence on r4 only', async () => {
    for (const version of ['r4', 'r5']) {
      const r = await post([{ name: 'system', valueUri: OMOP }, { name: 'exact', valueBoolean: true }, property('Is a', { valueCode: '201820' })], version);
      expect(r.status, version).toBe(200);
      const matches = matchesOf(r.body);
      expect(matches.map(codeOf)).toEqual(['201826']);
      const equivalence = matches[0]!.find((p) => p.name === 'equivalence');
      if (version === 'r4') expect(equivalence?.valueCode).toBe('equivalent');
      else expect(equivalence).toBeUndefined();
    }
  });

  it('vocabulary system: codes are concept codes, and only that vocabulary is matched', async () => {
    const r = await post([
      { name: 'system', valueUri: ICD10CM },
      { name: 'exact', valueBoolean: true },
      property('Maps to', { valueCoding: { system: SNOMED, code: '44054006' } }),
      property('domain-id', { valueCode: 'Condition' }),
      property('standard-concept', { valueCode: 'NS' }),
    ]);
    const codes = matchesOf(r.body).map(codeOf);
    expect(codes).toHaveLength(HUB_SOURCE_COUNT + 1);
    expect(codes).toContain('E11.9');
    const bySnomed = await post([{ name: 'system', valueUri: SNOMED }, { name: 'exact', valueBoolean: true }, property('Maps to', { valueCode: '201826' })]);
    expect(matchesOf(bySnomed.body)).toEqual([]);
  });

  it('a column property that differs excludes the concept; an invalid relationship row is no match', async () => {
    const wrongVocabulary = await post([
      { name: 'system', valueUri: OMOP },
      { name: 'exact', valueBoolean: true },
      property('Maps to', { valueCode: '201826' }),
      property('vocabulary-id', { valueString: 'SNOMED' }),
    ]);
    expect(matchesOf(wrongVocabulary.body)).toEqual([]);
    // 45576876 'Maps to' 201820 has invalid_reason D.
    const invalid = await post([{ name: 'system', valueUri: OMOP }, { name: 'exact', valueBoolean: true }, property('Maps to', { valueCode: '201820' })]);
    expect(matchesOf(invalid.body)).toEqual([]);
  });
});

describe('inexact matching (exact false)', () => {
  it('ranks by the number of properties matched, lists the unmatched ones and counts them in comment', async () => {
    const r = await post(
      [
        { name: 'system', valueUri: OMOP },
        { name: 'exact', valueBoolean: false },
        property('Maps to', { valueCode: '201826' }),
        property('concept-class-id', { valueCode: '5-char billing code' }),
        property('Is a', { valueCode: '4042860' }),
      ],
      'r5',
    );
    const matches = matchesOf(r.body);
    expect(matches).toHaveLength(HUB_SOURCE_COUNT + 2);
    // 45772705 (Is a 4042860) has one property of three; every ICD10CM source has two.
    expect(codeOf(matches.at(-1)!)).toBe('45772705');
    expect(matches.at(-1)!.find((p) => p.name === 'comment')?.valueString).toBe('1 of 3 properties match');
    const unmatched = matches.at(-1)!.filter((p) => p.name === 'unmatched').map((u) => u.part![0]!.valueCode);
    expect(unmatched).toEqual(['Maps to', 'concept-class-id']);
    expect(matches[0]!.find((p) => p.name === 'comment')?.valueString).toBe('2 of 3 properties match');
    const firstIds = matches.slice(0, -1).map((m) => Number(codeOf(m)));
    expect(firstIds).toEqual([...firstIds].sort((a, b) => a - b));
  });

  it('r4 marks a partial match inexact', async () => {
    const r = await post([
      { name: 'system', valueUri: OMOP },
      { name: 'exact', valueBoolean: false },
      property('Is a', { valueCode: '201820' }),
      property('domain-id', { valueCode: 'Measurement' }),
    ]);
    const [match] = matchesOf(r.body);
    expect(codeOf(match!)).toBe('201826');
    expect(match!.find((p) => p.name === 'equivalence')?.valueCode).toBe('inexact');
  });
});

describe('licences and parameter errors', () => {
  it('a CPT4 property value is 403 forbidden unless the key is validated (Authentication 5)', async () => {
    const parameter = [{ name: 'system', valueUri: OMOP }, { name: 'exact', valueBoolean: true }, property('Is a', { valueCoding: { system: CPT, code: '99213' } })];
    const refused = await post(parameter);
    expect(refused.status).toBe(403);
    expect(refused.body.issue[0].code).toBe('forbidden');
    const validated = await t.createKey({ cpt4_validated_until: '2999-12-31' });
    const allowed = await post(parameter, 'r4', validated);
    expect(matchesOf(allowed.body).map(codeOf)).toEqual(['201826']);
  });

  it('missing system or exact, no property, too many properties, subproperty: 400 invalid naming the parameter (Errors rule 2)', async () => {
    const isA = property('Is a', { valueCode: '201820' });
    for (const [parameter, named] of [
      [[{ name: 'exact', valueBoolean: true }, isA], 'system'],
      [[{ name: 'system', valueUri: OMOP }, isA], 'exact'],
      [[{ name: 'system', valueUri: OMOP }, { name: 'exact', valueString: 'maybe' }, isA], 'exact'],
      [[{ name: 'system', valueUri: OMOP }, { name: 'exact', valueBoolean: true }], 'property'],
      [[{ name: 'system', valueUri: OMOP }, { name: 'exact', valueBoolean: true }, property('Is a', { valueCode: '999999999' })], 'property'],
      [[{ name: 'system', valueUri: OMOP }, { name: 'exact', valueBoolean: true }, ...Array.from({ length: MAX_PROPERTIES + 1 }, () => isA)], 'property'],
      [
        [
          { name: 'system', valueUri: OMOP },
          { name: 'exact', valueBoolean: true },
          { name: 'property', part: [{ name: 'code', valueCode: 'Is a' }, { name: 'value', valueCode: '201820' }, { name: 'subproperty', part: [] }] },
        ],
        'property',
      ],
    ] as const) {
      const r = await post(parameter as unknown as object[]);
      expect(r.status, named).toBe(400);
      expect(r.body.resourceType).toBe('OperationOutcome');
      expect(r.body.issue[0].code).toBe('invalid');
      expect(r.body.issue[0].details.text).toContain(`'${named}'`);
    }
  });

  it('an unknown system is 404 not-found', async () => {
    const r = await post([{ name: 'system', valueUri: 'http://example.org/unknown' }, { name: 'exact', valueBoolean: true }, property('Is a', { valueCode: '201820' })]);
    expect(r.status).toBe(404);
    expect(r.body.issue[0].code).toBe('not-found');
  });
});
