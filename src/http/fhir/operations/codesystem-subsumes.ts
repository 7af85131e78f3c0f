/**
 * CodeSystem/$subsumes on every FHIR version (the same on all), GET and POST: reads `codeA`, `codeB`
 * and `system` (or `codingA`, `codingB`) and `version`, asks src/services/terminology/subsumption.ts
 * and writes the `outcome` as a Parameters resource.
 */
import type { FastifyInstance } from 'fastify';
import { validationError } from '../../../services/errors.js';
import { terminologySystem } from '../../../services/terminology/code-system-concept.js';
import { subsumption } from '../../../services/terminology/subsumption.js';
import { fhirCodeSystemVersion, registerFhirOperation, type FhirOperationContext } from '../fhir-operation.js';
import { parametersResource } from '../fhir-resources.js';
import { requiredParameter as required } from '../operation-parameters.js';

function subsumes(ctx: FhirOperationContext): object {
  const { params } = ctx;
  const system = params.get('system');
  const codingA = params.coding('codingA');
  const codingB = params.coding('codingB');
  const codeA = required(params.get('codeA') ?? codingA?.code, "Parameter 'codeA' (or 'codingA' with a code) is required.", 'codeA');
  const codeB = required(params.get('codeB') ?? codingB?.code, "Parameter 'codeB' (or 'codingB' with a code) is required.", 'codeB');
  const systems = [codingA?.system, codingB?.system, system].filter((s): s is string => s !== undefined);
  const chosen = required(systems[0], "Parameter 'system' (or codings with a system) is required.", 'system');
  const sameSystem = (s: string) => s === chosen || (terminologySystem(s)?.canonical ?? s) === (terminologySystem(chosen)?.canonical ?? chosen);
  if (!systems.every(sameSystem)) throw validationError(`codeA and codeB must be codes of one code system; got ${[...new Set(systems)].join(' and ')}.`, { parameter: 'system' });
  const version = params.get('version') ?? codingA?.version ?? codingB?.version;
  const outcome = subsumption(ctx.view, fhirCodeSystemVersion(ctx.view), {
    system: chosen,
    codeA,
    codeB,
    ...(version !== undefined ? { version } : {}),
  });
  return parametersResource([{ name: 'outcome', valueCode: outcome }]);
}

export function registerSubsumesOperation(app: FastifyInstance): void {
  registerFhirOperation(app, {
    methods: ['GET', 'POST'],
    path: '/CodeSystem/$subsumes',
    summary: 'Test the subsumption of two codes',
    description:
      '`codeA`, `codeB` and `system` (or `codingA`, `codingB`), `version`: `outcome` equivalent, subsumes (A is an ancestor of B in CONCEPT_ANCESTOR), subsumed-by or not-subsumed. Unknown system, version or code: 404 not-found.',
    handler: subsumes,
  });
}
