/**
 * FHIR adapters of ValueSet search (spec E12, `GET /ValueSet?url=`) and ConceptMap/$closure (spec
 * E11, POST only), over src/services/terminology/value-set-search.ts and closure.ts. This file
 * only reads the FHIR input and writes the FHIR output ("FHIR ValueSet stub", "FHIR closure
 * result"); the one version difference is the closure's target (reading note 11): r4/r4b
 * `equivalence: "subsumes"`, r5/r6 `relationship: "source-is-broader-than-target"` (the ancestor,
 * the element's code, is broader than its descendant, the target's code).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_CLOSURE_CONCEPTS, subsumptionClosure, type SubsumptionPair } from '../../services/terminology/closure.js';
import { searchValueSets, type ImplicitValueSet } from '../../services/terminology/value-set-search.js';
import { registerFhirOperation, usesR5Terminology, type FhirVersion } from './fhir-operation.js';
import { fhirBase, searchsetBundle } from './fhir-resources.js';

const VALUE_SET_SEARCH_PATH = '/ValueSet';
const CLOSURE_PATH = '/ConceptMap/$closure';

/** FHIR ids are at most 64 characters of [A-Za-z0-9.-]. */
const MAX_FHIR_ID_LENGTH = 64;

/** The ConceptMap's name when the request sends none (E11: `name` is optional). */
const DEFAULT_CLOSURE_NAME = 'closure';

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

export function registerValueSetSearchAndClosure(app: FastifyInstance): void {
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
    handler: ({ request, version, params, store, policy, releaseLabel }) =>
      valueSetBundle(request, version, searchValueSets(store, policy, params.get('url')), releaseLabel),
  });

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
    handler: ({ version, params, store, policy }) =>
      closureConceptMap(params.get('name')?.trim() || DEFAULT_CLOSURE_NAME, subsumptionClosure(store, policy, params.codings('concept')), version),
  });
}
