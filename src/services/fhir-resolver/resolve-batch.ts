/**
 * POST /v1/fhir/resolve/batch: 1 to RESOLVE_BATCH_MAX codings with shared options, one result per coding in input
 * order; a coding that fails becomes an item with an `error` and never fails the batch, which counts as one call.
 */
import { ServiceError } from '../errors.js';
import { echoInput, resolveCoding, type ResolverContext } from './resolve-coding.js';
import type { CodingInput, ResolveInputEcho, ResolveOptions, Resolution } from './resolution.js';

export const RESOLVE_BATCH_MAX = 100;

export interface ResolveError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export type CodingResult = { input: ResolveInputEcho; resolution: Resolution } | { input: ResolveInputEcho; error: ResolveError };

/** One coding's result: its resolution, or the error a single resolve would have answered (server faults still throw). */
export async function resolveOrError(ctx: ResolverContext, coding: CodingInput, options: ResolveOptions): Promise<CodingResult> {
  try {
    const { input, resolution } = await resolveCoding(ctx, coding, options);
    if (resolution) return { input, resolution };
    return { input, error: { code: 'concept_not_found', message: 'No concept found.' } };
  } catch (err) {
    if (!(err instanceof ServiceError) || err.status >= 500) throw err;
    const error: ResolveError = { code: String(err.code), message: err.message };
    if (err.details) error.details = err.details;
    return { input: echoInput(coding, options.resourceType), error };
  }
}

export interface BatchResolution {
  results: CodingResult[];
  summary: { total: number; resolved: number; failed: number };
}

export async function resolveBatch(ctx: ResolverContext, codings: readonly CodingInput[], options: ResolveOptions): Promise<BatchResolution> {
  const results: CodingResult[] = [];
  for (const coding of codings) results.push(await resolveOrError(ctx, coding, options));
  const resolved = results.filter((r) => 'resolution' in r).length;
  return { results, summary: { total: results.length, resolved, failed: results.length - resolved } };
}
