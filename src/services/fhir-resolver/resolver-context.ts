/** What every resolver step works on: one release, the caller's licence, and the display fallback's context on demand. */
import type { AccessPolicy } from '../access-policy.js';
import type { ReleaseStore } from '../../store/release-store.js';
import type { DisplayResolutionContext } from './display-resolution.js';

export interface ResolverContext {
  store: ReleaseStore;
  policy: AccessPolicy;
  /** The release label (for messages). */
  releaseLabel: string;
  /** The display fallback's context, made only when a display has to be resolved (it may open the release's vectors). */
  displayContext: () => Promise<DisplayResolutionContext>;
}
