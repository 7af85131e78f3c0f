/**
 * ValueSet search (spec E12, `GET /ValueSet?url=`, search-type interaction) on every FHIR version:
 * src/services/terminology/value-set-search.ts finds the implicit ValueSet a url names; this file
 * writes it as a searchset Bundle of "FHIR ValueSet stub"s (metadata only; $expand lists members).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { searchValueSets, type ImplicitValueSet } from '../../../services/terminology/value-set-search.js';
import { registerFhirOperation, type FhirVersion } from '../fhir-operation.js';
import { fhirBase, searchsetBundle } from '../fhir-resources.js';

const VALUE_SET_SEARCH_PATH = '/ValueSet';

/** FHIR ids are at most 64 characters of [A-Za-z0-9.-]. */
const MAX_FHIR_ID_LENGTH = 64;

/**
 * The stub's id: the URL with every character other than a letter or digit as '-' (as clients
 * know it: `http---snomed-info-sct-fhir-vs-isa-73211009`); a longer one is cut and ends in a hash
 * of the whole URL, so it stays a valid FHIR id and distinct per URL.
 */
function valueSetId(url: string): string {
  const slug = url.replace(/[^A-Za-z0-9]/g, '-');
  if (slug.length <= MAX_FHIR_ID_LENGTH) return slug;
  const hash = createHash('sha256').update(url).digest('hex').slice(0, 8);
  return `${slug.slice(0, MAX_FHIR_ID_LENGTH - hash.length - 1)}-${hash}`;
}

function valueSetDescription(found: ImplicitValueSet, releaseLabel: string): string {
  const members = found.root
    ? `Concept ${found.root.concept_code} (${found.root.concept_name}) of ${found.codeSystemName} and every concept it subsumes (CONCEPT_ANCESTOR)`
    : `All concepts of ${found.codeSystemName}`;
  return `${members}, code system ${found.system}, OMOP vocabulary release ${releaseLabel}. Metadata only: ValueSet/$expand lists the members.`;
}

/** "FHIR ValueSet stub": metadata only, no expansion. */
function valueSetStub(found: ImplicitValueSet, releaseLabel: string): object {
  return {
    resourceType: 'ValueSet',
    id: valueSetId(found.url),
    url: found.url,
    status: 'active',
    experimental: false,
    name: `omopterm implicit ValueSet: ${found.url}`,
    description: valueSetDescription(found, releaseLabel),
  };
}

/** E12: a searchset Bundle with `total`; 0 has no entries. */
function valueSetBundle(request: FastifyRequest, version: FhirVersion, found: readonly ImplicitValueSet[], releaseLabel: string): object {
  const entry = found.map((valueSet) => {
    const resource = valueSetStub(valueSet, releaseLabel) as { id: string };
    return { fullUrl: `${fhirBase(request, version)}/ValueSet/${resource.id}`, resource };
  });
  return searchsetBundle(entry, entry.length);
}

export function registerValueSetSearch(app: FastifyInstance): void {
  registerFhirOperation(app, {
    methods: ['GET'],
    path: VALUE_SET_SEARCH_PATH,
    summary: 'ValueSet search by url (implicit ValueSets)',
    description:
      'Search type interaction on ValueSet (spec E12). `url`: an implicit ValueSet URL, `{system}?fhir_vs` (all concepts of a code system) or ' +
      '`{system}?fhir_vs=isa/{code}` (a concept and its descendants), where the system is `https://fhir-terminology.ohdsi.org` (codes are ' +
      'concept_ids) or a vocabulary code-system URI; a value percent-encoded twice is decoded. Answers a searchset Bundle: `total` 1 with the ' +
      'ValueSet (metadata only; $expand lists the members) when the release holds the code system (and the code) and the key may read it, ' +
      'otherwise `total` 0 with no entries. No other parameter is used, and nothing but a missing or invalid key (401) is an error.',
    handler: ({ request, version, params, view }) =>
      valueSetBundle(request, version, searchValueSets(view, params.get('url')), view.label),
  });
}
