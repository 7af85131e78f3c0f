/**
 * The FHIR terminology surface (/fhir/{r4,r4b,r5,r6}): body parsers for FHIR JSON and XML, and every
 * FHIR interaction. Each group of operations registers itself through ./fhir-operation.ts.
 */
import type { FastifyInstance } from 'fastify';
import { registerCodeSystemOperations } from './codesystem-operations.js';
import { registerTranslateOperation } from './conceptmap-translate.js';
import { installFhirBodyParsers } from './fhir-format.js';
import { registerMetadataOperations } from './metadata-operations.js';
import { registerValueSetSearchAndClosure } from './valueset-closure-operations.js';

export function registerFhirSurface(app: FastifyInstance): void {
  installFhirBodyParsers(app);
  registerMetadataOperations(app);
  registerCodeSystemOperations(app);
  registerValueSetSearchAndClosure(app);
  registerTranslateOperation(app);
}
