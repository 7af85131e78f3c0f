/**
 * Reads an Athena source directory's CONCEPT, CONCEPT_RELATIONSHIP and CONCEPT_ANCESTOR files
 * directly (TAB or comma dialect, plain or gzipped), so that the mapping tests compute what they
 * expect from the files, independently of the loader and the store.
 */
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { DEMO_VOCABULARY_DIR, isoDate, readSourceConcepts, readSourceTable, type SourceConcept } from '../metadata/concept-file.js';

export const DEMO_DIR = DEMO_VOCABULARY_DIR;
export const SHARED_VOCAB = fileURLToPath(new URL('../../../shared/vocab/', import.meta.url));

export type FileConcept = SourceConcept;

export interface FileRelationship {
  concept_id_1: number;
  concept_id_2: number;
  relationship_id: string;
  /** YYYY-MM-DD */
  valid_start_date: string;
  valid_end_date: string;
  invalid_reason: string | null;
}

export interface FileAncestor {
  ancestor: number;
  descendant: number;
  min: number;
  max: number;
}

export interface AthenaFiles {
  concepts: Map<number, FileConcept>;
  relationships: FileRelationship[];
  /** The relationship rows by concept_id_1. */
  outbound: Map<number, FileRelationship[]>;
  ancestors: FileAncestor[];
}

export function readAthenaFiles(dir: string): AthenaFiles {
  const concepts = new Map<number, FileConcept>(readSourceConcepts(dir).map((c) => [c.concept_id, c]));
  const relationships = readSourceTable(dir, 'CONCEPT_RELATIONSHIP.csv').map((r) => ({
    concept_id_1: Number(r.concept_id_1),
    concept_id_2: Number(r.concept_id_2),
    relationship_id: r.relationship_id!,
    valid_start_date: isoDate(r.valid_start_date!),
    valid_end_date: isoDate(r.valid_end_date!),
    invalid_reason: r.invalid_reason || null,
  }));
  const ancestors = readSourceTable(dir, 'CONCEPT_ANCESTOR.csv').map((r) => ({
    ancestor: Number(r.ancestor_concept_id),
    descendant: Number(r.descendant_concept_id),
    min: Number(r.min_levels_of_separation),
    max: Number(r.max_levels_of_separation),
  }));
  const outbound = new Map<number, FileRelationship[]>();
  for (const r of relationships) {
    const rows = outbound.get(r.concept_id_1);
    if (rows) rows.push(r);
    else outbound.set(r.concept_id_1, [r]);
  }
  return { concepts, relationships, outbound, ancestors };
}

/** Vocabularies a key may see (spec Authentication 5): never GPI/MedDRA, CPT4 only when validated. */
export function visibleTo(cpt4Validated: boolean): (vocabularyId: string) => boolean {
  return (vocabularyId) => !['GPI', 'MedDRA', ...(cpt4Validated ? [] : ['CPT4'])].includes(vocabularyId);
}

/**
 * The mapping records GET /v1/concepts/{id}/mappings should list for `sourceId`, computed from the
 * files: rows with these relationship ids (in that order, each by target id) whose target is in
 * CONCEPT and visible, optionally valid only and in some vocabularies. `confidence` is checked to be
 * a number here; its values are asserted by hand in mapping-concept-mappings.test.ts.
 */
export function expectedMappings(
  files: AthenaFiles,
  sourceId: number,
  options: { relationshipIds?: string[]; vocabularies?: string[]; includeInvalid?: boolean; visible?: (vocabularyId: string) => boolean } = {},
) {
  const source = files.concepts.get(sourceId)!;
  const visible = options.visible ?? visibleTo(false);
  return (options.relationshipIds ?? ['Maps to']).flatMap((relationshipId) =>
    (files.outbound.get(sourceId) ?? [])
      .filter((r) => r.relationship_id === relationshipId)
      .map((r) => ({ row: r, target: files.concepts.get(r.concept_id_2) }))
      .filter(({ row, target }) => {
        if (!target || !visible(target.vocabulary_id)) return false;
        if (options.vocabularies && !options.vocabularies.includes(target.vocabulary_id)) return false;
        return options.includeInvalid !== false || (row.invalid_reason === null && target.invalid_reason === null);
      })
      .sort((a, b) => a.row.concept_id_2 - b.row.concept_id_2)
      .map(({ row, target }) => ({
        source_concept_id: sourceId,
        source_concept_name: source.concept_name,
        target_concept_id: target!.concept_id,
        target_concept_name: target!.concept_name,
        target_vocabulary_id: target!.vocabulary_id,
        target_concept_code: target!.concept_code,
        target_domain_id: target!.domain_id,
        target_concept_class_id: target!.concept_class_id,
        target_standard_concept: target!.standard_concept,
        target_invalid_reason: target!.invalid_reason,
        relationship_id: relationshipId,
        valid_start_date: row.valid_start_date,
        valid_end_date: row.valid_end_date,
        invalid_reason: row.invalid_reason,
        confidence: expect.any(Number) as number,
      })),
  );
}

export type MappingType = 'direct' | 'equivalent' | 'broader' | 'narrower';

export interface ExpectedMapTarget {
  source_concept_id: number;
  target_concept_id: number;
  relationship_id: string;
  via_concept_id?: number;
}

/**
 * What POST /v1/concepts/map should answer for one source, computed from the files by the
 * definitions of the mapping types (src/services/mappings/concept-map.ts's header, restated here):
 * direct = 'Maps to' rows into the target vocabulary; equivalent = those plus the target-vocabulary
 * concepts 'Mapped from' the source's 'Maps to' targets; broader/narrower = ancestors/descendants in
 * the target vocabulary of the source and its 'Maps to' targets, nearest first. Targets deduplicated.
 */
export function expectedMapTargets(
  files: AthenaFiles,
  sourceId: number,
  targetVocabulary: string,
  type: MappingType,
  options: { includeInvalid?: boolean; visible?: (vocabularyId: string) => boolean } = {},
): ExpectedMapTarget[] {
  const visible = options.visible ?? visibleTo(false);
  const includeInvalid = options.includeInvalid ?? false;
  const conceptOk = (id: number, vocabularies?: string[]) => {
    const c = files.concepts.get(id);
    return !!c && visible(c.vocabulary_id) && (!vocabularies || vocabularies.includes(c.vocabulary_id)) && (includeInvalid || c.invalid_reason === null);
  };
  const rowsOf = (from: number, relationshipId: string, vocabularies?: string[]) =>
    (files.outbound.get(from) ?? [])
      .filter((r) => r.relationship_id === relationshipId && (includeInvalid || r.invalid_reason === null))
      .filter((r) => conceptOk(r.concept_id_2, vocabularies))
      .sort((a, b) => a.concept_id_2 - b.concept_id_2);
  const out: ExpectedMapTarget[] = [];
  const add = (target: ExpectedMapTarget) => {
    if (!out.some((o) => o.target_concept_id === target.target_concept_id)) out.push(target);
  };
  const standards = rowsOf(sourceId, 'Maps to').map((r) => r.concept_id_2);
  if (type === 'direct' || type === 'equivalent') {
    for (const r of rowsOf(sourceId, 'Maps to', [targetVocabulary])) add({ source_concept_id: sourceId, target_concept_id: r.concept_id_2, relationship_id: 'Maps to' });
  }
  if (type === 'equivalent') {
    for (const standard of standards) {
      for (const r of rowsOf(standard, 'Mapped from', [targetVocabulary])) {
        if (r.concept_id_2 !== sourceId) add({ source_concept_id: sourceId, target_concept_id: r.concept_id_2, relationship_id: 'Mapped from', via_concept_id: standard });
      }
    }
  }
  if (type === 'broader' || type === 'narrower') {
    for (const start of [sourceId, ...standards.filter((id) => id !== sourceId)]) {
      const links = files.ancestors
        .filter((a) => (type === 'broader' ? a.descendant === start : a.ancestor === start) && a.ancestor !== a.descendant)
        .map((a) => ({ id: type === 'broader' ? a.ancestor : a.descendant, min: a.min }))
        .filter((l) => conceptOk(l.id, [targetVocabulary]))
        .sort((a, b) => a.min - b.min || a.id - b.id);
      for (const l of links) {
        add({
          source_concept_id: sourceId,
          target_concept_id: l.id,
          relationship_id: type === 'broader' ? 'Is a' : 'Subsumes',
          ...(start === sourceId ? {} : { via_concept_id: start }),
        });
      }
    }
  }
  return out;
}
