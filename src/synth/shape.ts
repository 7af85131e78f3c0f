/**
 * The shape of the real Athena v5 release of August 2025 that `omopterm synth` imitates, scaled to
 * the requested number of concepts. Tests and the benchmark read the same figures.
 */

export const FULL_RELEASE = {
  concepts: 4_874_345,
  conceptRelationships: 38_375_968,
  conceptAncestors: 44_012_193,
  conceptSynonyms: 3_282_031,
  drugStrengths: 3_020_774,
  conceptClasses: 433,
  domains: 50,
  relationships: 722,
} as const;

/** Concepts per vocabulary in the real release (ICD10CM etc. take the remainder, see plan.ts). */
export const FULL_VOCABULARY_COUNTS: Readonly<Record<string, number>> = {
  'RxNorm Extension': 2_171_452,
  SNOMED: 1_093_147,
  'dm+d': 442_251,
  RxNorm: 313_091,
  'OMOP Genomic': 289_889,
  LOINC: 277_764,
  Read: 108_945,
  ICDO3: 64_471,
  ICD10: 16_638,
  HCPCS: 12_434,
  ATC: 7_223,
};

/** Rows per concept of each table at full size. */
export const PER_CONCEPT = {
  conceptRelationships: FULL_RELEASE.conceptRelationships / FULL_RELEASE.concepts,
  conceptAncestors: FULL_RELEASE.conceptAncestors / FULL_RELEASE.concepts,
  conceptSynonyms: FULL_RELEASE.conceptSynonyms / FULL_RELEASE.concepts,
  drugStrengths: FULL_RELEASE.drugStrengths / FULL_RELEASE.concepts,
} as const;

/** `--scale 0.01` → number of concepts. */
export function conceptsForScale(scale: number): number {
  return Math.round(FULL_RELEASE.concepts * scale);
}
