/**
 * The concept codes to try for a code sent with a vocabulary: the code as given, then its OMOP spellings (NDC
 * padding, ICD dots, upper case, CVX leading zero); never throws, at most four candidates.
 */

const ICD10_FAMILY = new Set(['ICD10CM', 'ICD10', 'ICD10GM', 'ICD10CN', 'KCD7', 'CIM10']);
const UPPER_CASE_VOCABULARIES = new Set([...ICD10_FAMILY, 'ICD9CM', 'ICD9Proc', 'ICD10PCS', 'CPT4', 'HCPCS', 'ATC']);

/** OMOP's 11-digit (package) or 9-digit (product) NDC for the hyphenated forms FHIR uses. */
function ndcCandidates(code: string): string[] {
  const segments = code.split('-');
  if (segments.some((s) => !/^\d+$/.test(s))) return [];
  const lengths = segments.map((s) => s.length).join('-');
  const [a = '', b = '', c = ''] = segments;
  switch (lengths) {
    case '4-4-2':
      return [`0${a}${b}${c}`];
    case '5-3-2':
      return [`${a}0${b}${c}`];
    case '5-4-1':
      return [`${a}${b}0${c}`];
    case '5-4-2':
      return [`${a}${b}${c}`];
    case '4-4':
      return [`0${a}${b}`];
    case '5-3':
      return [`${a}0${b}`];
    case '5-4':
      return [`${a}${b}`];
    case '10':
      // The label's hyphens are lost: every 10-digit layout is possible.
      return [`0${a}`, `${a.slice(0, 5)}0${a.slice(5)}`, `${a.slice(0, 9)}0${a.slice(9)}`];
    default:
      return [];
  }
}

/** The ICD-10 code with its dot after the 3-character category, when it was sent without one. */
function icd10Dotted(code: string): string | undefined {
  return /^[A-Z]\d[0-9A-Z][0-9A-Z]{1,4}$/.test(code) ? `${code.slice(0, 3)}.${code.slice(3)}` : undefined;
}

/** ICD-9-CM diagnosis codes: 3 digits, "V" + 2 digits or "E" + 3 digits before the dot. */
function icd9DiagnosisDotted(code: string): string | undefined {
  if (/^\d{4,5}$/.test(code) || /^V\d{3,4}$/.test(code)) return `${code.slice(0, 3)}.${code.slice(3)}`;
  if (/^E\d{4}$/.test(code)) return `${code.slice(0, 4)}.${code.slice(4)}`;
  return undefined;
}

/** ICD-9-CM procedure codes: 2 digits before the dot. */
function icd9ProcedureDotted(code: string): string | undefined {
  return /^\d{3,4}$/.test(code) ? `${code.slice(0, 2)}.${code.slice(2)}` : undefined;
}

/** Concept codes to try, in order, for a code sent with a vocabulary (the code as given first, trimmed). */
export function codeCandidates(vocabularyId: string, code: string): string[] {
  const given = code.trim();
  if (given === '') return [];
  const candidates = [given];
  const upper = UPPER_CASE_VOCABULARIES.has(vocabularyId) ? given.toUpperCase() : given;
  candidates.push(upper);
  if (vocabularyId === 'NDC') candidates.push(...ndcCandidates(given));
  else if (ICD10_FAMILY.has(vocabularyId)) candidates.push(icd10Dotted(upper) ?? upper);
  else if (vocabularyId === 'ICD9CM') candidates.push(icd9DiagnosisDotted(upper) ?? upper);
  else if (vocabularyId === 'ICD9Proc') candidates.push(icd9ProcedureDotted(upper) ?? upper);
  else if (vocabularyId === 'CVX' && /^\d$/.test(given)) candidates.push(`0${given}`);
  return [...new Set(candidates)];
}
