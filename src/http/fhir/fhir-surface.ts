/**
 * The FHIR terminology surface (/fhir/{r4,r4b,r5,r6}): body parsers for FHIR JSON and XML, and every
 * FHIR interaction. Each group of operations registers itself through ./fhir-operation.ts.
 */
import type { FastifyInstance } from 'fastify';
import { installFhirBodyParsers } from './fhir-format.js';
import { registerMetadataOperations } from './metadata-operations.js';

export function registerFhirSurface(app: FastifyInstance): void {
  installFhirBodyParsers(app);
  registerMetadataOperations(app);
}
