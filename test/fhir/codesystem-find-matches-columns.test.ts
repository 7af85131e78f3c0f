/**
 * CodeSystem/$find-matches with CONCEPT column properties alone (issue #14: `$find-matches` by
 * concept fields): concept-class-id, domain-id, vocabulary-id and standard-concept, read from the
 * search index's filter tags. The fixture has more Condition concepts than one answer lists
 * (MATCH_LIMIT), mixed standard flags and validity, a second vocabulary and a licensed one (CPT4);
 * every expectation is computed from the fixture rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAthenaFixture, type FixtureConcept } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { MATCH_LIMIT } from '../../src/services/terminology/find-matches.js';
import { CPT, ICD10CM, OMOP, SNOMED } from './codesystem-fixture.js';

const concept = (concept_id: number, fields: Partial<FixtureConcept> = {}): FixtureConcept => ({
  concept_id,
  concept_name: `Concept ${concept_id}`,
  domain_id: 'Condition',
  vocabulary_id: 'SNOMED',
  concept_class_id: 'Clinical Finding',
  standard_concept: 'S',
  concept_code: `C${concept_id}`,
  ...fields,
});

const CONCEPTS: FixtureConcept[] = [
  ...Array.from({ length: 90 }, (_, i) => concept(1000 + i)),
  ...Array.from({ length: 5 }, (_, i) => concept(2000 + i, { concept_class_id: 'Disorder' })),
  ...Array.from({ length: 4 }, (_, i) => concept(3000 + i, { domain_id: 'Observation', standard_concept: null })),
  ...Array.from({ length: 3 }, (_, i) => concept(4000 + i, { vocabulary_id: 'ICD10CM', concept_class_id: '5-char billing code', standard_concept: null, concept_code: `E1${i}.9` })),
  ...Array.from({ length: 2 }, (_, i) => concept(5000 + i, { standard_concept: null, invalid_reason: 'D' })),
  ...Array.from({ length: 2 }, (_, i) => concept(6000 + i, { vocabulary_id: 'CPT4', domain_id: 'Procedure', concept_class_id: 'CPT4', concept_code: `9921${i}` })),
  concept(7000, { standard_concept: 'C' }),
];

const fields = (c: FixtureConcept) => ({
  'concept-class-id': c.concept_class_id!,
  'domain-id': c.domain_id!,
  'vocabulary-id': c.vocabulary_id!,
  'standard-concept': c.standard_concept ?? 'NS',
});
type Field = keyof ReturnType<typeof fields>;
const byId = new Map(CONCEPTS.map((c) => [c.concept_id, c]));
/** The fixture concepts (outside CPT4 unless `licensed`) with every one of `wanted`. */
const expectedIds = (wanted: Array<[Field, string]>, licensed = false) =>
  CONCEPTS.filter((c) => (licensed || c.vocabulary_id !== 'CPT4') && wanted.every(([f, v]) => fields(c)[f] === v))
    .map((c) => c.concept_id)
    .sort((a, b) => a - b);

let t: TestServer;
let validatedKey: string;
beforeAll(async () => {
  const dir = writeAthenaFixture({
    releaseVersion: 'v5.0 16-JUL-24',
    vocabularies: [
      ['SNOMED', 'SNOMED', 'SNOMED test'],
      ['ICD10CM', 'ICD10CM', 'ICD10CM test'],
      ['CPT4', 'CPT4', 'CPT4 test'],
    ],
    domains: ['Condition', 'Observation', 'Procedure'],
    conceptClasses: ['Clinical Finding', 'Disorder', '5-char billing code', 'CPT4'],
    concepts: CONCEPTS,
    relationships: [],
  });
  t = await startTestServer({ releases: [{ dir, label: '2024.2', makeDefault: true }] });
  validatedKey = await t.createKey({ cpt4_validated_until: '2999-12-31' });
});
afterAll(async () => {
  await t?.close();
});

type Part = { name: string; valueCode?: string; valueCoding?: { system?: string; code?: string }; valueString?: string; part?: Part[] };
const property = (code: string, value: string) => ({ name: 'property', part: [{ name: 'code', valueCode: code }, { name: 'value', valueCode: value }] });
async function findMatches(system: string, exact: boolean, properties: Array<[string, string]>, options: { version?: string; key?: string } = {}) {
  const r = await t.request(`/fhir/${options.version ?? 'r4'}/CodeSystem/$find-matches`, {
    method: 'POST',
    headers: { 'content-type': 'application/fhir+json' },
    body: { resourceType: 'Parameters', parameter: [{ name: 'system', valueUri: system }, { name: 'exact', valueBoolean: exact }, ...properties.map(([c, v]) => property(c, v))] },
    ...(options.key ? { key: options.key } : {}),
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return ((r.body as { parameter?: Part[] }).parameter ?? []).map((m) => ({
    code: m.part!.find((p) => p.name === 'code')!.valueCoding!.code!,
    comment: m.part!.find((p) => p.name === 'comment')?.valueString,
    equivalence: m.part!.find((p) => p.name === 'equivalence')?.valueCode,
    unmatched: m.part!.filter((p) => p.name === 'unmatched').map((u) => u.part![0]!.valueCode),
  }));
}
const ids = (matches: Array<{ code: string }>) => matches.map((m) => Number(m.code)).sort((a, b) => a - b);
/** Position of a concept's evidence class in the search rank: standard, classification, non-standard, invalid. */
const evidence = (c: FixtureConcept) => (c.invalid_reason ? 3 : c.standard_concept === 'S' ? 0 : c.standard_concept === 'C' ? 1 : 2);

describe('exact matching by columns alone', () => {
  it('every concept with all the properties, on r4 (equivalent) and r5', async () => {
    const wanted: Array<[Field, string]> = [
      ['domain-id', 'Condition'],
      ['concept-class-id', 'Disorder'],
    ];
    for (const version of ['r4', 'r5']) {
      const matches = await findMatches(OMOP, true, wanted, { version });
      expect(ids(matches)).toEqual(expectedIds(wanted));
      expect(matches.every((m) => m.unmatched.length === 0 && m.comment === '2 of 2 properties match')).toBe(true);
      expect(matches[0]!.equivalence).toBe(version === 'r4' ? 'equivalent' : undefined);
    }
  });

  it('best known concepts first: standard, then classification, then non-standard, invalid last', async () => {
    const wanted: Array<[Field, string]> = [
      ['vocabulary-id', 'SNOMED'],
      ['concept-class-id', 'Clinical Finding'],
      ['domain-id', 'Condition'],
    ];
    const matches = await findMatches(OMOP, true, wanted);
    expect(ids(matches)).toEqual(expectedIds(wanted));
    const classes = matches.map((m) => evidence(byId.get(Number(m.code))!));
    expect(classes).toEqual([...classes].sort((a, b) => a - b));
    expect(new Set(classes)).toEqual(new Set([0, 1, 3]));
  });

  it('at most MATCH_LIMIT matches, no concept twice, each with the property', async () => {
    const wanted: Array<[Field, string]> = [['domain-id', 'Condition']];
    expect(expectedIds(wanted).length).toBeGreaterThan(MATCH_LIMIT);
    const matches = await findMatches(OMOP, true, wanted);
    expect(matches).toHaveLength(MATCH_LIMIT);
    expect(new Set(matches.map((m) => m.code)).size).toBe(MATCH_LIMIT);
    expect(matches.every((m) => byId.get(Number(m.code))!.domain_id === 'Condition')).toBe(true);
  });

  it("a vocabulary's system: its concept codes, only its vocabularies", async () => {
    const wanted: Array<[Field, string]> = [
      ['standard-concept', 'NS'],
      ['domain-id', 'Condition'],
    ];
    const matches = await findMatches(ICD10CM, true, wanted);
    const expected = expectedIds([...wanted, ['vocabulary-id', 'ICD10CM']]).map((id) => byId.get(id)!.concept_code);
    expect(matches.map((m) => m.code).sort()).toEqual(expected.sort());
    expect(await findMatches(SNOMED, true, [['vocabulary-id', 'ICD10CM']])).toEqual([]);
  });

  it('no match for a column asked with two values, or a standard flag other than S, C, NS', async () => {
    expect(
      await findMatches(OMOP, true, [
        ['domain-id', 'Condition'],
        ['domain-id', 'Observation'],
      ]),
    ).toEqual([]);
    expect(await findMatches(OMOP, true, [['standard-concept', 'X']])).toEqual([]);
    // Names of Object.prototype members are values like any other (never a 5xx).
    for (const value of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(await findMatches(OMOP, true, [['standard-concept', value]])).toEqual([]);
      expect(
        ids(
          await findMatches(OMOP, false, [
            ['standard-concept', value],
            ['domain-id', 'Observation'],
          ]),
        ),
      ).toEqual(expectedIds([['domain-id', 'Observation']]));
    }
    expect(await findMatches(OMOP, true, [['concept-class-id', 'No such class']])).toEqual([]);
  });

  it('CPT4 concepts only for a validated key (Authentication 5); naming CPT4 without one is 403 forbidden, as on REST', async () => {
    const wanted: Array<[Field, string]> = [['vocabulary-id', 'CPT4']];
    for (const exact of [true, false]) {
      const named = await t.request('/fhir/r4/CodeSystem/$find-matches', {
        method: 'POST',
        headers: { 'content-type': 'application/fhir+json' },
        body: { resourceType: 'Parameters', parameter: [{ name: 'system', valueUri: OMOP }, { name: 'exact', valueBoolean: exact }, property('vocabulary-id', 'CPT4'), property('domain-id', 'Procedure')] },
      });
      expect(named.status).toBe(403);
      expect(named.body.resourceType).toBe('OperationOutcome');
      expect(named.body.issue[0].code).toBe('forbidden');
      expect(named.body.issue[0].details.text).toContain('CPT4');
    }
    const rest = await t.request('/v1/search/concepts?query=procedure&vocabulary_ids=CPT4');
    expect(rest.status).toBe(403);
    expect(rest.body.error.code).toBe('vocabulary_restricted');
    // Without naming CPT4, its concepts are simply not among the matches.
    expect(expectedIds([['domain-id', 'Procedure']], true).length).toBeGreaterThan(expectedIds([['domain-id', 'Procedure']]).length);
    expect(ids(await findMatches(OMOP, true, [['domain-id', 'Procedure']]))).toEqual(expectedIds([['domain-id', 'Procedure']]));
    expect(ids(await findMatches(OMOP, true, wanted, { key: validatedKey }))).toEqual(expectedIds(wanted, true));
    const refused = await t.request('/fhir/r4/CodeSystem/$find-matches', {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json' },
      body: { resourceType: 'Parameters', parameter: [{ name: 'system', valueUri: CPT }, { name: 'exact', valueBoolean: true }, property('domain-id', 'Procedure')] },
    });
    expect(refused.status).toBe(403);
  });
});

describe('inexact matching by columns alone (exact false)', () => {
  it('the concepts with most properties first, then those with fewer, each listing what it lacks', async () => {
    const matches = await findMatches(OMOP, false, [
      ['domain-id', 'Condition'],
      ['concept-class-id', 'Disorder'],
    ]);
    expect(matches).toHaveLength(MATCH_LIMIT);
    const both = expectedIds([
      ['domain-id', 'Condition'],
      ['concept-class-id', 'Disorder'],
    ]);
    expect(ids(matches.slice(0, both.length))).toEqual(both);
    expect(matches.slice(0, both.length).every((m) => m.comment === '2 of 2 properties match' && m.equivalence === 'equivalent')).toBe(true);
    const rest = matches.slice(both.length);
    expect(rest.every((m) => m.comment === '1 of 2 properties match' && m.equivalence === 'inexact')).toBe(true);
    expect(rest.every((m) => byId.get(Number(m.code))!.domain_id === 'Condition' && m.unmatched.join() === 'concept-class-id')).toBe(true);
    expect(new Set(matches.map((m) => m.code)).size).toBe(MATCH_LIMIT);
  });

  it('properties no concept has together: every concept with either, licensed ones for a validated key only', async () => {
    const asked: Array<[Field, string]> = [
      ['concept-class-id', 'CPT4'],
      ['domain-id', 'Observation'],
    ];
    const either = (licensed: boolean) => [...new Set(asked.flatMap((p) => expectedIds([p], licensed)))].sort((a, b) => a - b);
    expect(ids(await findMatches(OMOP, false, asked))).toEqual(either(false));
    expect(ids(await findMatches(OMOP, false, asked, { key: validatedKey }))).toEqual(either(true));
  });
});
