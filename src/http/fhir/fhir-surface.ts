/**
 * The FHIR terminology surface (/fhir/{r4,r4b,r5,r6}): body parsers for FHIR JSON and XML, and every
 * FHIR interaction, one adapter file each under ./operations/ (named for the interaction, e.g.
 * valueset-expand.ts), each registering itself through ./fhir-operation.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { ReleaseRegistry } from '../../store/release-registry.js';
import { installFhirBodyParsers } from './fhir-format.js';
import { registerBatchBundle } from './operations/batch.js';
import { registerDiffOperation } from './operations/codesystem-diff.js';
import { registerFindMatchesOperation } from './operations/codesystem-find-matches.js';
import { registerLookupOperation } from './operations/codesystem-lookup.js';
import { registerCodeSystemResources } from './operations/codesystem-read-search.js';
import { registerSubsumesOperation } from './operations/codesystem-subsumes.js';
import { registerCodeSystemValidateCodeOperation } from './operations/codesystem-validate-code.js';
import { registerClosureOperation } from './operations/conceptmap-closure.js';
import { registerTranslateOperation } from './operations/conceptmap-translate.js';
import { registerMetadataOperations } from './operations/metadata.js';
import { registerExpandOperation } from './operations/valueset-expand.js';
import { registerValueSetSearch } from './operations/valueset-search.js';
import { registerValueSetValidateCodeOperation } from './operations/valueset-validate-code.js';

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
