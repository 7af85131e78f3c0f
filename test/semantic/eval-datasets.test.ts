/**
 * The evaluation's dataset builders (eval/semantic/): the synonym hold-out release lacks the held-out
 * synonym, the map-by-name candidate release holds no concept of the source side, and the written
 * Athena directory loads with the real loader.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAthenaTables, writeAthenaTables, type AthenaRow, type AthenaTables } from '../../eval/semantic/athena-tables.js';
import { loadEvalRelease } from '../../eval/semantic/eval-release.js';
import { buildMapByName, strengthlessKey } from '../../eval/semantic/map-by-name.js';
import type { SharedDatasets } from '../../eval/semantic/shared-datasets.js';
import { holdOutSynonyms } from '../../eval/semantic/synonym-holdout.js';

const workDir = mkdtempSync(join(tmpdir(), 'omopterm-eval-test-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function concept(id: number, name: string, fields: Partial<AthenaRow> = {}): AthenaRow {
  return {
    concept_id: String(id),
    concept_name: name,
    domain_id: 'Condition',
    vocabulary_id: 'SNOMED',
    concept_class_id: 'Clinical Finding',
    standard_concept: 'S',
    concept_code: `C${id}`,
    valid_start_date: '1970-01-01',
    valid_end_date: '2099-12-31',
    invalid_reason: '',
    ...fields,
  };
}
const synonym = (id: number, name: string): AthenaRow => ({ concept_id: String(id), concept_synonym_name: name, language_concept_id: '4180186' });
const mapsTo = (from: number, to: number): AthenaRow => ({
  concept_id_1: String(from), concept_id_2: String(to), relationship_id: 'Maps to', valid_start_date: '1970-01-01', valid_end_date: '2099-12-31', invalid_reason: '',
});

const demo: AthenaTables = {
  CONCEPT: [
    concept(1, 'Myocardial infarction'),
    concept(2, 'Gallstone'),
    concept(3, 'Asthma'),
    concept(4, 'Acute myocardial infarction, unspecified', { vocabulary_id: 'ICD10CM', standard_concept: '', concept_class_id: '4-char billing code' }),
    concept(5, 'Essential hypertension', { standard_concept: '', invalid_reason: 'D' }),
    concept(6, 'Gallstone (disorder)'),
  ],
  CONCEPT_SYNONYM: [
    synonym(1, 'Myocardial infarction (disorder)'),
    synonym(1, 'Heart attack'),
    synonym(1, 'HEART ATTACK'),
    synonym(1, 'Cardiac infarction'),
    synonym(2, 'Gallstone (disorder)'),
    synonym(3, 'asthma'),
    synonym(4, 'Heart attack, acute'),
    synonym(5, 'High blood pressure'),
  ],
  CONCEPT_RELATIONSHIP: [mapsTo(4, 1)],
};

describe('synonym hold-out', () => {
  const holdOut = holdOutSynonyms(demo);

  it('queries one differently worded synonym per indexed concept, preferring more than a tag', () => {
    expect(holdOut.queries).toEqual([
      { text: 'Heart attack', conceptId: 1, conceptName: 'Myocardial infarction', tagOnly: false, textElsewhere: false },
      // 6 is named with the same text: the query cannot single out 2
      { text: 'Gallstone (disorder)', conceptId: 2, conceptName: 'Gallstone', tagOnly: true, textElsewhere: true },
    ]);
    // 3: its synonym has the name's wording; 4: non-standard; 5: invalid — not what the semantic index holds
  });

  it('the held-out synonym (in every spelling) is absent from the written CONCEPT_SYNONYM; the others stay', async () => {
    const dir = writeAthenaTables(holdOut.tables, join(workDir, 'holdout'));
    const written = (await readAthenaTables(dir)).CONCEPT_SYNONYM!.map((r) => `${r.concept_id}:${r.concept_synonym_name}`);
    expect(written).not.toContain('1:Heart attack');
    expect(written).not.toContain('1:HEART ATTACK');
    expect(written).not.toContain('2:Gallstone (disorder)');
    expect(written).toEqual(expect.arrayContaining(['1:Myocardial infarction (disorder)', '1:Cardiac infarction', '3:asthma', '4:Heart attack, acute']));
  });

  it('the written directory loads with the real loader (dates rewritten as YYYYMMDD)', async () => {
    const release = await loadEvalRelease('holdout-load', holdOut.tables, workDir, { embeddings: false });
    try {
      expect(release.store.concepts.byId(1)?.concept_name).toBe('Myocardial infarction');
      expect(release.store.concepts.synonyms(1).map((s) => s.concept_synonym_name).sort()).toEqual(['Cardiac infarction', 'Myocardial infarction (disorder)']);
    } finally {
      await release.close();
    }
  });
});

describe('map by name', () => {
  const mapRow = (source: [id: number, code: string, vocabulary: string, description: string], target: [id: number, name: string, vocabulary: string, cls: string]) => ({
    source_code: source[1], source_concept_id: String(source[0]), source_code_description: source[3], source_vocabulary_id: source[2],
    source_domain_id: 'Drug', source_concept_class_id: 'x', source_valid_start_date: '19700101', source_valid_end_date: '20991231', source_invalid_reason: '',
    target_concept_id: String(target[0]), target_concept_name: target[1], target_vocabulary_id: target[2], target_domain_id: 'Drug',
    target_concept_class_id: target[3], target_invalid_reason: '', target_standard_concept: 'S',
  });
  const datasets: SharedDatasets = {
    demo,
    gibleed: {
      CONCEPT: [
        concept(10, 'atenolol 25 MG Oral Tablet', { vocabulary_id: 'RxNorm', domain_id: 'Drug', concept_class_id: 'Clinical Drug', concept_code: '197380' }),
        concept(11, 'atenolol 50 MG Oral Tablet', { vocabulary_id: 'RxNorm', domain_id: 'Drug', concept_class_id: 'Clinical Drug' }),
        concept(12, 'atenolol', { vocabulary_id: 'ATC', domain_id: 'Drug', concept_class_id: 'ATC 5th', standard_concept: 'C' }),
        concept(13, 'metoprolol 50 MG Oral Tablet', { vocabulary_id: 'RxNorm', domain_id: 'Drug', concept_class_id: 'Clinical Drug' }),
      ],
      CONCEPT_SYNONYM: [synonym(12, 'atenolol (ATC)')],
    },
    synthea27nj: {
      CONCEPT: [
        concept(20, 'Type 2 diabetes mellitus'),
        concept(21, 'Essential (primary) hypertension', { vocabulary_id: 'ICD10CM', standard_concept: '' }),
        concept(22, 'Essential hypertension'),
        concept(14, 'ATENOLOL 25 MG ORAL TABLET', { vocabulary_id: 'RxNorm', domain_id: 'Drug', concept_class_id: 'Clinical Drug' }),
        concept(15, 'Atenolol', { domain_id: 'Drug', concept_class_id: 'Substance' }),
      ],
      CONCEPT_RELATIONSHIP: [mapsTo(21, 22), mapsTo(22, 22)],
    },
    dbtSynthea: {},
    tutorial: {},
    tutorialMap: [
      mapRow([900, 'S1', 'SPL', 'ATENOLOL - atenolol tablet'], [10, 'atenolol 25 MG Oral Tablet', 'RxNorm', 'Clinical Drug']),
      mapRow([901, 'S2', 'SPL', 'atenolol 50mg/1 ORAL TABLET'], [11, 'atenolol 50 MG Oral Tablet', 'RxNorm', 'Clinical Drug']),
      mapRow([903, 'C07AB03', 'ATC', 'atenolol; oral'], [50, 'atenolol', 'RxNorm', 'Ingredient']),
      mapRow([904, 'S3', 'SPL', 'METOPROLOL - metoprolol tablet'], [13, 'metoprolol 50 MG Oral Tablet', 'RxNorm', 'Clinical Drug']),
      mapRow([902, 'I21.9', 'ICD10CM', 'Acute myocardial infarction, unspecified'], [1, 'Myocardial infarction', 'SNOMED', 'Clinical Finding']),
      mapRow([50, '1202', 'RxNorm', 'atenolol'], [50, 'atenolol', 'RxNorm', 'Ingredient']),
      mapRow([51, '6809', 'RxNorm', 'metformin'], [51, 'metformin', 'RxNorm', 'Ingredient']),
    ],
  };
  const built = buildMapByName(datasets);
  const conceptIds = built.tables.CONCEPT!.map((c) => Number(c.concept_id)).sort((a, b) => a - b);

  it('the candidate release holds no concept of a source-only vocabulary and no source concept', () => {
    expect(built.excludedVocabularies).toEqual(['ATC', 'ICD10CM', 'SPL']);
    expect(built.tables.CONCEPT!.map((c) => c.vocabulary_id)).not.toEqual(expect.arrayContaining(['ATC']));
    for (const vocabulary of ['ATC', 'ICD10CM', 'SPL']) expect(built.tables.CONCEPT!.some((c) => c.vocabulary_id === vocabulary)).toBe(false);
    expect(conceptIds).toEqual([1, 2, 3, 5, 6, 10, 11, 13, 15, 20, 22, 50, 51]);
    expect(built.excludedConcepts).toBe(3); // 4 and 21 (ICD10CM sources), 12 (ATC)
  });

  it("leaves out a distractor that copies a target's vocabulary and words (an older release's version), not one of another vocabulary", () => {
    expect(built.staleCopies).toBe(1); // 14 copies target 10 (RxNorm, same words); 15 is SNOMED
    expect(conceptIds).not.toContain(14);
    expect(conceptIds).toContain(15);
  });

  it('keeps only rows whose concepts are in the candidate release', () => {
    expect(built.tables.CONCEPT_RELATIONSHIP!.map((r) => `${r.concept_id_1}>${r.concept_id_2}`)).toEqual(['22>22']);
    expect(built.tables.CONCEPT_SYNONYM!.map((r) => r.concept_id)).not.toContain('12');
    expect(built.tables.CONCEPT_SYNONYM!.map((r) => r.concept_id)).not.toContain('4');
  });

  it('writes a target known only from the map from its target columns, coded by its self-mapped row or by its id', () => {
    const atenolol = built.tables.CONCEPT!.find((c) => c.concept_id === '50')!;
    expect(atenolol).toMatchObject({ concept_name: 'atenolol', vocabulary_id: 'RxNorm', concept_class_id: 'Ingredient', standard_concept: 'S', concept_code: '1202' });
    expect(built.tables.CONCEPT!.find((c) => c.concept_id === '51')!.concept_code).toBe('6809');
    expect(built.tables.CONCEPT!.find((c) => c.concept_id === '1')!.concept_code).toBe('C1'); // a named concept keeps its own code
    expect(built.tables.CONCEPT!.find((c) => c.concept_id === '11')!.concept_code).toBe('C11');
    expect(built.selfMappedRows).toBe(2);
  });

  it('queries each source name once with its targets, marking identical names and strength ambiguity', () => {
    const byText = new Map(built.queries.map((q) => [q.text, q]));
    expect([...byText.keys()].sort()).toEqual([
      'ATENOLOL - atenolol tablet',
      'Acute myocardial infarction, unspecified',
      'Essential (primary) hypertension',
      'METOPROLOL - metoprolol tablet',
      'atenolol 50mg/1 ORAL TABLET',
      'atenolol; oral',
    ]);
    expect(byText.get('ATENOLOL - atenolol tablet')).toMatchObject({ pairSource: 'tutorial-map', targets: new Set([10]), identical: false, ambiguous: true, strengthMissing: true });
    expect(byText.get('atenolol 50mg/1 ORAL TABLET')).toMatchObject({ targets: new Set([11]), ambiguous: false, strengthMissing: false });
    // one strength in the release: not ambiguous, but the text still lacks the target's strength
    expect(byText.get('METOPROLOL - metoprolol tablet')).toMatchObject({ targets: new Set([13]), ambiguous: false, strengthMissing: true });
    // the SNOMED substance 'Atenolol' has the target's words: the text cannot tell them apart
    expect(byText.get('atenolol; oral')).toMatchObject({ targets: new Set([50]), identical: false, ambiguous: true, strengthMissing: false });
    expect(byText.get('Essential (primary) hypertension')).toMatchObject({ pairSource: 'maps-to', targets: new Set([22]), identical: false });
    // the demo's ICD10CM row 4 Maps to 1 and the tutorial's I21.9 row share the text but come from different pair sets
    expect(built.queries.filter((q) => q.text === 'Acute myocardial infarction, unspecified').map((q) => q.pairSource).sort()).toEqual(['maps-to', 'tutorial-map']);
  });

  it('strengthlessKey drops numbers and dose units', () => {
    expect(strengthlessKey('atenolol 25 MG Oral Tablet')).toBe('atenolol oral tablet');
    expect(strengthlessKey('insulin glargine 100 UNT/ML Injectable Solution')).toBe('insulin glargine injectable solution');
  });
});
