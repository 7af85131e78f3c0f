/**
 * The vocabulary authority order used wherever vocabularies are ranked (search tie-breaks, listing by
 * priority): the standard clinical vocabularies first, then the source vocabularies they map from.
 */

export const VOCABULARY_AUTHORITY: readonly string[] = [
  'SNOMED', 'RxNorm', 'LOINC', 'RxNorm Extension', 'CVX', 'ICD10CM', 'ICD10', 'ICD10PCS', 'ICD9CM', 'ICD9Proc',
  'CPT4', 'HCPCS', 'ATC', 'NDC', 'UCUM', 'OMOP Extension', 'OMOP Genomic', 'ICDO3', 'dm+d', 'Read', 'MeSH',
];

/** A vocabulary's place in VOCABULARY_AUTHORITY; every unlisted vocabulary shares the place after the last. */
export function authorityRank(vocabularyId: string): number {
  const i = VOCABULARY_AUTHORITY.indexOf(vocabularyId);
  return i === -1 ? VOCABULARY_AUTHORITY.length : i;
}
