/**
 * Where every selector of a release becomes an open release or an error: the REST and FHIR gate, FHIR batch entries,
 * the $diff parameters and the MCP tools' `vocab_release` argument all call this one resolver (ReleaseRegistry.select
 * understands every spelling), so the messages are written once.
 */
import type { OpenRelease, ReleaseRegistry } from '../store/release-registry.js';
import { ServiceError } from './errors.js';

export interface ReleaseSelectorSource {
  /** The error shape: FHIR answers an unknown release with 404 not-found (Errors rule 2), every other surface with 400. */
  surface: 'rest' | 'fhir' | 'page' | 'mcp';
  /** The parameter the selector came from, named in the message (`fromVersion`, `Bundle.entry[2].request.url`); default vocab_release. */
  parameter?: string;
}

/** The 503 when the server has no release at all. */
export function noReleaseLoaded(): ServiceError {
  return new ServiceError(503, 'service_unavailable', 'No vocabulary release is loaded on this server yet: run `omopterm load <athena-dir> --release YYYY.Q`.');
}

/** The error of a selector that names no loaded release, listing the releases on the server. */
export function releaseNotFound(selector: string, available: readonly string[], source: ReleaseSelectorSource): ServiceError {
  const where = source.parameter ? `Parameter '${source.parameter}': unknown` : 'Unknown';
  return new ServiceError(
    source.surface === 'fhir' ? 404 : 400,
    'release_not_found',
    `${where} vocabulary release '${selector}'. Releases on this server: ${available.join(', ')} ` +
      "(or latest/default/current, or a release's vocabulary date as its FHIR code-system version: YYYYMMDD or omop-vYYYYMMDD).",
    { requested: selector, available_releases: [...available], ...(source.parameter ? { parameter: source.parameter } : {}) },
  );
}

/** The release a selector names (undefined or empty: the default release), or the documented error. */
export function resolveRelease(registry: ReleaseRegistry, selector: string | undefined, source: ReleaseSelectorSource): OpenRelease {
  const selection = registry.select(selector);
  if (selection.ok) return selection.release;
  if (selection.reason === 'none_loaded') throw noReleaseLoaded();
  throw releaseNotFound(selector ?? '', selection.available, source);
}
