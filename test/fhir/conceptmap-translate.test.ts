/**
 * ConceptMap/$translate over HTTPS (fhir-and-omop-notes.md §3.6 R4 vs R5 names, §3.8 equivalence ↔ relationship, §4
 * implicit maps to-{vocabulary_concept_id}), with the two translate tests of the HL7 OMOP conformance suite
 * (fhir-tx-ecosystem-omop-tests: translate-loinc-implicit, translate-loinc-implicit-bad) and the explicit-map
 * fixtures beside them, sent as they are written. The vocabulary is written here: its VOCABULARY rows carry the real
 * vocabulary_concept_ids (44819102 = LOINC, the id in the HL7 map URL) and its `Maps to` rows come with their
 * `Mapped from` reverses, as in an Athena download.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAthenaFixture, type FixtureRelationship } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const OMOP = 'https://fhir-terminology.ohdsi.org';
const LOINC = 'http://loinc.org';
const SNOMED = 'http://snomed.info/sct';
const ICD10CM = 'http://hl7.org/fhir/sid/icd-10-cm';
const CPT = 'http://www.ama-assn.org/go/cpt';
const GENDER = 'http://hl7.org/fhir/administrative-gender';
const ADMIT_SOURCE = 'http://terminology.hl7.org/CodeSystem/admit-source';
const VERSION = '20240716';
/** vocabulary_id, name, vocabulary_concept_id (the real OMOP ids). */
const VOCABULARIES: Array<[string, string, number]> = [
  ['SNOMED', 'SNOMED CT', 44819097],
  ['LOINC', 'LOINC', 44819102],
  ['ICD10CM', 'ICD-10-CM', 44819098],
  ['CPT4', 'CPT-4', 44819100],
  ['Gender', 'OMOP Gender', 44819108],
];
const vocabularyConceptId = (id: string) => VOCABULARIES.find(([v]) => v === id)![2];

const mapsTo = (source: number, target: number, relationship = 'Maps to'): FixtureRelationship[] => [
  { concept_id_1: source, concept_id_2: target, relationship_id: relationship },
  { concept_id_1: target, concept_id_2: source, relationship_id: relationship === 'Maps to' ? 'Mapped from' : 'Value mapped from' },
];

function writeTranslateFixture(): string {
  const dir = writeAthenaFixture({
    releaseVersion: 'v5.0 16-JUL-24',
    vocabularies: VOCABULARIES.map(([id, name]) => [id, name, `${id} test`]),
    relationshipTypes: [
      ['Maps to', 'Non-standard to Standard map (OMOP)', '0', '0', 'Mapped from'],
      ['Mapped from', 'Standard to Non-standard map (OMOP)', '0', '0', 'Maps to'],
      ['Maps to value', 'Maps to value', '0', '0', 'Value mapped from'],
      ['Value mapped from', 'Value mapped from', '0', '0', 'Maps to value'],
    ],
    concepts: [
      // The HL7 OMOP tests: a LOINC classification concept (its own code is its LOINC translation) and a SNOMED finding without LOINC.
      { concept_id: 37073203, concept_name: 'Chest | X-ray | Radiology', domain_id: 'Measurement', vocabulary_id: 'LOINC', concept_class_id: 'LOINC Hierarchy', standard_concept: 'C', concept_code: 'LP405117-5' },
      { concept_id: 4042860, concept_name: 'Finding relating to alcohol drinking behavior', domain_id: 'Observation', concept_code: '228273003' },
      { concept_id: 201826, concept_name: 'Type 2 diabetes mellitus', concept_code: '44054006' },
      { concept_id: 45576876, concept_name: 'Type 2 diabetes mellitus without complications', vocabulary_id: 'ICD10CM', concept_class_id: '5-char billing code', standard_concept: null, concept_code: 'E11.9' },
      { concept_id: 45561952, concept_name: 'Type 2 diabetes mellitus with unspecified complications', vocabulary_id: 'ICD10CM', concept_class_id: '5-char billing code', standard_concept: null, concept_code: 'E11.8' },
      // A deprecated ICD10CM code whose Maps to row is no longer valid: never an answer.
      { concept_id: 45561953, concept_name: 'Old diabetes code', vocabulary_id: 'ICD10CM', concept_class_id: '5-char billing code', standard_concept: null, concept_code: 'E11.X', invalid_reason: 'D' },
      // Maps to + Maps to value (fhir-and-omop-notes.md §5: family history).
      { concept_id: 45552255, concept_name: 'Family history of ischemic heart disease', vocabulary_id: 'ICD10CM', concept_class_id: '4-char billing code', standard_concept: null, concept_code: 'Z82.4' },
      { concept_id: 4167217, concept_name: 'Family history of clinical finding', domain_id: 'Observation', concept_code: '416471007' },
      { concept_id: 134057, concept_name: 'Disorder of cardiovascular system', concept_code: '49601007' },
      // A licensed source: CPT4 71045 maps to a SNOMED procedure.
      { concept_id: 4163872, concept_name: 'Plain chest X-ray', domain_id: 'Procedure', concept_class_id: 'Procedure', concept_code: '399208008' },
      { concept_id: 2211339, concept_name: 'Radiologic examination, chest; single view', domain_id: 'Procedure', vocabulary_id: 'CPT4', concept_class_id: 'CPT4', standard_concept: null, concept_code: '71045' },
      { concept_id: 8507, concept_name: 'MALE', domain_id: 'Gender', vocabulary_id: 'Gender', concept_class_id: 'Gender', concept_code: 'M' },
    ],
    relationships: [
      ...mapsTo(4042860, 4042860),
      ...mapsTo(201826, 201826),
      ...mapsTo(45576876, 201826),
      ...mapsTo(45561952, 201826),
      { concept_id_1: 45561953, concept_id_2: 201826, relationship_id: 'Maps to', invalid_reason: 'D' },
      { concept_id_1: 201826, concept_id_2: 45561953, relationship_id: 'Mapped from', invalid_reason: 'D' },
      ...mapsTo(45552255, 4167217),
      ...mapsTo(45552255, 134057, 'Maps to value'),
      ...mapsTo(4167217, 4167217),
      ...mapsTo(2211339, 4163872),
      ...mapsTo(4163872, 4163872),
    ],
  });
  // writeAthenaFixture numbers vocabulary concepts itself; the implicit map URLs need the real ids.
  const rows = VOCABULARIES.map(([id, name, conceptId]) => [id, name, 'test fixture', `${id} test`, conceptId].join('\t'));
  writeFileSync(
    join(dir, 'VOCABULARY.csv'),
    ['vocabulary_id\tvocabulary_name\tvocabulary_reference\tvocabulary_version\tvocabulary_concept_id', 'None\tOMOP Standardized Vocabularies\tOMOP generated\tv5.0 16-JUL-24\t44819096', ...rows].join('\n') + '\n',
  );
  return dir;
}

let t: TestServer;
let cpt4Key: string;
beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeTranslateFixture(), label: '2024.2', makeDefault: true }] });
  cpt4Key = await t.createKey({ cpt4_validated_until: '2999-12-31' });
});
afterAll(async () => {
  await t?.close();
});

type Parameter = { name: string; part?: Parameter[]; [value: string]: unknown };
type Parameters = { resourceType: string; parameter: Parameter[] };

const translatePath = (version: string, query = '') => `/fhir/${version}/ConceptMap/$translate${query}`;
const post = (version: string, parameter: Parameter[], key?: string) =>
  t.request(translatePath(version), { method: 'POST', body: { resourceType: 'Parameters', parameter }, headers: { 'content-type': 'application/fhir+json' }, ...(key ? { key } : {}) });
const get = (version: string, query: Record<string, string>) => t.request(translatePath(version, `?${new URLSearchParams(query)}`));

const values = (body: Parameters, name: string) => body.parameter.filter((p) => p.name === name);
const single = (body: Parameters, name: string) => {
  const found = values(body, name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
};
const partOf = (match: Parameter, name: string) => match.part?.find((p) => p.name === name);
/** Each match as system|code of its concept. */
const matchCodes = (body: Parameters) => values(body, 'match').map((m) => `${(partOf(m, 'concept')?.valueCoding as { system: string; code: string }).system}|${(partOf(m, 'concept')?.valueCoding as { code: string }).code}`);

/** The request of the HL7 OMOP tests translate-loinc-implicit(-bad) and the explicit variants, as the fixtures write it. */
const hl7Request = (code: string, extra: Parameter[] = []): Parameter[] => [
  { name: 'sourceSystem', valueUri: OMOP },
  { name: 'sourceCode', valueCode: code },
  { name: 'targetSystem', valueUri: LOINC },
  ...extra,
];

describe('the HL7 OMOP conformance translate tests', () => {
  it.each(['r5', 'r4'])('translate-loinc-implicit on %s: 37073203 → LOINC LP405117-5, equivalent, with used-system, used-conceptmap and originMap', async (version) => {
    const r = await post(version, hl7Request('37073203'));
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/fhir\+json/);
    const body = r.body as Parameters;
    expect(single(body, 'result').valueBoolean).toBe(true);
    expect(single(body, 'used-system').valueUri).toBe(`${OMOP}|${VERSION}`);
    expect(single(body, 'used-conceptmap').valueUri).toBe(`${OMOP}/ConceptMap/to-44819102|${VERSION}`);
    const [match] = values(body, 'match');
    expect(match!.part).toHaveLength(3);
    expect(partOf(match!, 'concept')?.valueCoding).toEqual({ system: LOINC, code: 'LP405117-5', display: 'Chest | X-ray | Radiology' });
    expect(partOf(match!, 'originMap')?.valueCanonical).toBe(`${OMOP}/ConceptMap/44819102|`);
    // §3.8: R4 says equivalence, R5 relationship; the fixture makes each optional only in the other version.
    expect(partOf(match!, version === 'r5' ? 'relationship' : 'equivalence')?.valueCode).toBe('equivalent');
    expect(partOf(match!, version === 'r5' ? 'equivalence' : 'relationship')).toBeUndefined();
  });

  it('translate-loinc-implicit-bad: a SNOMED finding without a LOINC code → result false, "No translations found", used-system only', async () => {
    const r = await post('r5', hl7Request('4042860'));
    expect(r.status).toBe(200);
    const body = r.body as Parameters;
    expect(body.parameter.map((p) => p.name).sort()).toEqual(['message', 'result', 'used-system']);
    expect(single(body, 'result').valueBoolean).toBe(false);
    expect(single(body, 'message').valueString).toBe('No translations found');
    expect(single(body, 'used-system').valueUri).toBe(`${OMOP}|${VERSION}`);
  });

  it.each([
    ['explicit', VERSION],
    ['explicit-badver', '20250516'],
  ])('translate-loinc-%s: the map named by url (to-44819102) with conceptMapVersion %s answers from this release', async (_name, mapVersion) => {
    const r = await post('r4', hl7Request('37073203', [{ name: 'url', valueUri: `${OMOP}/ConceptMap/to-44819102` }, { name: 'conceptMapVersion', valueUri: mapVersion }]));
    expect(r.status).toBe(200);
    expect(single(r.body, 'result').valueBoolean).toBe(true);
    expect(single(r.body, 'used-conceptmap').valueUri).toBe(`${OMOP}/ConceptMap/to-44819102|${VERSION}`);
    expect(matchCodes(r.body)).toEqual([`${LOINC}|LP405117-5`]);
  });

  it('the originMap spelling (…/ConceptMap/44819102) is accepted back as url', async () => {
    const r = await post('r5', hl7Request('37073203', [{ name: 'url', valueUri: `${OMOP}/ConceptMap/44819102|` }]));
    expect(matchCodes(r.body)).toEqual([`${LOINC}|LP405117-5`]);
  });
});

describe('forward: Maps to into the OMOP concept system (the default target)', () => {
  it('R4 GET code+system: ICD10CM E11.9 → OMOP 201826 (its valid Maps to), from the from-{ICD10CM} map', async () => {
    const r = await get('r4', { system: ICD10CM, code: 'E11.9' });
    expect(r.status).toBe(200);
    expect(single(r.body, 'result').valueBoolean).toBe(true);
    expect(single(r.body, 'used-system').valueUri).toBe(`${ICD10CM}|${VERSION}`);
    const [match] = values(r.body, 'match');
    expect(partOf(match!, 'concept')?.valueCoding).toEqual({ system: OMOP, code: '201826', display: 'Type 2 diabetes mellitus' });
    expect(partOf(match!, 'equivalence')?.valueCode).toBe('equivalent');
    expect(partOf(match!, 'originMap')?.valueCanonical).toBe(`${OMOP}/ConceptMap/from-${vocabularyConceptId('ICD10CM')}|${VERSION}`);
  });

  it('R5 sourceCoding: a standard concept translates to itself (its own Maps to row)', async () => {
    const r = await post('r5', [{ name: 'sourceCoding', valueCoding: { system: SNOMED, code: '44054006' } }]);
    expect(matchCodes(r.body)).toEqual([`${OMOP}|201826`]);
    expect(partOf(values(r.body, 'match')[0]!, 'relationship')?.valueCode).toBe('equivalent');
  });

  it('GET coding as system|code (R4 coding)', async () => {
    const r = await get('r4', { coding: `${ICD10CM}|E11.8`, targetsystem: OMOP });
    expect(matchCodes(r.body)).toEqual([`${OMOP}|201826`]);
  });

  it('Maps to value is the product value_as_concept_id: R4 {element, concept}, R5 {attribute, value}', async () => {
    const r4 = await get('r4', { system: ICD10CM, code: 'Z82.4' });
    const [m4] = values(r4.body, 'match');
    expect(partOf(m4!, 'concept')?.valueCoding).toMatchObject({ code: '4167217' });
    expect(partOf(m4!, 'product')?.part).toEqual([
      { name: 'element', valueUri: 'value_as_concept_id' },
      { name: 'concept', valueCoding: { system: OMOP, code: '134057', display: 'Disorder of cardiovascular system' } },
    ]);
    const r5 = await post('r5', [{ name: 'sourceCode', valueCode: 'Z82.4' }, { name: 'system', valueUri: ICD10CM }]);
    expect(partOf(values(r5.body, 'match')[0]!, 'product')?.part).toEqual([
      { name: 'attribute', valueUri: 'value_as_concept_id' },
      { name: 'value', valueCoding: { system: OMOP, code: '134057', display: 'Disorder of cardiovascular system' } },
    ]);
  });

  it('a codeableConcept translates every coding', async () => {
    const r = await post('r4', [{ name: 'codeableConcept', valueCodeableConcept: { coding: [{ system: ICD10CM, code: 'Z82.4' }, { system: SNOMED, code: '44054006' }] } }]);
    expect(matchCodes(r.body).sort()).toEqual([`${OMOP}|201826`, `${OMOP}|4167217`]);
    expect(values(r.body, 'used-system').map((p) => p.valueUri)).toEqual([`${ICD10CM}|${VERSION}`, `${SNOMED}|${VERSION}`]);
  });

  it('an unknown code → result false with the code, system and version in the message', async () => {
    const r = await post('r5', [{ name: 'sourceCode', valueCode: '500000801' }, { name: 'sourceSystem', valueUri: OMOP }]);
    expect(r.status).toBe(200);
    expect(single(r.body, 'result').valueBoolean).toBe(false);
    expect(single(r.body, 'message').valueString).toBe(`Unable to find code '500000801' in ${OMOP} version ${VERSION}`);
    expect(values(r.body, 'match')).toHaveLength(0);
  });
});

describe('forward into a vocabulary (to-{vocabulary_concept_id})', () => {
  it('SNOMED 44054006 → ICD10CM: the codes linked by valid Maps to / Mapped from rows (not the deprecated one)', async () => {
    const r = await post('r5', [{ name: 'sourceCode', valueCode: '44054006' }, { name: 'system', valueUri: SNOMED }, { name: 'targetSystem', valueUri: ICD10CM }]);
    expect(matchCodes(r.body).sort()).toEqual([`${ICD10CM}|E11.8`, `${ICD10CM}|E11.9`]);
    expect(single(r.body, 'used-conceptmap').valueUri).toBe(`${OMOP}/ConceptMap/to-${vocabularyConceptId('ICD10CM')}|${VERSION}`);
  });

  it('the target as an implicit whole-code-system value set (R4 target, R5 targetScope) is that code system', async () => {
    const r4 = await get('r4', { system: ICD10CM, code: 'E11.9', target: `${SNOMED}?fhir_vs` });
    const r5 = await get('r5', { system: ICD10CM, sourceCode: 'E11.9', targetScope: `${SNOMED}?fhir_vs` });
    expect(matchCodes(r4.body)).toEqual([`${SNOMED}|44054006`]);
    expect(matchCodes(r5.body)).toEqual([`${SNOMED}|44054006`]);
  });

  it('ICD10CM E11.9 → SNOMED 44054006 (R4 targetsystem)', async () => {
    const r = await get('r4', { system: ICD10CM, code: 'E11.9', targetsystem: SNOMED });
    expect(values(r.body, 'match').map((m) => partOf(m, 'concept')?.valueCoding)).toEqual([{ system: SNOMED, code: '44054006', display: 'Type 2 diabetes mellitus' }]);
  });
});

describe('reverse: the codes whose Maps to reaches the concept (Mapped from)', () => {
  it.each([
    ['r4', [{ name: 'code', valueCode: '201826' }, { name: 'system', valueUri: OMOP }, { name: 'reverse', valueBoolean: true }, { name: 'targetsystem', valueUri: ICD10CM }]],
    ['r5', [{ name: 'targetCode', valueCode: '201826' }, { name: 'targetSystem', valueUri: OMOP }, { name: 'system', valueUri: ICD10CM }]],
  ] as Array<[string, Parameter[]]>)('%s: OMOP 201826 → its ICD10CM sources E11.8 and E11.9', async (version, parameter) => {
    const r = await post(version, parameter);
    expect(r.status).toBe(200);
    expect(single(r.body, 'result').valueBoolean).toBe(true);
    expect(matchCodes(r.body).sort()).toEqual([`${ICD10CM}|E11.8`, `${ICD10CM}|E11.9`]);
    expect(values(r.body, 'match').every((m) => partOf(m, 'originMap')?.valueCanonical === `${OMOP}/ConceptMap/from-${vocabularyConceptId('ICD10CM')}|${VERSION}`)).toBe(true);
  });

  it('without an answer system: every source, each in its own vocabulary, the standard concept itself included', async () => {
    const r = await post('r5', [{ name: 'targetCoding', valueCoding: { system: SNOMED, code: '44054006' } }]);
    expect(matchCodes(r.body).sort()).toEqual([`${ICD10CM}|E11.8`, `${ICD10CM}|E11.9`, `${SNOMED}|44054006`]);
  });

  it('with the OMOP concept system as answer system: the sources as concept ids', async () => {
    const r = await post('r5', [{ name: 'targetCode', valueCode: '201826' }, { name: 'targetSystem', valueUri: OMOP }, { name: 'system', valueUri: OMOP }]);
    expect(matchCodes(r.body).sort()).toEqual([`${OMOP}|201826`, `${OMOP}|45561952`, `${OMOP}|45576876`]);
  });

  it('the reverse parameter does not exist in R5: 400 invalid naming it', async () => {
    const r = await get('r5', { sourceCode: '201826', system: OMOP, reverse: 'true' });
    expect(r.status).toBe(400);
    expect(r.body.resourceType).toBe('OperationOutcome');
    expect(r.body.issue[0].code).toBe('invalid');
    expect(r.body.issue[0].details.text).toContain("'reverse'");
  });
});

describe('the FHIR-to-OMOP IG administrative maps', () => {
  it('administrative-gender male → OMOP 8507 through GenderClass (display from the release)', async () => {
    const r = await get('r5', { sourceCode: 'male', system: GENDER });
    const [match] = values(r.body, 'match');
    expect(partOf(match!, 'concept')?.valueCoding).toEqual({ system: OMOP, code: '8507', display: 'MALE' });
    expect(partOf(match!, 'relationship')?.valueCode).toBe('equivalent');
    expect(partOf(match!, 'originMap')?.valueCanonical).toBe('http://hl7.org/fhir/uv/omop/ConceptMap/GenderClass');
    expect(single(r.body, 'used-conceptmap').valueUri).toBe('http://hl7.org/fhir/uv/omop/ConceptMap/GenderClass');
  });

  it('a noMap row (admit-source other) is a match without a concept: R5 not-related-to, R4 unmatched, result false', async () => {
    for (const [version, name, code] of [
      ['r5', 'relationship', 'not-related-to'],
      ['r4', 'equivalence', 'unmatched'],
    ]) {
      const r = await get(version!, { code: 'other', system: ADMIT_SOURCE, url: 'http://hl7.org/fhir/uv/omop/ConceptMap/EncounterAdmitSource' });
      expect(single(r.body, 'result').valueBoolean).toBe(false);
      const [match] = values(r.body, 'match');
      expect(partOf(match!, name!)?.valueCode).toBe(code);
      expect(partOf(match!, 'concept')).toBeUndefined();
    }
  });

  it('reverse: OMOP 8507 → the administrative-gender code male', async () => {
    const r = await post('r5', [{ name: 'targetCode', valueCode: '8507' }, { name: 'targetSystem', valueUri: OMOP }, { name: 'system', valueUri: GENDER }]);
    expect(matchCodes(r.body)).toEqual([`${GENDER}|male`]);
  });
});

describe('licence rules (Authentication 5): CPT4 only for validated keys', () => {
  it('a CPT4 source code is 403 forbidden for a key without validation, translated for a validated key', async () => {
    const refused = await get('r4', { system: CPT, code: '71045' });
    expect(refused.status).toBe(403);
    expect(refused.body.issue[0].code).toBe('forbidden');
    const allowed = await t.request(translatePath('r4', `?${new URLSearchParams({ system: CPT, code: '71045' })}`), { key: cpt4Key });
    expect(matchCodes(allowed.body)).toEqual([`${OMOP}|4163872`]);
  });

  it('CPT4 sources are never listed in a reverse translation for a key without validation', async () => {
    const parameter = [{ name: 'targetCoding', valueCoding: { system: SNOMED, code: '399208008' } }];
    expect(matchCodes((await post('r5', parameter)).body)).toEqual([`${SNOMED}|399208008`]);
    expect(matchCodes((await post('r5', parameter, cpt4Key)).body).sort()).toEqual([`${CPT}|71045`, `${SNOMED}|399208008`].sort());
  });
});

describe('bad input is a 400 (or 404 for an unknown map) OperationOutcome naming the parameter (Errors rule 2)', () => {
  it.each([
    ['no concept', {}, 400, 'invalid', 'No concept to translate'],
    ['code without system', { code: 'E11.9' }, 400, 'invalid', "'system'"],
    ['unknown system, with the nearest known one', { code: 'E11.9', system: 'http://hl7.org/fhir/sid/icd-10-cmm' }, 400, 'invalid', ICD10CM],
    ['unknown target system', { code: 'E11.9', system: ICD10CM, targetsystem: 'urn:example:nothing' }, 400, 'invalid', "'targetsystem'"],
    ['a coding that is not system|code', { coding: 'E11.9' }, 400, 'invalid', "'coding'"],
    ['reverse that is not a boolean', { code: 'E11.9', system: ICD10CM, reverse: 'maybe' }, 400, 'invalid', "'reverse'"],
    ['a target value set that is not a whole code system', { code: 'E11.9', system: ICD10CM, target: `${SNOMED}?fhir_vs=isa/73211009` }, 400, 'not-supported', "'target'"],
    ['a source value set of another code system', { code: 'E11.9', system: ICD10CM, source: `${SNOMED}?fhir_vs` }, 400, 'invalid', "'source'"],
    ['reverse=true with a targetCode as well', { code: '201826', system: OMOP, reverse: 'true', targetCode: '201826' }, 400, 'invalid', "'reverse'"],
    ['a map url the server does not know', { code: 'E11.9', system: ICD10CM, url: `${OMOP}/ConceptMap/to-1` }, 404, 'not-found', 'ConceptMap not found'],
    ['a map whose answers are in another system than targetsystem', { code: 'E11.9', system: ICD10CM, url: `${OMOP}/ConceptMap/to-44819102`, targetsystem: SNOMED }, 400, 'invalid', 'http://loinc.org'],
  ])('%s', async (_name, query, status, issue, text) => {
    const r = await get('r4', query as Record<string, string>);
    expect(r.status).toBe(status);
    expect(r.body.resourceType).toBe('OperationOutcome');
    expect(r.body.issue[0].code).toBe(issue);
    expect(r.body.issue[0].details.text).toContain(text);
  });

  it('source and target concept together → 400', async () => {
    const r = await post('r5', [{ name: 'sourceCode', valueCode: '44054006' }, { name: 'system', valueUri: SNOMED }, { name: 'targetCode', valueCode: '201826' }, { name: 'targetSystem', valueUri: OMOP }]);
    expect(r.status).toBe(400);
    expect(r.body.issue[0].code).toBe('invalid');
  });
});
