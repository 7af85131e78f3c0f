/**
 * The FHIR terminology surface (/fhir/{r4,r4b,r5,r6}): body parsers for FHIR JSON and XML, and every
 * FHIR interaction, one adapter file each under ./fhir/operations/ (named for the interaction, e.g.
 * valueset-expand.ts), each registering itself through ./fhir/fhir-operation.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { ReleaseRegistry } from '../store/release-registry.js';
import { installFhirBodyParsers } from './fhir/fhir-format.js';
import { registerBatchBundle } from './fhir/operations/batch.js';
import { registerDiffOperation } from './fhir/operations/codesystem-diff.js';
import { registerFindMatchesOperation } from './fhir/operations/codesystem-find-matches.js';
import { registerLookupOperation } from './fhir/operations/codesystem-lookup.js';
import { registerCodeSystemResources } from './fhir/operations/codesystem-read-search.js';
import { registerSubsumesOperation } from './fhir/operations/codesystem-subsumes.js';
import { registerCodeSystemValidateCodeOperation } from './fhir/operations/codesystem-validate-code.js';
import { registerClosureOperation } from './fhir/operations/conceptmap-closure.js';
import { registerTranslateOperation } from './fhir/operations/conceptmap-translate.js';
import { registerMetadataOperations } from './fhir/operations/metadata.js';
import { registerExpandOperation } from './fhir/operations/valueset-expand.js';
import { registerValueSetSearch } from './fhir/operations/valueset-search.js';
import { registerValueSetValidateCodeOperation } from './fhir/operations/valueset-validate-code.js';

/** `registry`: every loaded release (CodeSystem/omop-v… of any release; a batch entry's own vocab_release). */
export function registerFhirSurface(app: FastifyInstance, registry: ReleaseRegistry): void {
  installFhirBodyParsers(app);
  // The order is the order of the OpenAPI paths and of the CapabilityStatement's operations.
  registerMetadataOperations(app);
  registerLookupOperation(app);
  registerCodeSystemValidateCodeOperation(app);
  registerSubsumesOperation(app);
  registerValueSetSearch(app);
  registerClosureOperation(app);
  registerExpandOperation(app);
  registerValueSetValidateCodeOperation(app);
  registerTranslateOperation(app);
  registerCodeSystemResources(app, registry);
  registerFindMatchesOperation(app);
  registerDiffOperation(app, registry);
  // Last: a batch runs the interactions registered before it.
  registerBatchBundle(app, registry);
}
