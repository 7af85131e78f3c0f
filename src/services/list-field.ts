/**
 * A list-valued body field (ids, vocabulary ids, …) as bulk search and the relationship batch take
 * it: an array of strings or one comma-separated string; blanks dropped; absent or empty → undefined.
 */
import { validationError } from './errors.js';

export function listField(value: string[] | string | undefined, name: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
  if (!items || items.some((v) => typeof v !== 'string')) throw validationError(`'${name}' must be an array of strings or a comma-separated string.`);
  const cleaned = items.map((v) => v.trim()).filter((v) => v.length > 0);
  return cleaned.length ? cleaned : undefined;
}

/** A comma-joined list as clients send it in a query string: `SNOMED,ICD10CM` → ['SNOMED', 'ICD10CM']; empty entries dropped; undefined when absent. */
export function csvList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return items.length ? items : undefined;
}
