/**
 * How a FHIR interaction is registered: once per path under `/fhir/{version}` for the four wire versions, its
 * handler getting the request's release view and returning a resource shaped for the version, which the edge
 * serialises; another method on the path is a 405.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ReleaseView } from '../../services/release-view.js';
import { notFound, ServiceError } from '../../services/errors.js';
import { noSuchEndpoint } from '../plumbing/error-responses.js';
import { ReleaseQuery } from '../plumbing/schemas.js';
import { sendResource } from './fhir-format.js';
import { OperationParameters } from './operation-parameters.js';

export const FHIR_VERSIONS = ['r4', 'r4b', 'r5', 'r6'] as const;
export type FhirVersion = (typeof FHIR_VERSIONS)[number];

/** The FHIR release each path version speaks (CapabilityStatement.fhirVersion). */
export const FHIR_RELEASE_NUMBERS: Record<FhirVersion, string> = { r4: '4.0.1', r4b: '4.3.0', r5: '5.0.0', r6: '6.0.0-ballot3' };

/** Versions whose ConceptMap speaks R5 `relationship` rather than R4 `equivalence` (reading note 11). */
export function usesR5Terminology(version: FhirVersion): boolean {
  return version === 'r5' || version === 'r6';
}

export interface FhirOperationContext {
  request: FastifyRequest;
  version: FhirVersion;
  params: OperationParameters;
  /** The selected release seen with the caller's licence rules (label: view.label): every concept read goes through it. */
  view: ReleaseView;
}

export interface FhirOperationSpec {
  methods: ReadonlyArray<'GET' | 'POST'>;
  /** After /fhir/{version}, e.g. '/CodeSystem/$lookup'; a `:name` segment is a path parameter (request.params.name). */
  path: string;
  summary: string;
  description: string;
  handler(ctx: FhirOperationContext): object | Promise<object>;
  /** The 405 message for another method (default: which methods the path takes). */
  methodNotAllowed?: string;
}

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

/** The path version, or 404 not-found naming the versions served. */
export function fhirVersionOf(request: FastifyRequest): FhirVersion {
  const version = (request.params as { fhirVersion?: string }).fhirVersion ?? '';
  if ((FHIR_VERSIONS as readonly string[]).includes(version)) return version as FhirVersion;
  throw notFound(`FHIR version '${version}' is not served here; use one of ${FHIR_VERSIONS.join(', ')} (/fhir/r4/…).`);
}

/**
 * The version of the OMOP code system for a release (`https://fhir-terminology.ohdsi.org`): the
 * vocabulary release date as YYYYMMDD (as tx.fhir.org and the HL7 OMOP tests write it), else the
 * release label.
 */
export function fhirCodeSystemVersion(view: ReleaseView): string {
  return view.codeSystemVersion;
}

/** The query every FHIR route takes besides its own parameters: output format and release. */
export const FhirQuery = Type.Object(
  {
    _format: Type.Optional(Type.String({ description: 'json (default) or xml (also the MIME types application/fhir+json, application/fhir+xml).' })),
    _pretty: Type.Optional(Type.String({ description: 'true: indented output.' })),
    ...ReleaseQuery,
  },
  { additionalProperties: true, description: 'Operation parameters as the FHIR operation defines them; a Coding parameter (coding, codingA, sourceCoding, …) as system|code.' },
);

/** The FHIR interactions registered on each app, in registration order (the batch Bundle runs its entries through them). */
const REGISTERED_OPERATIONS = new WeakMap<FastifyInstance, FhirOperationSpec[]>();

export function registeredFhirOperations(app: FastifyInstance): readonly FhirOperationSpec[] {
  // A plugin scope (the browser pages' one) is an object whose prototype is the instance it was registered on: walk up
  // to the instance the FHIR surface registered its interactions on.
  for (let scope: object | null = app; scope !== null; scope = Object.getPrototypeOf(scope) as object | null) {
    const found = REGISTERED_OPERATIONS.get(scope as FastifyInstance);
    if (found) return found;
  }
  return [];
}

/** The `:name` segments of an operation path (`/CodeSystem/:id` → ['id']). */
export function pathParameterNames(path: string): string[] {
  return path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));
}

export function registerFhirOperation(app: FastifyInstance, spec: FhirOperationSpec): void {
  const url = `/fhir/:fhirVersion${spec.path}`;
  REGISTERED_OPERATIONS.set(app, [...registeredFhirOperations(app), spec]);
  const pathParameters = Object.fromEntries(pathParameterNames(spec.path).map((name) => [name, Type.String()]));
  for (const method of spec.methods) {
    app.route({
      method,
      url,
      schema: {
        tags: ['FHIR'],
        summary: spec.summary,
        description: `${spec.description} FHIR version by path: ${FHIR_VERSIONS.join(', ')}.`,
        params: Type.Object({ fhirVersion: Type.String({ description: FHIR_VERSIONS.join(', ') }), ...pathParameters }),
        querystring: FhirQuery,
      },
      handler: async (request, reply) => {
        const version = fhirVersionOf(request);
        const query = request.query as Record<string, string | string[] | undefined>;
        const params = method === 'POST' ? OperationParameters.fromBody(request.body, query) : OperationParameters.fromQuery(query);
        const resource = await spec.handler({
          request,
          version,
          params,
          view: request.view,
        });
        return sendResource(request, reply, resource);
      },
    });
  }
  // `CodeSystem/{id}` as FHIR writes an instance path.
  const name = spec.path.replace(/^\//, '').replace(/:(\w+)/g, '{$1}');
  const parameterNames = pathParameterNames(spec.path);
  app.route({
    method: HTTP_METHODS.filter((m) => !(spec.methods as readonly string[]).includes(m)),
    url,
    schema: { hide: true },
    handler: (request) => {
      fhirVersionOf(request);
      // `POST CodeSystem/$unknown` only looks like the read path `CodeSystem/{id}`: it names an operation this server lacks.
      const params = request.params as Record<string, string>;
      if (parameterNames.some((p) => params[p]?.startsWith('$'))) throw noSuchEndpoint(request);
      throw new ServiceError(405, 'method_not_allowed', spec.methodNotAllowed ?? `${name} takes ${spec.methods.join(' or ')} only, not ${request.method}.`, undefined, {
        Allow: spec.methods.join(', '),
      });
    },
  });
}
