/** Release selection for the HTTP surfaces: the one resolver and its messages live in src/services/release-selection.ts. */
export { noReleaseLoaded, releaseNotFound, resolveRelease, type ReleaseSelectorSource } from '../../services/release-selection.js';
