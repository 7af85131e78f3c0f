/**
 * ConceptMap/$translate (GET and POST) at the FHIR edge: reads the parameters of the path's FHIR version into a
 * TranslationRequest (src/services/terminology/translation.ts) and writes the result back in that version's words.
 */
import type { FastifyInstance } from 'fastify';
import { ServiceError, notFound, validationError } from '../../../services/errors.js';
import type { ConceptMapRelationship } from '../../../services/fhir-resolver/administrative-concept-maps.js';
import { nearestKnownSystem } from '../../../services/fhir/code-system-uris.js';
import { terminologySystem, type TerminologySystem } from '../../../services/terminology/code-system-concept.js';
import { parseImplicitValueSetUrl } from '../../../services/terminology/implicit-value-set-url.js';
import { translate, type TranslatedCoding, type TranslationCoding, type TranslationMatch, type TranslationRequest, type TranslationResult } from '../../../services/terminology/translation.js';
import { answerSystemOfMap, KNOWN_MAP_URLS, translationMapOfUrl, type TranslationMap } from '../../../services/terminology/translation-maps.js';
import { fhirCodeSystemVersion, registerFhirOperation, usesR5Terminology, type FhirOperationContext, type FhirVersion } from '../fhir-operation.js';
import { parametersResource, type FhirCoding, type FhirParameter } from '../fhir-resources.js';
import type { OperationParameters } from '../operation-parameters.js';

/** R5 relationship → R4 equivalence (fhir-and-omop-notes.md §3.8). */
const R4_EQUIVALENCE: Record<ConceptMapRelationship, string> = {
  equivalent: 'equivalent',
  'source-is-narrower-than-target': 'wider',
  'source-is-broader-than-target': 'narrower',
  'related-to': 'relatedto',
  'not-related-to': 'unmatched',
};

/** The CDM field a `Maps to value` target fills (the product's element / attribute). */
const VALUE_ATTRIBUTE = 'value_as_concept_id';

/** The first of these parameter names the request uses, or undefined. */
function firstPresent(params: OperationParameters, names: readonly string[]): string | undefined {
  return names.find((name) => params.has(name));
}

function knownSystem(system: string, parameter: string): TerminologySystem {
  const known = terminologySystem(system);
  if (known) return known;
  const suggestion = nearestKnownSystem(system);
  throw validationError(`Unknown code system '${system}' in parameter '${parameter}'.${suggestion ? ` Did you mean '${suggestion}'?` : ''}`, {
    parameter,
    system,
    ...(suggestion ? { suggestion } : {}),
  });
}

function checkedCoding(coding: FhirCoding, parameter: string): TranslationCoding {
  if (!coding.system || !coding.code) throw validationError(`Parameter '${parameter}' needs both system and code.`, { parameter });
  return { system: knownSystem(coding.system, `${parameter}.system`), code: coding.code };
}

/** The codings of a concept given as a code (+ system), a Coding or a CodeableConcept; undefined when none of the names is used. */
function conceptInput(
  params: OperationParameters,
  names: { code: readonly string[]; system: readonly string[]; coding: readonly string[]; codeableConcept: readonly string[] },
): TranslationCoding[] | undefined {
  const used = [names.code, names.coding, names.codeableConcept].map((n) => firstPresent(params, n)).filter((n): n is string => n !== undefined);
  if (used.length === 0) return undefined;
  if (used.length > 1) throw validationError(`Send the concept once: parameters ${used.map((n) => `'${n}'`).join(' and ')} were both given.`, { parameters: used });
  const name = used[0]!;
  if (names.code.includes(name)) {
    const systemName = firstPresent(params, names.system);
    const system = systemName ? params.get(systemName) : undefined;
    if (!system || !systemName) throw validationError(`Parameter '${name}' needs its code system in '${names.system[0]}'.`, { parameter: names.system[0] });
    return [{ system: knownSystem(system, systemName), code: params.get(name)! }];
  }
  // `name` is present, so it reads as a Coding (valueCoding, or system|code in the URL) or is a 400.
  if (names.coding.includes(name)) return [checkedCoding(params.coding(name)!, name)];
  const concept = params.codeableConcept(name);
  if (!concept) throw validationError(`Parameter '${name}' must be a CodeableConcept (valueCodeableConcept in a POST Parameters body).`, { parameter: name });
  const codings = (concept.coding ?? []).filter((c) => c.system || c.code);
  if (codings.length === 0) throw validationError(`Parameter '${name}' must hold at least one coding with system and code.`, { parameter: name });
  return codings.map((c) => checkedCoding(c, `${name}.coding`));
}

/** A value-set scope parameter: only an implicit whole-code-system value set (`{system}?fhir_vs`) is understood, as that system. */
function scopeSystem(params: OperationParameters, names: readonly string[]): TerminologySystem | undefined {
  const name = firstPresent(params, names);
  if (!name) return undefined;
  const url = params.get(name) ?? '';
  const implicit = parseImplicitValueSetUrl(url);
  if (implicit?.kind !== 'all') {
    throw new ServiceError(400, 'not-supported', `Parameter '${name}' must be an implicit value set of a whole code system ({system}?fhir_vs); '${url}' is not supported.`, { parameter: name });
  }
  return knownSystem(implicit.system, name);
}

/** A source scope (forward) must be the whole code system of the concept sent. */
function checkSourceScope(params: OperationParameters, codings: readonly TranslationCoding[]): void {
  const scope = scopeSystem(params, ['sourceScope', 'source']);
  const outside = scope && codings.find((c) => c.system.canonical !== scope.canonical);
  if (outside) {
    const name = firstPresent(params, ['sourceScope', 'source']);
    throw validationError(`Parameter '${name}' is the code system ${scope.canonical}, but the concept sent is in ${outside.system.canonical}.`, { parameter: name });
  }
}

function answerSystemOf(params: OperationParameters, systemNames: readonly string[], scopeNames: readonly string[]): TerminologySystem | undefined {
  const name = firstPresent(params, systemNames);
  const fromScope = scopeSystem(params, scopeNames);
  const fromSystem = name ? knownSystem(params.get(name) ?? '', name) : undefined;
  if (fromScope && fromSystem && fromScope.canonical !== fromSystem.canonical) {
    throw validationError(`Parameters '${name}' and '${firstPresent(params, scopeNames)}' name different code systems.`, { parameters: [name, firstPresent(params, scopeNames)] });
  }
  return fromSystem ?? fromScope;
}

function namedMap(ctx: FhirOperationContext, reverse: boolean, answer: TerminologySystem | undefined): TranslationMap | undefined {
  if (ctx.params.has('conceptMap')) {
    throw new ServiceError(400, 'not-supported', "Parameter 'conceptMap' (a ConceptMap sent with the request) is not supported; name a map with 'url'.", { parameter: 'conceptMap' });
  }
  const url = ctx.params.get('url');
  if (url === undefined) return undefined;
  const map = translationMapOfUrl(ctx.view, url);
  if (!map) throw notFound(`ConceptMap not found: ${url}. This server knows ${KNOWN_MAP_URLS}.`, 'not_found', { parameter: 'url' });
  const expected = answerSystemOfMap(map, reverse);
  if (answer && answer.canonical !== expected) {
    throw validationError(`The map ${map.url} gives codes of ${expected}, but the answers were asked in ${answer.canonical}.`, { parameter: 'url' });
  }
  return map;
}

function readRequest(ctx: FhirOperationContext): TranslationRequest {
  const { params, version } = ctx;
  const r5 = usesR5Terminology(version);
  if (r5 && params.has('reverse')) {
    throw validationError(`The 'reverse' parameter is not defined in FHIR ${version.toUpperCase()}: name the target concept with targetCode (+ targetSystem), targetCoding or targetCodeableConcept.`, { parameter: 'reverse' });
  }
  // The version's own name first: it is the one an error message names.
  const ordered = (r4Name: string, r5Name: string) => (r5 ? [r5Name, r4Name] : [r4Name, r5Name]);
  const source = conceptInput(params, {
    code: ordered('code', 'sourceCode'),
    // R5 calls the source code's system `system` too; `sourceSystem` is tx.fhir.org's alias (the HL7 OMOP tests send it).
    system: ['system', 'sourceSystem'],
    coding: ordered('coding', 'sourceCoding'),
    codeableConcept: ordered('codeableConcept', 'sourceCodeableConcept'),
  });
  const r4Reverse = params.boolean('reverse') === true;
  const targetNames = { code: ['targetCode'], system: ['targetSystem'], coding: ['targetCoding'], codeableConcept: ['targetCodeableConcept'] };
  const namedTarget = firstPresent(params, [...targetNames.code, ...targetNames.coding, ...targetNames.codeableConcept]);
  if (r4Reverse && namedTarget) throw validationError(`'reverse' and '${namedTarget}' both ask for the reverse direction: send one of them.`, { parameter: 'reverse' });
  const target = conceptInput(params, targetNames);
  if (source && target) throw validationError('Send either the source concept (forward) or the target concept (reverse), not both.');
  const codings = source ?? target;
  if (!codings) {
    const names = r5
      ? 'sourceCode with system, sourceCoding or sourceCodeableConcept (or, for the reverse direction, targetCode with targetSystem, targetCoding or targetCodeableConcept)'
      : 'code with system, coding or codeableConcept (with reverse=true for the reverse direction)';
    throw validationError(`No concept to translate: send ${names}.`);
  }
  const reverse = r4Reverse || target !== undefined;
  // The answers' system: targetSystem forward and under R4 reverse; under R5 reverse, system (the source side's system).
  const answerSystem =
    target !== undefined
      ? answerSystemOf(params, ['system', 'sourceSystem'], ['sourceScope', 'source'])
      : answerSystemOf(params, ['targetSystem', 'targetsystem'], ['targetScope', 'target']);
  if (target === undefined) checkSourceScope(params, codings);
  const map = namedMap(ctx, reverse, answerSystem);
  return { codings, reverse, ...(answerSystem ? { answerSystem } : {}), ...(map ? { map } : {}) };
}

function codingValue(coding: TranslatedCoding): FhirCoding {
  return { system: coding.system, code: coding.code, ...(coding.display !== undefined ? { display: coding.display } : {}) };
}

function matchParameter(match: TranslationMatch, version: FhirVersion): FhirParameter {
  const r5 = usesR5Terminology(version);
  const part: FhirParameter[] = [
    r5 ? { name: 'relationship', valueCode: match.relationship } : { name: 'equivalence', valueCode: R4_EQUIVALENCE[match.relationship] },
  ];
  if (match.concept) part.push({ name: 'concept', valueCoding: codingValue(match.concept) });
  for (const value of match.values) {
    part.push({
      name: 'product',
      part: r5
        ? [{ name: 'attribute', valueUri: VALUE_ATTRIBUTE }, { name: 'value', valueCoding: codingValue(value) }]
        : [{ name: 'element', valueUri: VALUE_ATTRIBUTE }, { name: 'concept', valueCoding: codingValue(value) }],
    });
  }
  part.push({ name: 'originMap', valueCanonical: match.originMap });
  return { name: 'match', part };
}

function translationParameters(result: TranslationResult, version: FhirVersion): object {
  return parametersResource([
    { name: 'result', valueBoolean: result.result },
    ...(result.message ? [{ name: 'message', valueString: result.message }] : []),
    ...result.usedSystems.map((s) => ({ name: 'used-system', valueUri: s })),
    ...result.usedConceptMaps.map((m) => ({ name: 'used-conceptmap', valueUri: m })),
    ...result.matches.map((m) => matchParameter(m, version)),
  ]);
}

export function registerTranslateOperation(app: FastifyInstance): void {
  registerFhirOperation(app, {
    methods: ['GET', 'POST'],
    path: '/ConceptMap/$translate',
    summary: 'Translate a code between code systems (OMOP Maps to / Mapped from, the IG administrative maps)',
    description:
      'Forward: the source code (R4 code+system, coding, codeableConcept; R5 sourceCode+system, sourceCoding, sourceCodeableConcept) ' +
      'into targetSystem (default the OMOP concept system https://fhir-terminology.ohdsi.org: the standard concepts its valid Maps to ' +
      'rows reach, Maps to value targets as product value_as_concept_id; into a vocabulary: the same concept\'s code there, else its ' +
      'Maps to / Mapped from partners in it). Reverse (R4 reverse=true; R5 targetCode+targetSystem, targetCoding, targetCodeableConcept): ' +
      'the codes whose Maps to reaches the concept (Mapped from), in the answer system when given. Maps by url: ' +
      'https://fhir-terminology.ohdsi.org/ConceptMap/to-{vocabulary_concept_id} and from-{vocabulary_concept_id}, and the FHIR-to-OMOP IG ' +
      'administrative maps http://hl7.org/fhir/uv/omop/ConceptMap/{id}; an administrative code is translated through the IG maps of its ' +
      'system. Output: result, message, used-system, used-conceptmap, match {equivalence (R4) | relationship (R5), concept, product, originMap}. ' +
      'CPT4 answers are listed only for keys with a current CPT4 validation.',
    handler: (ctx) => {
      const request = readRequest(ctx);
      const result = translate({ view: ctx.view, omopVersion: fhirCodeSystemVersion(ctx.view) }, request);
      return translationParameters(result, ctx.version);
    },
  });
}
