/** What every resolver step works on: one release, the caller's licence, and the display fallback's context on demand. */
import type { ReleaseView } from '../release-view.js';
import { lexicalScoring } from '../semantic/semantic-context.js';
import type { SemanticIndexRegistry } from '../semantic/semantic-index-registry.js';
import type { DisplayResolutionContext } from './display-resolution.js';

export interface ResolverContext {
  /** The release (its label names it in messages) seen with the caller's licence rules. */
  view: ReleaseView;
  /** The display fallback's context, made only when a display has to be resolved (it may open the release's vectors). */
  displayContext: () => Promise<DisplayResolutionContext>;
}

/** The resolver's context for a caller's view; the display fallback's vectors are looked up once, when first needed. */
export function resolverContextFor(indexes: SemanticIndexRegistry, view: ReleaseView): ResolverContext {
  let display: Promise<DisplayResolutionContext> | undefined;
  return {
    view,
    displayContext: () =>
      (display ??= indexes.get(view).then((lookup) => ({
        view,
        semantic: lookup.ok ? { index: lookup.index, provider: lookup.provider, view } : null,
        lexical: lexicalScoring(lookup),
      }))),
  };
}
