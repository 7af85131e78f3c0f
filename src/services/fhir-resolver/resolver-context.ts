/** What every resolver step works on: one release, the caller's licence, and the display fallback, run where the caller says. */
import type { ReleaseView } from '../release-view.js';
import { lexicalScoring } from '../semantic/semantic-context.js';
import type { SemanticIndexRegistry } from '../semantic/semantic-index-registry.js';
import { resolveDisplay, type DisplayResolution, type DisplayResolutionContext, type DisplayResolutionOptions } from './display-resolution.js';

/** The display fallback (rule 3) of one caller on one release: the resolver's only heavy step. */
export type DisplayResolver = (display: string, options: DisplayResolutionOptions) => Promise<DisplayResolution>;

export interface ResolverContext {
  /** The release (its label names it in messages) seen with the caller's licence rules. */
  view: ReleaseView;
  /** Resolves a display text on `view` (a server runs it on a worker thread; see src/threads/heavy-operations.ts). */
  resolveDisplay: DisplayResolver;
}

/** The display fallback's context: the release's vectors when it has usable ones (else keyword and lexical matching). */
export async function displayContextFor(indexes: SemanticIndexRegistry, view: ReleaseView): Promise<DisplayResolutionContext> {
  const lookup = await indexes.get(view);
  return { view, semantic: lookup.ok ? { index: lookup.index, provider: lookup.provider, view } : null, lexical: lexicalScoring(lookup) };
}

/**
 * The resolver's context for a caller's view. Without `displayResolver` the display fallback runs in this thread, its
 * vectors looked up once, when first needed.
 */
export function resolverContextFor(indexes: SemanticIndexRegistry, view: ReleaseView, displayResolver?: DisplayResolver): ResolverContext {
  let display: Promise<DisplayResolutionContext> | undefined;
  return {
    view,
    resolveDisplay: displayResolver ?? (async (text, options) => resolveDisplay(await (display ??= displayContextFor(indexes, view)), text, options)),
  };
}
