/**
 * Structured resolution agrees with the vocabulary (issue #13 acceptance; E7 rules 2 and 4): every
 * non-standard concept of eunomia-synthea27nj (the shared dataset with the largest
 * CONCEPT_RELATIONSHIP) and of the demo vocabulary is resolved by {vocabulary_id, code} through
 * POST /v1/fhir/resolve/batch (chunks of 100) and compared with the files' own rows: the standard
 * concept plus alternative_standard_concepts are exactly the valid `Maps to` targets that are valid
 * standard concepts present in CONCEPT; none → concept 0 (mapping_type unmapped); `Maps to value`
 * likewise → value_as_concept. Zero mismatches; the mismatches are printed on failure.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { DEMO_VOCABULARY_DIR } from '../metadata/concept-file.js';
import { readAthenaFiles, SHARED_VOCAB, type AthenaFiles, type FileConcept } from '../navigation/mapping-athena-files.js';
import { sharedVocabMissing } from '../helpers/shared-vocab.js';

const MISSING_SHARED_VOCAB = sharedVocabMissing('eunomia-synthea27nj');

const SYNTHEA = join(SHARED_VOCAB, 'eunomia-synthea27nj');
const NEVER_SERVED = ['GPI', 'MedDRA'];

let t: TestServer;
let cpt4Key: string;
beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: SYNTHEA, label: '2022.2', makeDefault: true }, { dir: DEMO_VOCABULARY_DIR, label: '2025.2' }] });
  cpt4Key = await t.createKey({ cpt4_validated_until: '2999-12-31' });
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const chunks = <T>(items: readonly T[], size: number) => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size));

/** Targets of the concept's valid `relationshipId` rows that are valid standard concepts of the file. */
function validStandardTargets(files: AthenaFiles, sourceId: number, relationshipId: string): number[] {
  const targets = (files.outbound.get(sourceId) ?? [])
    .filter((r) => r.relationship_id === relationshipId && r.invalid_reason === null)
    .map((r) => files.concepts.get(r.concept_id_2))
    .filter((c): c is FileConcept => !!c && c.standard_concept === 'S' && c.invalid_reason === null)
    .map((c) => c.concept_id);
  return [...new Set(targets)].sort((a, b) => a - b);
}

/** The non-standard concepts whose (vocabulary_id, concept_code) names one concept (a repeated code is ambiguous). */
function nonStandardConcepts(files: AthenaFiles): FileConcept[] {
  const perCode = new Map<string, number>();
  for (const c of files.concepts.values()) perCode.set(`${c.vocabulary_id}|${c.concept_code}`, (perCode.get(`${c.vocabulary_id}|${c.concept_code}`) ?? 0) + 1);
  return [...files.concepts.values()].filter(
    (c) => c.standard_concept !== 'S' && !NEVER_SERVED.includes(c.vocabulary_id) && perCode.get(`${c.vocabulary_id}|${c.concept_code}`) === 1,
  );
}

/** The THO URI of the vocabularies these datasets hold (fhir-and-omop-notes.md §4). */
const SYSTEM_OF_VOCABULARY: Record<string, string> = {
  SNOMED: 'http://snomed.info/sct',
  LOINC: 'http://loinc.org',
  RxNorm: 'http://www.nlm.nih.gov/research/umls/rxnorm',
  ICD10CM: 'http://hl7.org/fhir/sid/icd-10-cm',
  ICD10: 'http://hl7.org/fhir/sid/icd-10',
  CPT4: 'http://www.ama-assn.org/go/cpt',
  ATC: 'http://www.whocc.no/atc',
  UCUM: 'http://unitsofmeasure.org',
};

interface BatchItem {
  input: unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  resolution?: any;
  error?: { code: string; message: string };
}

/** Resolves codings through the batch endpoint, 100 at a time; checks each answer's shape and summary. */
async function resolveAll(codings: ReadonlyArray<Record<string, string>>, release: string): Promise<BatchItem[]> {
  const items: BatchItem[] = [];
  for (const batch of chunks(codings, 100)) {
    const r = await t.request(`/v1/fhir/resolve/batch?vocab_release=${release}`, { method: 'POST', key: cpt4Key, body: { codings: batch } });
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect(r.body.data.results).toHaveLength(batch.length);
    const failed = r.body.data.results.filter((x: BatchItem) => x.error).length;
    expect(r.body.data.summary).toEqual({ total: batch.length, resolved: batch.length - failed, failed });
    items.push(...r.body.data.results);
  }
  return items;
}

/** Resolves every concept by {vocabulary_id, code} and lists each disagreement with the files. */
async function mismatches(files: AthenaFiles, release: string): Promise<{ checked: number; mapped: number; withValue: number; problems: string[] }> {
  const concepts = nonStandardConcepts(files);
  const problems: string[] = [];
  let mapped = 0;
  let withValue = 0;
  const items = await resolveAll(
    concepts.map((c) => ({ vocabulary_id: c.vocabulary_id, code: c.concept_code })),
    release,
  );
  concepts.forEach((concept, i) => {
      const label = `${concept.concept_id} ${concept.vocabulary_id}|${concept.concept_code}`;
      const item = items[i]!;
      if (!item.resolution) {
        problems.push(`${label}: error ${JSON.stringify(item.error)}`);
        return;
      }
      const res = item.resolution;
      const expectedTargets = validStandardTargets(files, concept.concept_id, 'Maps to');
      const expectedValues = validStandardTargets(files, concept.concept_id, 'Maps to value');
      if (expectedTargets.length > 0) mapped++;
      if (expectedValues.length > 0) withValue++;
      const gotTargets =
        res.standard_concept.concept_id === 0
          ? []
          : [res.standard_concept, ...(res.alternative_standard_concepts ?? [])].map((c: { concept_id: number }) => c.concept_id).sort((a: number, b: number) => a - b);
      const gotValue: number | undefined = res.value_as_concept?.concept_id;
      if (res.source_concept.concept_id !== concept.concept_id) problems.push(`${label}: source_concept ${res.source_concept.concept_id}`);
      if (JSON.stringify(gotTargets) !== JSON.stringify(expectedTargets)) problems.push(`${label}: targets ${JSON.stringify(gotTargets)}, file ${JSON.stringify(expectedTargets)}`);
      const expectedType = expectedTargets.length > 0 ? 'mapped' : 'unmapped';
      if (res.mapping_type !== expectedType) problems.push(`${label}: mapping_type ${res.mapping_type}, expected ${expectedType}`);
      if (expectedValues.length === 0 ? gotValue !== undefined : gotValue === undefined || !expectedValues.includes(gotValue)) {
        problems.push(`${label}: value_as_concept ${gotValue}, file ${JSON.stringify(expectedValues)}`);
      }
      if (gotValue !== undefined && res.value_target_field !== 'value_as_concept_id') problems.push(`${label}: value_target_field ${res.value_target_field}`);
    });
  return { checked: concepts.length, mapped, withValue, problems };
}

/** The same concepts by their FHIR system URI resolve exactly as by vocabulary_id. */
async function systemMismatches(files: AthenaFiles, release: string): Promise<{ checked: number; problems: string[] }> {
  const concepts = nonStandardConcepts(files).filter((c) => SYSTEM_OF_VOCABULARY[c.vocabulary_id]);
  const byVocabulary = await resolveAll(
    concepts.map((c) => ({ vocabulary_id: c.vocabulary_id, code: c.concept_code })),
    release,
  );
  const bySystem = await resolveAll(
    concepts.map((c) => ({ system: SYSTEM_OF_VOCABULARY[c.vocabulary_id]!, code: c.concept_code })),
    release,
  );
  const problems = concepts.flatMap((c, i) =>
    JSON.stringify(bySystem[i]!.resolution ?? bySystem[i]!.error) === JSON.stringify(byVocabulary[i]!.resolution ?? byVocabulary[i]!.error)
      ? []
      : [`${c.concept_id} ${c.vocabulary_id}|${c.concept_code}: by system ${JSON.stringify(bySystem[i]!.resolution?.standard_concept ?? bySystem[i]!.error)}`],
  );
  return { checked: concepts.length, problems };
}

describe.skipIf(MISSING_SHARED_VOCAB)('structured resolution agrees with CONCEPT_RELATIONSHIP (E7 rules 2 and 4)', () => {
  it('eunomia-synthea27nj: every non-standard concept, zero mismatches', async () => {
    const files = readAthenaFiles(SYNTHEA);
    const outcome = await mismatches(files, '2022.2');
    expect(outcome.checked).toBe(116);
    expect(outcome.mapped).toBeGreaterThan(20);
    expect(outcome.problems).toEqual([]);
  });

  it('demo vocabulary: every non-standard concept, Maps to value included, zero mismatches', async () => {
    const files = readAthenaFiles(DEMO_VOCABULARY_DIR);
    const outcome = await mismatches(files, '2025.2');
    expect(outcome.checked).toBeGreaterThan(50);
    expect(outcome.mapped).toBeGreaterThan(10);
    expect(outcome.withValue).toBeGreaterThanOrEqual(1);
    expect(outcome.problems).toEqual([]);
  });

  it('both datasets: by the THO system URI, every such concept resolves exactly as by vocabulary_id', async () => {
    for (const [dir, release] of [[SYNTHEA, '2022.2'], [DEMO_VOCABULARY_DIR, '2025.2']] as const) {
      const outcome = await systemMismatches(readAthenaFiles(dir), release);
      expect(outcome.checked, release).toBeGreaterThan(20);
      expect(outcome.problems, release).toEqual([]);
    }
  });
});
