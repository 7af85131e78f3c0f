/**
 * The inputs the MCP scenarios and their REST twins share, chosen without the run's random numbers (which each
 * scenario's preparation advances) so that a tool call and its REST baseline ask exactly the same questions.
 */
import type { BenchContext } from './scenario.js';

const INPUTS = 5000;

/** Every n-th concept id, in id order. */
export function mcpBenchConceptIds(ctx: BenchContext): number[] {
  const total = (ctx.store.prepare('SELECT count(*) AS n FROM concept').get() as { n: number }).n;
  const step = Math.max(1, Math.floor(total / INPUTS));
  const rows = ctx.store.prepare('SELECT concept_id FROM concept ORDER BY concept_id').iterate() as IterableIterator<{ concept_id: number }>;
  const ids: number[] = [];
  let i = 0;
  for (const row of rows) if (i++ % step === 0 && ids.length < INPUTS) ids.push(row.concept_id);
  return ids;
}

/** The first two words of every n-th standard concept's name. */
export function mcpBenchQueries(ctx: BenchContext): string[] {
  const rows = ctx.store.prepare("SELECT concept_name FROM concept WHERE standard_concept = 'S' ORDER BY concept_id LIMIT 200000").all() as Array<{ concept_name: string }>;
  const step = Math.max(1, Math.floor(rows.length / 1000));
  const out: string[] = [];
  for (let i = 0; i < rows.length; i += step) {
    const words = rows[i]!.concept_name.split(/\s+/).filter((w) => /^[A-Za-z]{3,}$/.test(w)).slice(0, 2);
    if (words.length === 2) out.push(words.join(' ').toLowerCase());
  }
  return out;
}
