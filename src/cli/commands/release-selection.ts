/**
 * The release a CLI command reads (`--release`, else the default), or an error naming what is loaded.
 */
import { resolve } from 'node:path';
import type { OpenRelease, ReleaseRegistry } from '../../store/release-registry.js';

export function selectRelease(registry: ReleaseRegistry, dataDir: string, selector: string | undefined): OpenRelease {
  const selection = registry.select(selector);
  if (selection.ok) return selection.release;
  throw new Error(
    selection.reason === 'none_loaded'
      ? `no releases loaded in ${resolve(dataDir)}`
      : `release ${selector ?? 'default'} is not loaded (loaded: ${selection.available.join(', ') || 'none'})`,
  );
}
