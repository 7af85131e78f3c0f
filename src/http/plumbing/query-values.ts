/** Parsing of query values the clients send as comma-joined lists (Node sends spaces as '+'). */

/** `SNOMED,ICD10CM` → ['SNOMED', 'ICD10CM']; empty entries dropped; undefined when absent. */
export function csvList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return items.length ? items : undefined;
}
