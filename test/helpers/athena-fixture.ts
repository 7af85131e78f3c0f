/**
 * Writes small purpose-built vocabularies in the real Athena download format (TAB-separated, no
 * quoting, YYYYMMDD dates) so tests state exactly which concepts exist.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FixtureConcept {
  concept_id: number;
  concept_name: string;
  domain_id?: string;
  vocabulary_id?: string;
  concept_class_id?: string;
  standard_concept?: 'S' | 'C' | null;
  concept_code?: string;
  valid_start_date?: string;
  valid_end_date?: string;
  invalid_reason?: 'D' | 'U' | null;
}

export interface FixtureRelationship {
  concept_id_1: number;
  concept_id_2: number;
  relationship_id: string;
  invalid_reason?: 'D' | 'U' | null;
  /** YYYYMMDD; default 19700101. */
  valid_start_date?: string;
}

/** A DOMAIN or CONCEPT_CLASS row: its id (concept id 91000/92000 + position), or [id, concept id] for a real id. */
export type ConceptTableRow = string | [id: string, conceptId: number];

const conceptTableRow = (row: ConceptTableRow, position: number, base: number) =>
  typeof row === 'string' ? [row, row, base + position] : [row[0], row[0], row[1]];

export interface FixtureVocabulary {
  concepts: FixtureConcept[];
  relationships?: FixtureRelationship[];
  ancestors?: Array<[ancestor: number, descendant: number, min: number, max: number]>;
  synonyms?: Array<[conceptId: number, name: string]>;
  /** VOCABULARY rows; vocabulary_concept_id defaults to 90000 + position. */
  vocabularies?: Array<[id: string, name: string, version?: string, conceptId?: number]>;
  domains?: ConceptTableRow[];
  conceptClasses?: ConceptTableRow[];
  relationshipTypes?: Array<[id: string, name: string, isHierarchical: '0' | '1', definesAncestry: '0' | '1', reverse: string]>;
  /** vocabulary_version of the special 'None' row. */
  releaseVersion?: string;
}

const tsv = (rows: Array<Array<string | number | null | undefined>>) =>
  rows.map((r) => r.map((v) => (v === null || v === undefined ? '' : String(v))).join('\t')).join('\n') + '\n';

export function writeAthenaFixture(fixture: FixtureVocabulary, dir = mkdtempSync(join(tmpdir(), 'omopterm-fixture-'))): string {
  mkdirSync(dir, { recursive: true });
  const concepts = fixture.concepts.map((c) => [
    c.concept_id,
    c.concept_name,
    c.domain_id ?? 'Condition',
    c.vocabulary_id ?? 'SNOMED',
    c.concept_class_id ?? 'Clinical Finding',
    c.standard_concept === undefined ? 'S' : c.standard_concept,
    c.concept_code ?? String(c.concept_id),
    c.valid_start_date ?? '19700101',
    c.valid_end_date ?? '20991231',
    c.invalid_reason ?? null,
  ]);
  writeFileSync(
    join(dir, 'CONCEPT.csv'),
    tsv([
      ['concept_id', 'concept_name', 'domain_id', 'vocabulary_id', 'concept_class_id', 'standard_concept', 'concept_code', 'valid_start_date', 'valid_end_date', 'invalid_reason'],
      ...concepts,
    ]),
  );
  writeFileSync(
    join(dir, 'CONCEPT_RELATIONSHIP.csv'),
    tsv([
      ['concept_id_1', 'concept_id_2', 'relationship_id', 'valid_start_date', 'valid_end_date', 'invalid_reason'],
      ...(fixture.relationships ?? []).map((r) => [r.concept_id_1, r.concept_id_2, r.relationship_id, r.valid_start_date ?? '19700101', '20991231', r.invalid_reason ?? null]),
    ]),
  );
  writeFileSync(
    join(dir, 'CONCEPT_ANCESTOR.csv'),
    tsv([['ancestor_concept_id', 'descendant_concept_id', 'min_levels_of_separation', 'max_levels_of_separation'], ...(fixture.ancestors ?? [])]),
  );
  writeFileSync(
    join(dir, 'CONCEPT_SYNONYM.csv'),
    tsv([['concept_id', 'concept_synonym_name', 'language_concept_id'], ...(fixture.synonyms ?? []).map(([id, name]) => [id, name, 4180186])]),
  );
  const usedVocabularies = new Set(fixture.concepts.map((c) => c.vocabulary_id ?? 'SNOMED'));
  const vocabularies = fixture.vocabularies ?? [...usedVocabularies].map((id) => [id, `${id} vocabulary`, `${id} 2025`] as [string, string, string]);
  writeFileSync(
    join(dir, 'VOCABULARY.csv'),
    tsv([
      ['vocabulary_id', 'vocabulary_name', 'vocabulary_reference', 'vocabulary_version', 'vocabulary_concept_id'],
      ['None', 'OMOP Standardized Vocabularies', 'OMOP generated', fixture.releaseVersion ?? 'v5.0 27-AUG-25', 44819096],
      ...vocabularies.map(([id, name, version, conceptId], i) => [id, name, 'test fixture', version ?? '', conceptId ?? 90000 + i]),
    ]),
  );
  const domains = fixture.domains ?? [...new Set(fixture.concepts.map((c) => c.domain_id ?? 'Condition'))];
  writeFileSync(join(dir, 'DOMAIN.csv'), tsv([['domain_id', 'domain_name', 'domain_concept_id'], ...domains.map((d, i) => conceptTableRow(d, i, 91000))]));
  const classes = fixture.conceptClasses ?? [...new Set(fixture.concepts.map((c) => c.concept_class_id ?? 'Clinical Finding'))];
  writeFileSync(
    join(dir, 'CONCEPT_CLASS.csv'),
    tsv([['concept_class_id', 'concept_class_name', 'concept_class_concept_id'], ...classes.map((c, i) => conceptTableRow(c, i, 92000))]),
  );
  const relTypes = fixture.relationshipTypes ?? [
    ['Maps to', 'Non-standard to Standard map (OMOP)', '0', '0', 'Mapped from'],
    ['Mapped from', 'Standard to Non-standard map (OMOP)', '0', '0', 'Maps to'],
    ['Is a', 'Is a', '1', '1', 'Subsumes'],
    ['Subsumes', 'Subsumes', '1', '1', 'Is a'],
  ];
  writeFileSync(
    join(dir, 'RELATIONSHIP.csv'),
    tsv([
      ['relationship_id', 'relationship_name', 'is_hierarchical', 'defines_ancestry', 'reverse_relationship_id', 'relationship_concept_id'],
      ...relTypes.map(([id, name, h, d, rev], i) => [id, name, h, d, rev, 93000 + i]),
    ]),
  );
  return dir;
}
