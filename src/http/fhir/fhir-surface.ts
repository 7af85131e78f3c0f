/**
 * The FHIR terminology surface (/fhir/{r4,r4b,r5,r6}): body parsers for FHIR JSON and XML, and every
 * FHIR interaction. Each group of operations registers itself through ./fhir-operation.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { ReleaseRegistry } from '../../store/release-registry.js';
import { registerBatchBundle } from './batch-bundle.js';
import { registerDiffOperation } from './codesystem-diff.js';
import { registerFindMatchesOperation } from './codesystem-find-matches.js';
import { registerCodeSystemOperations } from './codesystem-operations.js';
import { registerCodeSystemResources } from './codesystem-resources.js';
import { registerTranslateOperation } from './conceptmap-translate.js';
import { installFhirBodyParsers } from './fhir-format.js';
import { registerMetadataOperations } from './metadata-operations.js';
import { registerValueSetSearchAndClosure } from './valueset-closure-operations.js';
import { registerValueSetOperations } from './valueset-operations.js';

/** `registry`: every loaded release (CodeSystem/omop-v… of any release; a batch entry's own vocab_release). */
export function registerFhirSurface(app: FastifyInstance, registry: ReleaseRegistry): void {
  installFhirBodyParsers(app);
  registerMetadataOperations(app);
  registerCodeSystemOperations(app);
  registerValueSetSearchAndClosure(app);
  registerValueSetOperations(app);
  registerTranslateOperation(app);
  registerCodeSystemResources(app, registry);
  registerFindMatchesOperation(app);
  registerDiffOperation(app, registry);
  // Last: a batch runs the interactions registered before it.
  registerBatchBundle(app, registry);
}
