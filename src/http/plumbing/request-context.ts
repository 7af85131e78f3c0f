/**
 * What the cross-cutting hooks attach to every request before a route handler runs.
 * Route handlers read concepts through `request.view` (the selected release seen with the caller's
 * licence rules); they never authenticate, select a release, apply licences or count calls themselves.
 */
import type { LicenceRules } from '../../licences/licence-rules.js';
import type { ReleaseView } from '../../services/release-view.js';
import type { ApiKeyRecord, BrowserSession, RateDecision } from '../../state/state-store.js';

/** Which error shape a request gets: the REST envelope, a FHIR OperationOutcome or an HTML page (the browser). */
export type Surface = 'rest' | 'fhir' | 'page';

export interface Caller {
  /** Null only for a browser page on a server that lets the browser run without a key (anonymous licence rules). */
  key: ApiKeyRecord | null;
  licences: LicenceRules;
}

/**
 * Who may open a browser page: `open` pages (sign-in, assets) need no session; `signed-in` pages need a browser
 * session (or the server's anonymous browsing) and get a release view like an API route.
 */
export type PageAccess = 'open' | 'signed-in';

declare module 'fastify' {
  interface FastifyRequest {
    surface: Surface;
    /** Set for every authenticated request (all /v1 and /fhir routes). */
    caller: Caller;
    /**
     * Set for every route that works on a release (all /v1 and /fhir routes): the selected release seen with the
     * caller's licence rules. Every read of a route goes through it (a service function or a view method); its
     * label, manifest and build are members; its store is for services only.
     */
    view: ReleaseView;
    rateDecision: RateDecision | undefined;
    /** Page routes: the browser's live session, if any (its id is in the session cookie). */
    browserSession: BrowserSession | null;
    startedAt: bigint;
  }
  interface FastifyContextConfig {
    /** Route needs no API key and no release (health, API reference); every other route needs a key. */
    public?: boolean;
    /** A browser page or fragment (HTML): authenticated by the session cookie instead of a Bearer key. */
    page?: PageAccess;
    /** The response may be cached (fingerprinted static assets); every other answer is Cache-Control: no-store. */
    cacheable?: boolean;
    /**
     * The request carries calls the route admits one by one (MCP over HTTP: one call per tool call, each on the release
     * it names): the gate authenticates (API key or OAuth access token) and rate-limits the request, but neither meters
     * it nor selects a release.
     */
    perCallAdmission?: boolean;
  }
}

/** The surface of a path as the router sees it (a route's template, or a normalised path). */
export function surfaceOfPath(path: string): Surface {
  return path === '/fhir' || path.startsWith('/fhir/') ? 'fhir' : 'rest';
}

/**
 * A request target reduced to the path the router would have compared: origin of an
 * absolute-form target dropped, percent-escapes decoded, repeated slashes collapsed, dot segments
 * resolved, lower case. Used only to choose the error shape for requests that match no route.
 */
export function normalisedPath(requestTarget: string): string {
  let path = requestTarget.split('?')[0]!;
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path);
  if (origin) path = path.slice(origin[0].length);
  path = path.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`.toLowerCase();
}
