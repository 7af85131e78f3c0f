/**
 * What the cross-cutting hooks attach to every request before a route handler runs.
 * Route handlers read `request.caller` and `request.release`; they never authenticate, select a
 * release, or count calls themselves.
 */
import type { AccessPolicy } from '../../services/access-policy.js';
import type { ApiKeyRecord, RateDecision } from '../../state/state-store.js';
import type { OpenRelease } from '../../store/release-registry.js';

export type Surface = 'rest' | 'fhir' | 'public';

export interface Caller {
  key: ApiKeyRecord;
  policy: AccessPolicy;
}

declare module 'fastify' {
  interface FastifyRequest {
    surface: Surface;
    /** Set for every authenticated request (all /v1 and /fhir routes). */
    caller: Caller;
    /** Set for every route that works on a release (all /v1 and /fhir routes). */
    release: OpenRelease;
    rateDecision: RateDecision | undefined;
    startedAt: bigint;
  }
  interface FastifyContextConfig {
    /** Route needs no API key and no release (health, API reference). */
    public?: boolean;
  }
}

export function surfaceOf(url: string): Surface {
  if (url.startsWith('/v1/') || url === '/v1') return 'rest';
  if (url.startsWith('/fhir/') || url === '/fhir') return 'fhir';
  return 'public';
}
