/**
 * What ValueSet/$expand and ValueSet/$validate-code are asked about: the ValueSet named by `url` or sent inline,
 * read into a definition by src/services/terminology/value-set-compose.ts, and the text describing that input.
 */
import { validationError } from '../../services/errors.js';
import { definitionOfResource, definitionOfUrl, FILTER_OPERATORS, OMOP_DOMAIN_VALUE_SET_PREFIX, type ValueSetDefinition } from '../../services/terminology/value-set-compose.js';
import type { FhirOperationContext } from './fhir-operation.js';

/** The ValueSet the request names: `valueSet` inline, or `url` (with the `tx-resource` ValueSets sent along). */
export function requestedDefinition(ctx: FhirOperationContext, activeOnly: boolean): ValueSetDefinition {
  const { params, view } = ctx;
  const options = { activeOnly };
  const inline = params.resource('valueSet');
  if (inline) return definitionOfResource(view, inline, options);
  const url = params.get('url');
  if (url === undefined || url.trim() === '') throw validationError("Parameter 'url' (or 'valueSet', a ValueSet resource) is required.", { parameter: 'url' });
  return definitionOfUrl(view, url.trim(), params.resources('tx-resource'), options);
}

/** The ValueSet input of both operations, as their OpenAPI descriptions give it. */
export const VALUE_SET_INPUT =
  '`url`: an implicit ValueSet `{system}?fhir_vs` (every concept of the code system) or `{system}?fhir_vs=isa/{code}` (the concept and its ' +
  `descendants, CONCEPT_ANCESTOR), an OMOP domain ValueSet \`${OMOP_DOMAIN_VALUE_SET_PREFIX}{domain_id}\` (the domain's valid standard concepts), ` +
  'or the url of a ValueSet sent as `tx-resource`; or `valueSet` (POST), a ValueSet resource whose compose.include/exclude give a `system`, ' +
  `a \`concept\` list and \`filter\`s (op ${FILTER_OPERATORS.join(', ')}; property concept, domain-id, vocabulary-id, concept-class-id, ` +
  'standard-concept). An unknown url or code system is 404 not-found; a compose this server cannot read is 400.';
