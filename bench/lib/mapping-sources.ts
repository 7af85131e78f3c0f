/** Source concepts for the mapping scenarios (a helper module: no default export, so not a scenario itself). */
import { systemForVocabulary } from '../../src/services/fhir/code-system-uris.js';
import type { BenchContext } from './scenario.js';

/** Up to `n` random non-standard concepts with at least one 'Maps to' row (one pass over CONCEPT, a primary-key probe each). */
export function mappedNonStandardConcepts(ctx: BenchContext, n: number): number[] {
  return ctx
    .sample<{ concept_id: number }>(
      `SELECT c.concept_id FROM concept c WHERE c.standard_concept IS NULL
          AND EXISTS (SELECT 1 FROM concept_relationship r WHERE r.concept_id_1 = c.concept_id AND r.relationship_id = 'Maps to')`,
      n,
    )
    .map((r) => r.concept_id);
}

/** A coding of a concept the way a FHIR client sends it: its vocabulary's system URI and code when there is one, else vocabulary_id and code. */
export interface BenchCoding {
  system?: string;
  vocabulary_id?: string;
  code: string;
}

/**
 * Up to `n` codings of random concepts for the resolver scenarios: half non-standard concepts with
 * a 'Maps to' row (resolved `mapped`), half any concept of the release (mostly `direct`).
 */
export function resolverCodings(ctx: BenchContext, n: number): BenchCoding[] {
  const mapped = mappedNonStandardConcepts(ctx, Math.ceil(n / 2));
  const any = ctx.sample<{ concept_id: number }>("SELECT concept_id FROM concept WHERE concept_code <> 'OMOP generated'", Math.floor(n / 2)).map((r) => r.concept_id);
  const lookup = ctx.store.prepare('SELECT vocabulary_id, concept_code FROM concept WHERE concept_id = ?');
  return [...mapped, ...any].map((id, i) => {
    const row = lookup.get(id) as { vocabulary_id: string; concept_code: string };
    const system = i % 2 === 0 ? systemForVocabulary(row.vocabulary_id) : undefined;
    return system ? { system, code: row.concept_code } : { vocabulary_id: row.vocabulary_id, code: row.concept_code };
  });
}
