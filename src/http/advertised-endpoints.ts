/**
 * What the startup message advertises, derived from the routes actually registered so that it names only endpoints
 * that answer: the REST base, each FHIR base with a route under it, the MCP endpoint, and the API reference when /docs is served.
 */
import type { FastifyInstance } from 'fastify';

const FHIR_VERSIONS = ['r4', 'r4b', 'r5', 'r6'] as const;

const routePathsByApp = new WeakMap<FastifyInstance, string[]>();

/** Starts remembering the path of every route registered on `app` from now on (call before registering routes). */
export function recordRoutePaths(app: FastifyInstance): void {
  const paths: string[] = [];
  routePathsByApp.set(app, paths);
  app.addHook('onRoute', (route) => {
    paths.push(route.url);
  });
}

export function registeredRoutePaths(app: FastifyInstance): readonly string[] {
  return routePathsByApp.get(app) ?? [];
}

/** "REST <url>/v1, FHIR <url>/fhir/r4, MCP <url>/mcp, API reference <url>/docs" — only the parts whose routes are registered. */
export function advertisedEndpoints(baseUrl: string, routePaths: readonly string[]): string {
  const under = (prefix: string) => routePaths.some((p) => p === prefix || p.startsWith(`${prefix}/`));
  const parts: string[] = [];
  if (under('/v1')) parts.push(`REST ${baseUrl}/v1`);
  const versionParameter = routePaths.some((p) => /^\/fhir\/:[^/]+/.test(p));
  const fhirVersions = FHIR_VERSIONS.filter((v) => versionParameter || under(`/fhir/${v}`));
  if (fhirVersions.length === 1) parts.push(`FHIR ${baseUrl}/fhir/${fhirVersions[0]}`);
  else if (fhirVersions.length > 1) parts.push(`FHIR ${baseUrl}/fhir/{${fhirVersions.join(',')}}`);
  if (under('/mcp')) parts.push(`MCP ${baseUrl}/mcp`);
  if (under('/docs')) parts.push(`API reference ${baseUrl}/docs`);
  return parts.join(', ');
}
