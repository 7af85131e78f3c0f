/**
 * The release date carried by the vocabulary_version of Athena's 'None' vocabulary row, e.g.
 * "v5.0 27-AUG-25" → 2025-08-27 ("v5.0 09-APR-22*" from vocabulary shards works too).
 */
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

export function releaseDateFromVersion(version: string | null): string | null {
  if (!version) return null;
  const match = /\b(\d{1,2})-([A-Za-z]{3})-(\d{2}|\d{4})\b/.exec(version);
  if (!match) return null;
  const day = Number(match[1]);
  const month = MONTHS.indexOf(match[2]!.toUpperCase()) + 1;
  const year = match[3]!.length === 2 ? 2000 + Number(match[3]) : Number(match[3]);
  if (month === 0) return null;
  const iso = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(iso) ? iso : null;
}
