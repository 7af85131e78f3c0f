/**
 * POST /v1/fhir/resolve/codeable-concept: resolves every coding as a single resolve would, then picks the best
 * (user selection, found before display-matched, vocabulary preference, input order), falling back to `text` as a
 * display.
 */
import type { ResolverContext } from './resolve-coding.js';
import { resolveOrError, type CodingResult, type ResolveError } from './resolve-batch.js';
import type { CodingInput, ResolveInputEcho, ResolveOptions, Resolution } from './resolution.js';

export const CODEABLE_CONCEPT_MAX_CODINGS = 20;

/** Source vocabularies in order of preference (client contract §1.6). */
export const VOCABULARY_PREFERENCE: readonly string[][] = [['SNOMED'], ['RxNorm'], ['LOINC'], ['CVX'], ['ICD10', 'ICD10CM']];

export interface ResolvedCoding {
  input: ResolveInputEcho;
  resolution: Resolution;
}

export interface CodeableConceptResolution {
  input: { coding: ResolveInputEcho[]; text: string | null; resource_type: string | null };
  best_match: ResolvedCoding | null;
  alternatives: ResolvedCoding[];
  unresolved: Array<{ input: ResolveInputEcho; error: ResolveError }>;
}

function vocabularyRank(vocabularyId: string | null): number {
  const at = VOCABULARY_PREFERENCE.findIndex((group) => vocabularyId !== null && group.includes(vocabularyId));
  return at < 0 ? VOCABULARY_PREFERENCE.length : at;
}

function evidenceRank(resolution: Resolution): number {
  if (resolution.standard_concept.concept_id === 0) return 2;
  return resolution.mapping_type === 'semantic_match' ? 1 : 0;
}

export async function resolveCodeableConcept(
  ctx: ResolverContext,
  codings: readonly CodingInput[],
  text: string | undefined,
  options: ResolveOptions,
): Promise<CodeableConceptResolution> {
  const results: CodingResult[] = [];
  for (const coding of codings) results.push(await resolveOrError(ctx, coding, options));
  const resolved: Array<ResolvedCoding & { selected: boolean; position: number }> = [];
  const unresolved: CodeableConceptResolution['unresolved'] = [];
  results.forEach((r, position) => {
    if ('resolution' in r) resolved.push({ input: r.input, resolution: r.resolution, selected: codings[position]?.user_selected === true, position });
    else unresolved.push(r);
  });
  resolved.sort(
    (a, b) =>
      Number(b.selected) - Number(a.selected) ||
      evidenceRank(a.resolution) - evidenceRank(b.resolution) ||
      vocabularyRank(a.resolution.vocabulary_id) - vocabularyRank(b.resolution.vocabulary_id) ||
      a.position - b.position,
  );
  const ranked: ResolvedCoding[] = resolved.map(({ input, resolution }) => ({ input, resolution }));
  const trimmedText = text?.trim() || undefined;
  const anyReal = ranked.some((r) => r.resolution.standard_concept.concept_id !== 0);
  if (!anyReal && trimmedText) {
    const byText = await resolveOrError(ctx, { display: trimmedText }, options);
    if ('resolution' in byText) ranked.unshift(byText);
    else unresolved.push(byText);
  }
  const [best, ...alternatives] = ranked;
  return {
    input: { coding: results.map((r) => r.input), text: trimmedText ?? null, resource_type: options.resourceType ?? null },
    best_match: best ?? null,
    alternatives,
    unresolved,
  };
}
