/**
 * ConceptMap/$closure (E11, POST only, stateless) on every FHIR version: writes the subsumption pairs found by
 * src/services/terminology/closure.ts as the "FHIR closure result" ConceptMap.
 */
import type { FastifyInstance } from 'fastify';
import { MAX_CLOSURE_CONCEPTS, subsumptionClosure, type SubsumptionPair } from '../../../services/terminology/closure.js';
import { registerFhirOperation, usesR5Terminology, type FhirVersion } from '../fhir-operation.js';

const CLOSURE_PATH = '/ConceptMap/$closure';

/** The ConceptMap's name when the request sends none (E11: `name` is optional). */
const DEFAULT_CLOSURE_NAME = 'closure';

/** "FHIR closure result": one group per (ancestor system, descendant system), one element per ancestor code. */
function closureConceptMap(name: string, pairs: readonly SubsumptionPair[], version: FhirVersion): object {
  const target = usesR5Terminology(version)
    ? (code: string) => ({ code, relationship: 'source-is-broader-than-target' })
    : (code: string) => ({ code, equivalence: 'subsumes' });
  const groups = new Map<string, { source: string; target: string; elements: Map<string, Array<ReturnType<typeof target>>> }>();
  for (const { ancestor, descendant } of pairs) {
    const key = `${ancestor.system}\u0000${descendant.system}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { source: ancestor.system, target: descendant.system, elements: new Map() }));
    let targets = group.elements.get(ancestor.code);
    if (!targets) group.elements.set(ancestor.code, (targets = []));
    targets.push(target(descendant.code));
  }
  return {
    resourceType: 'ConceptMap',
    name,
    status: 'active',
    group: [...groups.values()].map((g) => ({
      source: g.source,
      target: g.target,
      element: [...g.elements].map(([code, targets]) => ({ code, target: targets })),
    })),
  };
}

export function registerClosureOperation(app: FastifyInstance): void {
  registerFhirOperation(app, {
    methods: ['POST'],
    path: CLOSURE_PATH,
    summary: 'Subsumption closure of a set of codes (stateless)',
    description:
      `ConceptMap/$closure (spec E11), POST only, stateless. Body: a Parameters resource with an optional \`name\` (valueString, echoed as the ` +
      `ConceptMap's name, not kept) and 1 to ${MAX_CLOSURE_CONCEPTS} \`concept\` parameters (valueCoding with system and code; the system is ` +
      '`https://fhir-terminology.ohdsi.org` with a concept_id, or a vocabulary code-system URI with its code). Answers a ConceptMap with every ' +
      'subsumption pair among the codes (CONCEPT_ANCESTOR, a concept with itself excluded): one group per (source system, target system), ' +
      'element.code the ancestor, target[].code its descendants, with equivalence `subsumes` (r4, r4b) or relationship ' +
      '`source-is-broader-than-target` (r5, r6). Codes the release does not hold are left out. 400 `invalid` for no concept, more than ' +
      `${MAX_CLOSURE_CONCEPTS}, a coding without system or code, or an unknown system; 403 for a vocabulary the key may not read.`,
    methodNotAllowed: 'ConceptMap/$closure takes POST only (spec E11): send the Parameters resource as the request body.',
    handler: ({ version, params, view }) =>
      closureConceptMap(params.get('name')?.trim() || DEFAULT_CLOSURE_NAME, subsumptionClosure(view, params.codings('concept')), version),
  });
}
