/**
 * Evaluation 2, map by name: a source concept's name is the query and the standard concept it
 * `Maps to` is the right answer, searched in a release that holds neither the source concepts nor
 * their vocabularies. Two sets of pairs:
 *
 * - `tutorial-map`: ohdsi-tutorial-etl-2024/SOURCE_TO_STANDARD_VOCAB_MAP.csv, source_code_description
 *   → target concept (rows mapping a concept to itself are skipped: they are not a source→standard
 *   pair). That dataset has no CONCEPT table, so the target concepts are written from the map's
 *   target columns (code from another dataset when one has the concept, else the concept id);
 * - `maps-to`: the valid `Maps to` rows (between two different concepts) of the shared datasets'
 *   CONCEPT_RELATIONSHIP tables whose two ends are named in a CONCEPT table (demo, gibleed,
 *   synthea27nj).
 *
 * The candidate release is the target concepts plus distractors — every concept of the demo
 * vocabulary, eunomia-gibleed-2019 and eunomia-synthea27nj, with their synonyms, relationships and
 * ancestors, so it carries a release's usual knowledge — minus every source concept and every
 * concept of a vocabulary that only appears on the source side (SPL, ATC, ICD10CM, …), and minus
 * distractors that copy a target's vocabulary and words (older releases' versions of the same
 * concept). A query's text and its targets are counted once however many source rows share them.
 * Each query carries the FHIR resource type that records its target's domain (RESOURCE_TYPE_OF_DOMAIN in src/services/fhir-resolver/cdm-target.ts),
 * what a FHIR client sends to the resolver with the display.
 */
import { mergeAthenaTables, ROW_KEYS, unionRows, type AthenaRow, type AthenaTables } from './athena-tables.js';
import { isIndexedConcept, sameWording } from './indexed-concepts.js';
import type { SharedDatasets } from './shared-datasets.js';
import { RESOURCE_TYPE_OF_DOMAIN } from '../../src/services/fhir-resolver/cdm-target.js';
import type { ResourceType } from '../../src/services/fhir-resolver/resolution.js';
import { indexText } from '../../src/search-model/text-normalization.js';

export type MapPairSource = 'tutorial-map' | 'maps-to';

export interface MapQuery {
  text: string;
  /** Target concepts (any of them ranked counts as found). */
  targets: ReadonlySet<number>;
  targetNames: string[];
  pairSource: MapPairSource;
  sourceVocabulary: string;
  /** The text has the same wording as one of its targets' names. */
  identical: boolean;
  /**
   * The text alone cannot tell the target from another indexed concept: one has exactly the
   * target's words ("Ibuprofen 200 MG Oral Tablet" twice, in the tutorial map's own targets), or
   * several share them once strengths are removed and the query names none of the target's
   * numbers ("ATENOLOL - atenolol tablet" → atenolol 25, 50 or 100 MG Oral Tablet).
   */
  ambiguous: boolean;
  /** The target's name has numbers (a strength) and the query names none of them ("ALLERGY MEDICINE - diphenhydramine hcl tablet"); true whenever `ambiguous` is. */
  strengthMissing: boolean;
  /** The resource that records the first of the targets whose domain has one; undefined when none has. */
  resourceType?: ResourceType;
}

export interface MapByName {
  /** The candidate release. */
  tables: AthenaTables;
  queries: MapQuery[];
  /** Vocabularies left out because they only appear on the source side. */
  excludedVocabularies: string[];
  /** Concepts of the shared datasets left out (sources, and concepts of source-only vocabularies). */
  excludedConcepts: number;
  /** Tutorial map rows that map a concept to itself (not used). */
  selfMappedRows: number;
  /** Distractors left out as copies of a target from an older release (same vocabulary and words). */
  staleCopies: number;
}

interface PairGroup {
  text: string;
  sourceConceptId: string;
  sourceVocabulary: string;
  pairSource: MapPairSource;
  targets: Set<string>;
}

const DISTRACTOR_SOURCES = (d: SharedDatasets) => [d.demo, d.gibleed, d.synthea27nj];

export function buildMapByName(datasets: SharedDatasets): MapByName {
  const named = new Map(unionRows(DISTRACTOR_SOURCES(datasets).map((t) => t.CONCEPT), ROW_KEYS.CONCEPT).map((c) => [c.concept_id!, c]));
  const groups = new Map<string, PairGroup>();
  const addPair = (pairSource: MapPairSource, sourceKey: string, sourceConceptId: string, sourceVocabulary: string, text: string, target: string) => {
    const key = `${pairSource}|${sourceKey}`;
    const group = groups.get(key) ?? { text, sourceConceptId, sourceVocabulary, pairSource, targets: new Set<string>() };
    group.targets.add(target);
    groups.set(key, group);
  };

  // tutorial map pairs, and the target concepts written from the map's columns
  const targetRows = new Map<string, AthenaRow>();
  const codeOf = new Map<string, string>();
  let selfMappedRows = 0;
  for (const row of datasets.tutorialMap) {
    if (row.source_concept_id === row.target_concept_id) {
      selfMappedRows++;
      codeOf.set(row.target_concept_id!, row.source_code!);
      continue;
    }
    const sourceKey = `${row.source_vocabulary_id}:${row.source_code}`;
    addPair('tutorial-map', sourceKey, row.source_concept_id!, row.source_vocabulary_id!, row.source_code_description!, row.target_concept_id!);
  }
  for (const row of datasets.tutorialMap) {
    const id = row.target_concept_id!;
    if (targetRows.has(id)) continue;
    targetRows.set(id, {
      concept_id: id,
      concept_name: row.target_concept_name!,
      domain_id: row.target_domain_id!,
      vocabulary_id: row.target_vocabulary_id!,
      concept_class_id: row.target_concept_class_id!,
      standard_concept: row.target_standard_concept!,
      concept_code: named.get(id)?.concept_code ?? codeOf.get(id) ?? id,
      valid_start_date: '19700101',
      valid_end_date: '20991231',
      invalid_reason: row.target_invalid_reason ?? '',
    });
  }

  // Maps to pairs with both ends named
  const relationshipSources = [datasets.demo, datasets.synthea27nj, datasets.dbtSynthea, datasets.tutorial].map((t) => t.CONCEPT_RELATIONSHIP);
  const relationships = unionRows(relationshipSources, ROW_KEYS.CONCEPT_RELATIONSHIP);
  for (const r of relationships) {
    if (r.relationship_id !== 'Maps to' || r.concept_id_1 === r.concept_id_2 || (r.invalid_reason ?? '') !== '') continue;
    const source = named.get(r.concept_id_1!);
    if (!source || !(named.has(r.concept_id_2!) || targetRows.has(r.concept_id_2!))) continue;
    addPair('maps-to', source.concept_id!, source.concept_id!, source.vocabulary_id!, source.concept_name!, r.concept_id_2!);
  }

  // what the candidate release leaves out
  const targetIds = new Set([...groups.values()].flatMap((g) => [...g.targets]));
  const vocabularyOf = (id: string) => targetRows.get(id)?.vocabulary_id ?? named.get(id)?.vocabulary_id;
  const targetVocabularies = new Set([...targetIds].map(vocabularyOf));
  const excludedVocabularies = [...new Set([...groups.values()].map((g) => g.sourceVocabulary))].filter((v) => !targetVocabularies.has(v)).sort();
  const sourceIds = new Set([...groups.values()].map((g) => g.sourceConceptId));
  const excluded = (c: AthenaRow) => !targetIds.has(c.concept_id!) && (sourceIds.has(c.concept_id!) || excludedVocabularies.includes(c.vocabulary_id!));

  // A distractor with a target's vocabulary and words is a copy from an older release (the shared
  // datasets span 2019–2024): one release does not hold both as valid concepts.
  const wordingKey = (c: AthenaRow) => `${c.vocabulary_id}|${indexText(c.concept_name!)}`;
  const targetWordings = new Set([...targetIds].map((id) => targetRows.get(id) ?? named.get(id)).filter((c) => c !== undefined).map(wordingKey));
  const staleCopy = (c: AthenaRow) => !targetIds.has(c.concept_id!) && isIndexedConcept(c) && targetWordings.has(wordingKey(c));

  const allConcepts = unionRows([[...targetRows.values()], [...named.values()]], ROW_KEYS.CONCEPT);
  const staleCopies = allConcepts.filter((c) => !excluded(c) && staleCopy(c)).length;
  const concepts = allConcepts.filter((c) => !excluded(c) && !staleCopy(c));
  const kept = new Set(concepts.map((c) => c.concept_id!));
  const reference = mergeAthenaTables([datasets.tutorial, datasets.demo, datasets.gibleed, datasets.dbtSynthea]);
  const tables: AthenaTables = {
    VOCABULARY: reference.VOCABULARY,
    DOMAIN: reference.DOMAIN,
    CONCEPT_CLASS: reference.CONCEPT_CLASS,
    RELATIONSHIP: reference.RELATIONSHIP,
    CONCEPT: concepts,
    CONCEPT_RELATIONSHIP: relationships.filter((r) => kept.has(r.concept_id_1!) && kept.has(r.concept_id_2!)),
    CONCEPT_ANCESTOR: unionRows(
      [datasets.demo, datasets.gibleed, datasets.dbtSynthea].map((t) => t.CONCEPT_ANCESTOR),
      ROW_KEYS.CONCEPT_ANCESTOR,
    ).filter((r) => kept.has(r.ancestor_concept_id!) && kept.has(r.descendant_concept_id!)),
    CONCEPT_SYNONYM: unionRows(
      DISTRACTOR_SOURCES(datasets).map((t) => t.CONCEPT_SYNONYM),
      ROW_KEYS.CONCEPT_SYNONYM,
    ).filter((r) => kept.has(r.concept_id!)),
  };

  // the queries, each text with its indexed targets once
  const candidates = new Map(concepts.filter(isIndexedConcept).map((c) => [c.concept_id!, c]));
  const strengthless = countBy([...candidates.values()], (c) => strengthlessKey(c.concept_name!));
  const wordings = countBy([...candidates.values()], (c) => indexText(c.concept_name!));
  const queries = new Map<string, MapQuery>();
  for (const group of groups.values()) {
    const targets = [...group.targets].filter((id) => candidates.has(id)).sort();
    if (targets.length === 0) continue;
    const key = `${group.pairSource}|${indexText(group.text)}|${targets.join(',')}`;
    if (queries.has(key)) continue;
    const targetNames = targets.map((id) => candidates.get(id)!.concept_name!);
    queries.set(key, {
      text: group.text,
      targets: new Set(targets.map(Number)),
      targetNames,
      pairSource: group.pairSource,
      sourceVocabulary: group.sourceVocabulary,
      identical: targetNames.some((n) => sameWording(n, group.text)),
      ambiguous: targetNames.every(
        (n) => (wordings.get(indexText(n)) ?? 0) >= 2 || (missesStrength(group.text, n) && (strengthless.get(strengthlessKey(n)) ?? 0) >= 2),
      ),
      strengthMissing: targetNames.every((n) => missesStrength(group.text, n)),
      resourceType: targets.map((id) => RESOURCE_TYPE_OF_DOMAIN[candidates.get(id)!.domain_id!]).find((t) => t !== undefined),
    });
  }
  return {
    tables,
    queries: [...queries.values()],
    excludedVocabularies,
    excludedConcepts: allConcepts.filter(excluded).length,
    selfMappedRows,
    staleCopies,
  };
}

/** Dose units of drug names ("25 MG", "0.5 MG/ML", "24 HR"), ignored with the numbers. */
const STRENGTH_UNITS = new Set(['mg', 'mcg', 'ml', 'g', 'l', 'meq', 'mmol', 'unt', 'unit', 'units', 'iu', 'hr', 'actuat']);
const HAS_DIGIT = /\d/;

/** A name's words without numbers and dose units: "atenolol 25 MG Oral Tablet" → "atenolol oral tablet". */
export function strengthlessKey(name: string): string {
  return indexText(name)
    .split(' ')
    .filter((w) => !HAS_DIGIT.test(w) && !STRENGTH_UNITS.has(w))
    .join(' ');
}

function countBy(concepts: readonly AthenaRow[], keyOf: (c: AthenaRow) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of concepts) counts.set(keyOf(c), (counts.get(keyOf(c)) ?? 0) + 1);
  return counts;
}

/** The numbers written in a text ("50mg/1" → 50, 1; "0.5 MG" → 0.5). */
const numbersIn = (text: string) => text.match(/\d+(?:\.\d+)?/g) ?? [];

/** The target's name has numbers and the query names none of them. */
function missesStrength(query: string, targetName: string): boolean {
  const queryNumbers = new Set(numbersIn(query));
  const targetNumbers = numbersIn(targetName);
  return targetNumbers.length > 0 && !targetNumbers.some((n) => queryNumbers.has(n));
}
