/** What every resolver step works on: one release, the caller's licence, and the display fallback's context on demand. */
import type { ReleaseView } from '../release-view.js';
import type { DisplayResolutionContext } from './display-resolution.js';

export interface ResolverContext {
  /** The release (its label names it in messages) seen with the caller's licence rules. */
  view: ReleaseView;
  /** The display fallback's context, made only when a display has to be resolved (it may open the release's vectors). */
  displayContext: () => Promise<DisplayResolutionContext>;
}
