/**
 * Source terms for the mapping benchmarks, made from a release's standard concept names the way local source systems
 * word them: a word dropped, two words swapped, a typing slip, case changed (a helper module: no default export).
 */
import type { BenchContext } from './scenario.js';

export interface GeneratedTerm {
  code: string;
  name: string;
  frequency: number;
  /** The concept whose name the term was made from. */
  fromConceptId: number;
}

function slip(word: string, random: () => number): string {
  if (word.length < 4) return word;
  const at = 1 + Math.floor(random() * (word.length - 2));
  return random() < 0.5 ? word.slice(0, at) + word.slice(at + 1) : word.slice(0, at - 1) + word[at] + word[at - 1] + word.slice(at + 1);
}

/** One source wording of a concept name: one or two of the changes above (never an empty name). */
export function sourceWording(name: string, random: () => number): string {
  let words = name.split(/\s+/).filter(Boolean);
  const changes = 1 + Math.floor(random() * 2);
  for (let c = 0; c < changes; c++) {
    const kind = Math.floor(random() * 4);
    if (kind === 0 && words.length > 2) words.splice(Math.floor(random() * words.length), 1);
    else if (kind === 1 && words.length > 1) {
      const i = Math.floor(random() * (words.length - 1));
      [words[i], words[i + 1]] = [words[i + 1]!, words[i]!];
    } else if (kind === 2) {
      const i = Math.floor(random() * words.length);
      words[i] = slip(words[i]!, random);
    } else words = words.map((w) => (random() < 0.5 ? w.toUpperCase() : w.toLowerCase()));
  }
  return words.join(' ');
}

/** `n` terms from random valid standard concepts' names, Zipf-like frequencies, codes SRC-000001…. */
export function generatedTerms(ctx: BenchContext, n: number): GeneratedTerm[] {
  const rows = ctx.sample<{ concept_id: number; concept_name: string }>(
    "SELECT concept_id, concept_name FROM concept WHERE standard_concept = 'S' AND invalid_reason IS NULL",
    n,
  );
  return rows.map((r, i) => ({
    code: `SRC-${String(i + 1).padStart(6, '0')}`,
    name: sourceWording(r.concept_name, ctx.random),
    frequency: Math.max(1, Math.round(100_000 / (i + 1))),
    fromConceptId: r.concept_id,
  }));
}

/** The terms as a CSV file with Usagi's column names. */
export function termsCsv(terms: readonly GeneratedTerm[]): string {
  const quote = (s: string): string => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  return ['source_code,source_name,source_frequency', ...terms.map((t) => `${t.code},${quote(t.name)},${t.frequency}`)].join('\n') + '\n';
}
