/**
 * Ranking rule 1's bare codes: a query shaped like an ICD10CM, SNOMED or LOINC code (reading note
 * 2) names an authoritative source vocabulary. Its concept with that code ranks first and that
 * concept's valid standard `Maps to` targets second. `vocabulary_ids` selects another code system.
 */

const SHAPES: ReadonlyArray<{ vocabularyId: string; pattern: RegExp }> = [
  // E11.9, I10, J45.909, S72.001A
  { vocabularyId: 'ICD10CM', pattern: /^[A-Z][0-9][0-9A-Z](?:\.[0-9A-Z]{1,4})?$/i },
  // LOINC codes (2339-0) and LOINC parts/answers/groups (LP14635-4, LA6576-8, LG10990-6)
  { vocabularyId: 'LOINC', pattern: /^(?:L[APG])?\d{1,8}-\d$/i },
  // SNOMED CT identifiers: 6 to 18 digits
  { vocabularyId: 'SNOMED', pattern: /^\d{6,18}$/ },
];

/** The vocabulary whose code the bare query looks like, or undefined. */
export function codeShapeVocabulary(query: string): string | undefined {
  const q = query.trim();
  return SHAPES.find((s) => s.pattern.test(q))?.vocabularyId;
}

/** A query that could be a concept_id (a positive integer that fits the column). */
export function asConceptId(query: string): number | undefined {
  const q = query.trim();
  if (!/^\d{1,10}$/.test(q)) return undefined;
  const n = Number(q);
  return n <= 2147483647 ? n : undefined;
}
