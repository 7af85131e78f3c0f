/**
 * Whole-query abbreviations (matching rule 1, reading note 4): an abbreviation expands only when it is the entire
 * query, into the phrasings searched together (the clinical term and, where it differs, OMOP's preferred name).
 */
export const WHOLE_QUERY_ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = {
  COPD: ['chronic obstructive pulmonary disease', 'chronic obstructive lung disease'],
  CHF: ['congestive heart failure'],
  MI: ['myocardial infarction'],
  T2DM: ['type 2 diabetes mellitus'],
  HTN: ['hypertension', 'hypertensive disorder'],
  CKD: ['chronic kidney disease'],
};

/** The expansions when the whole (trimmed) query is an abbreviation, otherwise undefined. */
export function expandWholeQueryAbbreviation(query: string): { abbreviation: string; expansions: readonly string[] } | undefined {
  const key = query.trim().toUpperCase();
  const expansions = Object.prototype.hasOwnProperty.call(WHOLE_QUERY_ABBREVIATIONS, key) ? WHOLE_QUERY_ABBREVIATIONS[key] : undefined;
  return expansions ? { abbreviation: key, expansions } : undefined;
}
