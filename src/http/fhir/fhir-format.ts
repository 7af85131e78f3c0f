/**
 * FHIR wire formats: JSON (the default) or XML, chosen by `_format`, else the Accept header, with `_pretty`;
 * answers are written as XML by FHIR's version-independent rules (./fhir-xml.ts) and XML bodies read by the `fhir`
 * library.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Fhir } from 'fhir';
import { ServiceError } from '../../services/errors.js';
import { FHIR_JSON_TYPE, registerFhirResourceWriter } from '../plumbing/error-responses.js';
import { resourceToXml, xmlWellFormednessError } from './fhir-xml.js';

export const FHIR_XML_TYPE = 'application/fhir+xml; charset=utf-8';

export type FhirFormat = 'json' | 'xml';

const XML_FORMATS = new Set(['xml', 'text/xml', 'application/xml', 'application/fhir+xml']);
const JSON_FORMATS = new Set(['json', 'application/json', 'application/fhir+json']);

/** Reads FHIR XML request bodies. */
const xmlReader = new Fhir();

function firstQueryValue(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

/** The format the client asked for (`_format` wins over Accept; JSON when neither names XML). */
export function requestedFormat(request: FastifyRequest): FhirFormat {
  const format = firstQueryValue(request, '_format')?.split(';')[0]?.trim().toLowerCase();
  if (format && XML_FORMATS.has(format)) return 'xml';
  if (format && JSON_FORMATS.has(format)) return 'json';
  const accept = String(request.headers.accept ?? '').toLowerCase();
  const xmlAt = Math.min(...['application/fhir+xml', 'application/xml', 'text/xml'].map((t) => accept.indexOf(t)).filter((i) => i >= 0), Infinity);
  const jsonAt = Math.min(...['application/fhir+json', 'application/json'].map((t) => accept.indexOf(t)).filter((i) => i >= 0), Infinity);
  return xmlAt < jsonAt ? 'xml' : 'json';
}

/** A resource as the body in the requested format, with its content type. */
export function serializeResource(request: FastifyRequest, resource: object): { contentType: string; body: string } {
  const pretty = firstQueryValue(request, '_pretty') === 'true';
  if (requestedFormat(request) === 'xml') return { contentType: FHIR_XML_TYPE, body: resourceToXml(resource, { pretty }) };
  return { contentType: FHIR_JSON_TYPE, body: JSON.stringify(resource, null, pretty ? 2 : undefined) };
}

export function sendResource(request: FastifyRequest, reply: FastifyReply, resource: object): FastifyReply {
  const { contentType, body } = serializeResource(request, resource);
  return reply.type(contentType).send(body);
}

/** The 415 for a FHIR content type sent to a route outside /fhir (REST routes read JSON only). */
function outsideFhir(request: FastifyRequest): ServiceError | undefined {
  if (request.surface === 'fhir') return undefined;
  const type = String(request.headers['content-type'] ?? '');
  return new ServiceError(415, 'unsupported_media_type', `Unsupported Content-Type '${type}': this route reads application/json.`, {
    header: 'content-type',
  });
}

/**
 * Request bodies on /fhir: FHIR JSON as JSON, FHIR XML (and application/xml, text/xml) converted to
 * its JSON form; and errors on /fhir written in the requested format (sendResource).
 */
export function installFhirBodyParsers(app: FastifyInstance): void {
  registerFhirResourceWriter(sendResource);
  app.addContentTypeParser(['application/fhir+json'], { parseAs: 'string' }, (request, body, done) => {
    const refused = outsideFhir(request);
    if (refused) return done(refused, undefined);
    try {
      done(null, body === '' ? undefined : JSON.parse(body as string));
    } catch (err) {
      done(new ServiceError(400, 'validation_error', `The request body is not valid JSON: ${(err as Error).message}`), undefined);
    }
  });
  app.addContentTypeParser(['application/fhir+xml', 'application/xml', 'text/xml'], { parseAs: 'string' }, (request, body, done) => {
    const refused = outsideFhir(request);
    if (refused) return done(refused, undefined);
    if (body === '') return done(null, undefined);
    // The fhir library reads a document cut short (`<Parameters><oops`) as an empty resource: check first.
    const malformed = xmlWellFormednessError(body as string);
    if (malformed !== null) return done(new ServiceError(400, 'validation_error', `The request body is not well-formed XML: ${malformed}.`), undefined);
    try {
      done(null, xmlReader.xmlToObj(body as string));
    } catch (err) {
      done(new ServiceError(400, 'validation_error', `The request body is not a FHIR XML resource: ${(err as Error).message}`), undefined);
    }
  });
}
