/**
 * Assembles the HTTP application: the cross-cutting plumbing first (request ids, gate, errors, headers, body
 * encoding, number checks, API reference), then the thin REST and FHIR adapters; routes need a key unless
 * `config.public`.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { randomUUID } from 'node:crypto';
import { WorkerPool } from '../threads/worker-pool.js';
import type { StateStore } from '../state/state-store.js';
import type { SemanticIndexRegistry } from '../services/semantic/semantic-index-registry.js';
import type { ReleaseRegistry } from '../store/release-registry.js';
import { recordRoutePaths } from './advertised-endpoints.js';
import { installBodyEncodingCheck } from './plumbing/body-encoding.js';
import { installErrorHandling } from './plumbing/error-responses.js';
import { installFiniteNumbers } from './plumbing/finite-numbers.js';
import { frameworkErrorResponder } from './plumbing/framework-errors.js';
import { installGatekeeper } from './plumbing/gatekeeper.js';
import { installResponseHeaders } from './plumbing/response-headers.js';
import { registerConceptClassRoutes } from './rest/concept-class-routes.js';
import { registerConceptRoutes } from './rest/concept-routes.js';
import { registerConceptSetRoutes } from './rest/concept-set-routes.js';
import { registerRelationshipRoutes } from './rest/relationship-routes.js';
import { registerRelatedRoutes } from './rest/related-routes.js';
import { registerRelationshipBatchRoutes } from './rest/relationship-batch-routes.js';
import { registerDomainRoutes } from './rest/domain-routes.js';
import { registerFhirSurface } from './fhir-surface.js';
import { registerMcpRoute, type McpHttpOptions } from './mcp-route.js';
import { registerOAuth2TokenRoute } from './oauth2-token-route.js';
import { registerPages } from './pages/register-pages.js';
import { registerFhirResolverRoutes } from './rest/fhir-resolver-routes.js';
import { registerHealthRoutes } from './rest/health-routes.js';
import { registerHierarchyRoutes } from './rest/hierarchy-routes.js';
import { registerMappingQualityRoutes } from './rest/mapping-quality-routes.js';
import { registerMappingJobRoutes } from './rest/mapping-job-routes.js';
import { registerMappingRoutes } from './rest/mapping-routes.js';
import { inProcessTermMapper, MappingJobRunner, type MappingJobRelay, type TermMapper } from './mapping-jobs/mapping-job-runner.js';
import type { McpSessionDirectory } from './mcp-sessions.js';
import { registerSearchRoutes } from './rest/search-routes.js';
import { registerSemanticRoutes } from './rest/semantic-routes.js';
import { registerStatisticsRoutes } from './rest/statistics-routes.js';
import { registerVocabularyConceptRoutes } from './rest/vocabulary-concepts-routes.js';
import { registerVocabularyRoutes } from './rest/vocabulary-routes.js';

export interface AppDependencies {
  registry: ReleaseRegistry;
  state: StateStore;
  version: string;
  /** Runs heavy requests on worker threads (routes: `request.server.workerPool`); without it they run on the event loop, one per turn. */
  workerPool?: WorkerPool;
  /** Each release's vectors and the query provider of semantic search (routes: `request.server.semanticIndexes`). */
  semanticIndexes: SemanticIndexRegistry;
  /** Maps the terms of mapping jobs (the server's worker pool); without it they are mapped on the request thread between requests. */
  mapTerms?: TermMapper;
  /** Host and Origin rules of /mcp (default: any host, the server's own origin only). */
  mcp?: McpHttpOptions;
  /** Where /mcp records open sessions (default: this process's memory; the workers of `serve --workers N`: their primary). */
  mcpSessions?: McpSessionDirectory;
  /** Set when another process runs the mapping jobs (see MappingJobRunnerOptions.relay). */
  mappingJobRelay?: MappingJobRelay;
  /** The mapping job runner's name in its leases (see MappingJobRunnerOptions.runnerId). */
  mappingJobRunnerId?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    semanticIndexes: SemanticIndexRegistry;
    /** Where heavy requests are computed (src/threads/worker-pool.ts): the route decides, the pool computes. */
    workerPool: WorkerPool;
    /** Runs the queued mapping jobs in the background (started when the app is ready, stopped when it closes). */
    mappingJobs: MappingJobRunner;
  }
}

export interface AppOptions {
  /** Addresses/CIDRs of TLS-terminating proxies whose X-Forwarded-* headers are trusted. */
  trustProxy?: string[];
  anonymousRatePerSecond?: number;
  /** Let the browser's pages run without a key, under the anonymous rate and licence rules (off by default). */
  anonymousBrowsing?: boolean;
  logger?: FastifyServerOptions['logger'];
  serverFactory?: FastifyServerOptions['serverFactory'];
  /** Answers malformed or timed-out HTTP on the server's sockets (see ./transport.ts). */
  clientErrorHandler?: FastifyServerOptions['clientErrorHandler'];
}

export const DEFAULT_ANONYMOUS_RATE = 20;
/** Longest path parameter the router accepts (longer → 400 validation_error). */
const MAX_PARAM_LENGTH = 1000;

export async function buildApp(deps: AppDependencies, options: AppOptions = {}): Promise<FastifyInstance> {
  const anonymousRatePerSecond = options.anonymousRatePerSecond ?? DEFAULT_ANONYMOUS_RATE;
  const app = Fastify({
    logger: options.logger ?? false,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    trustProxy: options.trustProxy && options.trustProxy.length ? options.trustProxy : false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: frameworkErrorResponder({ state: deps.state, anonymousRatePerSecond, maxParamLength: MAX_PARAM_LENGTH }),
    ajv: { customOptions: { coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false } },
    ...(options.serverFactory ? { serverFactory: options.serverFactory } : {}),
    ...(options.clientErrorHandler ? { clientErrorHandler: options.clientErrorHandler } : {}),
  } as FastifyServerOptions);
  recordRoutePaths(app);
  app.decorate('semanticIndexes', deps.semanticIndexes);
  app.decorate('workerPool', deps.workerPool ?? new WorkerPool({ threads: 0, semanticIndexes: deps.semanticIndexes }));
  const mappingJobs = new MappingJobRunner({
    state: deps.state,
    registry: deps.registry,
    mapTerms: deps.mapTerms ?? inProcessTermMapper(deps.semanticIndexes),
    relay: deps.mappingJobRelay,
    ...(deps.mappingJobRunnerId ? { runnerId: deps.mappingJobRunnerId } : {}),
    onNotice: (line) => app.log.warn(line),
  });
  app.decorate('mappingJobs', mappingJobs);
  // Jobs interrupted by the last shutdown resume once the server is up; the runner stops before the state closes.
  app.addHook('onReady', async () => mappingJobs.kick());
  app.addHook('onClose', async () => mappingJobs.close());

  installGatekeeper(app, {
    state: deps.state,
    registry: deps.registry,
    anonymousRatePerSecond,
    anonymousBrowsing: options.anonymousBrowsing ?? false,
  });
  installResponseHeaders(app);
  installErrorHandling(app);
  installBodyEncodingCheck(app);
  installFiniteNumbers(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'omopterm',
        version: deps.version,
        description:
          'Self-hosted terminology server for the OMOP standardized vocabularies. REST surface under /v1 (OMOPHub-compatible ' +
          'JSON envelope), FHIR terminology surface under /fhir/{r4,r4b,r5,r6}, MCP server for LLM agents at /mcp. HTTPS only; every request needs ' +
          '`Authorization: Bearer <API key>` (on /fhir and /mcp also an OAuth 2.0 token from POST /oauth2/token). Select a vocabulary release with `vocab_release` or the X-Vocab-Release header.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  // The browsable reference and its assets are public: every route registered in this scope says so.
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, public: true };
    });
    await docs.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } });
  });
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());

  registerHealthRoutes(app, deps.registry, deps.version, deps.state);
  await registerPages(app, { registry: deps.registry, version: deps.version, anonymousBrowsing: options.anonymousBrowsing ?? false, state: deps.state });
  registerConceptRoutes(app);
  registerConceptSetRoutes(app, deps.registry);
  registerHierarchyRoutes(app);
  registerRelationshipRoutes(app);
  registerRelatedRoutes(app);
  registerRelationshipBatchRoutes(app);
  registerVocabularyRoutes(app, deps.registry);
  registerSearchRoutes(app);
  registerSemanticRoutes(app);
  registerFhirResolverRoutes(app);
  registerFhirSurface(app, deps.registry);
  registerOAuth2TokenRoute(app, deps.state);
  registerVocabularyConceptRoutes(app);
  registerMappingQualityRoutes(app);
  registerMappingRoutes(app);
  await registerMappingJobRoutes(app, { state: deps.state, registry: deps.registry, runner: mappingJobs });
  registerDomainRoutes(app);
  registerConceptClassRoutes(app);
  registerStatisticsRoutes(app, deps.registry);
  registerMcpRoute(app, {
    registry: deps.registry,
    state: deps.state,
    semanticIndexes: deps.semanticIndexes,
    version: deps.version,
    options: deps.mcp ?? { allowedHostNames: null, allowedOrigins: [] },
    sessions: deps.mcpSessions,
  });

  return app;
}
