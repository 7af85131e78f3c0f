/**
 * ValueSet/$expand on every FHIR version, GET and POST: reads the ValueSet and the paging and filter parameters,
 * expands it with src/services/terminology/value-set-expansion.ts and writes the expanded ValueSet.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { MAX_REGEX_LENGTH, MAX_REGEX_REPETITIONS, type ValueSetDefinition } from '../../../services/terminology/value-set-compose.js';
import { conceptSetMembers, expandValueSet, MAX_EXPANSION_PAGE, type Expansion } from '../../../services/terminology/value-set-expansion.js';
import { fhirCodeSystemVersion, registerFhirOperation, usesR5Terminology, type FhirOperationContext } from '../fhir-operation.js';
import { fhirBase, type FhirParameter } from '../fhir-resources.js';
import { requestedDefinition, VALUE_SET_INPUT } from '../valueset-parameters.js';

/** OMOP's English language concept (CONCEPT_SYNONYM.language_concept_id). */
const ENGLISH_LANGUAGE_CONCEPT_ID = 4180186;

/** Parameters $expand echoes in expansion.parameter (as given). */
const ECHOED_PARAMETERS = ['filter', 'offset', 'count', 'activeOnly', 'includeDesignations'] as const;

function designations(member: Expansion['members'][number]): object[] | undefined {
  return member.designations?.map((s) => ({
    ...(s.language_concept_id === ENGLISH_LANGUAGE_CONCEPT_ID ? { language: 'en' } : {}),
    value: s.concept_synonym_name,
  }));
}

function nextPageUrl(ctx: FhirOperationContext, definition: ValueSetDefinition, expansion: Expansion): string | undefined {
  const end = expansion.offset + expansion.members.length;
  if (!definition.named || !definition.url || expansion.members.length === 0 || end >= expansion.total) return undefined;
  const query = new URLSearchParams({ url: definition.url });
  for (const name of ['filter', 'activeOnly', 'includeDesignations']) {
    const value = ctx.params.get(name);
    if (value !== undefined) query.set(name, value);
  }
  query.set('offset', String(end));
  query.set('count', String(expansion.members.length));
  return `${fhirBase(ctx.request, ctx.version)}/ValueSet/$expand?${query.toString()}`;
}

/**
 * The expanded ValueSet's own elements: the url and version of a ValueSet sent (nothing else of it,
 * as in the HL7 omop-expand-explicit answer), or url, version and status of one this server defines.
 */
function valueSetMetadata(definition: ValueSetDefinition, releaseVersion: string): object {
  const url = definition.url !== undefined ? { url: definition.url } : {};
  if (definition.sent) return { resourceType: 'ValueSet', ...url, ...(definition.version !== undefined ? { version: definition.version } : {}) };
  return { resourceType: 'ValueSet', ...url, version: definition.version ?? releaseVersion, status: 'active' };
}

async function expand(ctx: FhirOperationContext): Promise<object> {
  const { params, view } = ctx;
  const activeOnly = params.boolean('activeOnly') ?? false;
  const count = params.integer('count');
  const definition = await conceptSetMembers(view, requestedDefinition(ctx, activeOnly), activeOnly);
  const filter = params.get('filter');
  const expansion = expandValueSet(view, definition, {
    ...(filter !== undefined ? { filter } : {}),
    offset: params.integer('offset') ?? 0,
    ...(count !== undefined ? { count } : {}),
    includeDesignations: params.boolean('includeDesignations') ?? false,
  });
  const releaseVersion = fhirCodeSystemVersion(view);
  const parameter = ECHOED_PARAMETERS.flatMap((name): FhirParameter[] => {
    const value = params.get(name);
    if (value === undefined) return [];
    if (name === 'filter') return [{ name, valueString: value }];
    return [name === 'offset' || name === 'count' ? { name, valueInteger: Number(value) } : { name, valueBoolean: value === 'true' }];
  });
  parameter.push(...expansion.systems.map((system) => ({ name: 'used-codesystem', valueUri: `${system}|${releaseVersion}` })));
  const next = usesR5Terminology(ctx.version) ? nextPageUrl(ctx, definition, expansion) : undefined;
  return {
    ...valueSetMetadata(definition, releaseVersion),
    expansion: {
      identifier: `urn:uuid:${randomUUID()}`,
      timestamp: new Date().toISOString(),
      total: expansion.total,
      ...(params.has('offset') || params.has('count') ? { offset: expansion.offset } : {}),
      ...(next ? { next } : {}),
      parameter,
      ...(expansion.members.length
        ? {
            contains: expansion.members.map((m) => {
              const designation = designations(m);
              return {
                system: m.system,
                code: m.code,
                display: m.concept.concept_name,
                ...(m.concept.invalid_reason !== null ? { inactive: true } : {}),
                ...(designation?.length ? { designation } : {}),
              };
            }),
          }
        : {}),
    },
  };
}

export function registerExpandOperation(app: FastifyInstance): void {
  registerFhirOperation(app, {
    methods: ['GET', 'POST'],
    path: '/ValueSet/$expand',
    summary: 'Expand a ValueSet',
    description:
      `The members of a ValueSet, paged in a stable order with an exact \`total\`. ${VALUE_SET_INPUT} Parameters: \`offset\`, \`count\`, ` +
      '`filter` (text: keyword search within the set, its first 1000 matches, in ranking order), `activeOnly`, `includeDesignations` ' +
      `(synonyms). One answer lists at most ${MAX_EXPANSION_PAGE} codes: a larger page is 422 too-costly (page with count and offset). ` +
      'r5/r6 add `expansion.next`, the URL of the next page, for a ValueSet named by url. A compose `regex` filter is matched against ' +
      `the whole value, at most ${MAX_REGEX_LENGTH} characters, with at most ${MAX_REGEX_REPETITIONS} repetitions and no repeated group or ` +
      'backreference (400 otherwise: a pattern that can backtrack without bound would hold the server). A compose stating an OHDSI concept set ' +
      "(every entry on the OMOP concept system a concept list, one `concept is-a` filter or one `maps-to` filter, as POST /v1/concept-sets/to-valueset writes it) " +
      "is expanded by circe's rules, exactly as POST /v1/concept-sets/resolve: `is-a` is the concept itself (even if invalid) and its valid descendants, " +
      "`maps-to` the sources of valid 'Maps to' rows into the value (`is-a`: into it or its valid descendants); members in concept_id order.",
    handler: expand,
  });
}
