/**
 * CodeSystem/$find-matches on every FHIR version (POST): reads `system`, `version`, `exact` and the `property`
 * parts, calls src/services/terminology/find-matches.ts and writes each match as a `match` parameter.
 */
import type { FastifyInstance } from 'fastify';
import { validationError } from '../../../services/errors.js';
import { MATCH_LIMIT, findMatches, type ConceptMatch, type FindMatchesProperty } from '../../../services/terminology/find-matches.js';
import { fhirCodeSystemVersion, registerFhirOperation, usesR5Terminology, type FhirOperationContext } from '../fhir-operation.js';
import { parametersResource, type FhirParameter } from '../fhir-resources.js';
import type { OperationParameters } from '../operation-parameters.js';

function requestedProperty(part: OperationParameters): FindMatchesProperty {
  if (part.has('subproperty')) throw validationError("Parameter 'property': 'subproperty' is not supported.", { parameter: 'property' });
  const code = part.get('code');
  if (code === undefined || code === '') throw validationError("Parameter 'property' needs a 'code' part.", { parameter: 'property' });
  const primitive = part.get('value');
  if (primitive !== undefined) return { code, value: primitive };
  const coding = part.coding('value');
  if (coding?.code === undefined) throw validationError(`Parameter 'property' '${code}' needs a 'value' part.`, { parameter: 'property' });
  return { code, value: coding.code, ...(coding.system !== undefined ? { valueSystem: coding.system } : {}) };
}

function matchParameter(match: ConceptMatch, propertyCount: number, version: string, ctx: FhirOperationContext): FhirParameter {
  const part: FhirParameter[] = [{ name: 'code', valueCoding: { system: match.system, version, code: match.code, display: match.display } }];
  if (!usesR5Terminology(ctx.version)) part.push({ name: 'equivalence', valueCode: match.unmatched.length ? 'inexact' : 'equivalent' });
  for (const p of match.unmatched) {
    part.push({
      name: 'unmatched',
      part: [
        { name: 'code', valueCode: p.code },
        p.valueSystem !== undefined ? { name: 'value', valueCoding: { system: p.valueSystem, code: p.value } } : { name: 'value', valueCode: p.value },
      ],
    });
  }
  part.push({ name: 'comment', valueString: `${match.matchedCount} of ${propertyCount} properties match` });
  return { name: 'match', part };
}

function findMatchesOperation(ctx: FhirOperationContext): object {
  const system = ctx.params.required('system');
  const exact = ctx.params.boolean('exact');
  if (exact === undefined) throw validationError("Parameter 'exact' (true or false) is required.", { parameter: 'exact' });
  const version = ctx.params.get('version');
  const result = findMatches(ctx.view, fhirCodeSystemVersion(ctx.view), {
    system,
    exact,
    ...(version !== undefined ? { version } : {}),
    properties: ctx.params.parts('property').map(requestedProperty),
  });
  return parametersResource(result.matches.map((m) => matchParameter(m, result.propertyCount, result.version, ctx)));
}

export function registerFindMatchesOperation(app: FastifyInstance): void {
  registerFhirOperation(app, {
    methods: ['POST'],
    path: '/CodeSystem/$find-matches',
    summary: 'Find the codes that have the given properties',
    description: `A Parameters body with \`system\` (the OMOP system or a vocabulary's URI), \`version\`, \`exact\` (required) and \`property\` parts (\`code\`, \`value[x]\`): concept-class-id, domain-id, vocabulary-id, standard-concept (S, C or NS) and relationship ids such as \`Is a\` whose value is a concept (an OMOP concept_id, or a valueCoding). With a relationship property the candidates are the concepts with that relationship to its concept (at most 1000 rows read per relationship property), ties broken by concept_id; with column properties alone they are read from the search index's filter tags, best known concepts first (standard, classification, non-standard, invalid; then the static search rank). exact true: every property must match; exact false: at least one, ranked by how many match, with \`unmatched\` listing the others. At most ${MATCH_LIMIT} matches. A vocabulary-id naming a vocabulary the key may not read (CPT4 without a validated licence; GPI, MedDRA) is 403 forbidden, as a REST vocabulary filter is (docs/licences.md).`,
    handler: findMatchesOperation,
  });
}
