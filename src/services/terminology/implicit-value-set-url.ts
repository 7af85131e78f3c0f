/**
 * Implicit ValueSet URLs (E12): a code system's URI followed by `?fhir_vs` or `?fhir_vs=isa/{code}`, read again
 * after one more percent-decoding when needed, since clients in front of HAPI and EHRbase encode the `url` twice.
 */

export type ImplicitValueSetUrl =
  /** `{system}?fhir_vs`: all concepts of the code system. */
  | { url: string; system: string; kind: 'all' }
  /** `{system}?fhir_vs=isa/{code}`: the concept `code` and its descendants. */
  | { url: string; system: string; kind: 'isa'; code: string };

const IMPLICIT_PATTERN = /^([^?#\s]+)\?fhir_vs(?:=isa\/([^&#]+))?$/;

function readImplicit(url: string): ImplicitValueSetUrl | undefined {
  const match = IMPLICIT_PATTERN.exec(url);
  if (!match) return undefined;
  const [, system = '', code] = match;
  return code === undefined ? { url, system, kind: 'all' } : { url, system, kind: 'isa', code };
}

/** The value decoded once more, or undefined when it holds no percent-escape or a malformed one. */
function decodedOnceMore(value: string): string | undefined {
  if (!/%[0-9A-Fa-f]{2}/.test(value)) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/** The implicit ValueSet a `url` search value names (as sent, or once more decoded), or undefined. */
export function parseImplicitValueSetUrl(value: string): ImplicitValueSetUrl | undefined {
  const sent = value.trim();
  const direct = readImplicit(sent);
  if (direct) return direct;
  const decoded = decodedOnceMore(sent);
  return decoded === undefined ? undefined : readImplicit(decoded.trim());
}
