/**
 * The FHIR terminology operations as tools (lookup, validate_code, subsumes, expand, translate): the same service
 * functions the /fhir operations call, answered as their plain results instead of FHIR Parameters.
 */
import { Type } from 'typebox';
import { validationError } from '../../services/errors.js';
import { nearestKnownSystem } from '../../services/fhir/code-system-uris.js';
import { terminologySystem } from '../../services/terminology/code-system-concept.js';
import { lookupConcept } from '../../services/terminology/code-system-lookup.js';
import { CODE_PATHS, validateCoding } from '../../services/terminology/code-validation.js';
import { subsumption } from '../../services/terminology/subsumption.js';
import { translate } from '../../services/terminology/translation.js';
import { definitionOfUrl } from '../../services/terminology/value-set-compose.js';
import { conceptSetMembers, expandValueSet } from '../../services/terminology/value-set-expansion.js';
import type { TerminologySystem } from '../../services/terminology/code-system-concept.js';
import { CsvArgument } from './schema-helpers.js';
import { AnyObject, defineTool, listText, releaseMeta, VocabReleaseArgument, type McpTool } from './tool-definition.js';
import { csvList } from '../../services/list-field.js';

export const EXPAND_TOOL_DEFAULT_COUNT = 20;
/** expand: codes per call (the FHIR operation allows more; an agent pages with offset). */
export const EXPAND_TOOL_MAX_COUNT = 100;

const SystemArgument = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'Code-system URI: a vocabulary\'s (http://snomed.info/sct, http://loinc.org, http://hl7.org/fhir/sid/icd-10-cm, …) with its codes, or the OMOP system https://fhir-terminology.ohdsi.org with concept_ids as codes.',
});
const CodeArgument = Type.String({ minLength: 1, maxLength: 256, description: 'The code in that system.' });

function knownSystem(system: string, argument: string): TerminologySystem {
  const known = terminologySystem(system);
  if (known) return known;
  const suggestion = nearestKnownSystem(system);
  throw validationError(`Unknown code system '${system}' in argument '${argument}'.${suggestion ? ` Did you mean '${suggestion}'?` : ''}`, { parameter: argument, system });
}

const lookupTool = defineTool({
  name: 'lookup',
  title: 'Look up a code (FHIR CodeSystem/$lookup)',
  description: "Everything known about one code of a code system: display, synonyms (designations) and properties (domain, class, vocabulary, standard flag, validity, and relationships such as 'Maps to' or 'Is a').",
  input: Type.Object(
    {
      system: SystemArgument,
      code: CodeArgument,
      property: CsvArgument("Comma-separated properties to return (default all), e.g. 'domain-id,standard-concept,Maps to'."),
      vocab_release: VocabReleaseArgument,
    },
    { additionalProperties: false },
  ),
  data: AnyObject('{system, name, version, code, display, designations[], properties[]} (the CodeSystem/$lookup answer).'),
  run(args, ctx) {
    const view = ctx.view(args.vocab_release);
    const found = lookupConcept(view, view.codeSystemVersion, { system: args.system, code: args.code, properties: csvList(args.property) });
    return { data: found, meta: releaseMeta(view), text: `${found.code} ${found.display} (${found.name} ${found.version}); ${found.properties.length} properties, ${found.designations.length} designations.` };
  },
});

const validateCodeTool = defineTool({
  name: 'validate_code',
  title: 'Validate a code (FHIR CodeSystem/$validate-code)',
  description: 'Whether a code exists in a code system (and, with display, whether the display is right). An unknown code or a wrong display is result=false with an issue that says why, not an error.',
  input: Type.Object(
    {
      system: SystemArgument,
      code: CodeArgument,
      display: Type.Optional(Type.String({ maxLength: 1000, description: 'The display to check against the concept name and synonyms.' })),
      version: Type.Optional(Type.String({ maxLength: 64, description: "The code system's version (the release's YYYYMMDD); default the release's." })),
      vocab_release: VocabReleaseArgument,
    },
    { additionalProperties: false },
  ),
  data: AnyObject('{result, system, code, version, display, issues[]} (the CodeSystem/$validate-code answer).'),
  run(args, ctx) {
    const view = ctx.view(args.vocab_release);
    const validation = validateCoding(view, view.codeSystemVersion, { system: args.system, code: args.code, display: args.display, version: args.version }, CODE_PATHS);
    const text = validation.result
      ? `Valid: ${validation.code} ${validation.display ?? ''} in ${validation.system}.`
      : `Not valid: ${validation.issues.map((i) => i.text).join(' ')}`;
    return { data: validation, meta: releaseMeta(view), text };
  },
});

const subsumesTool = defineTool({
  name: 'subsumes',
  title: 'Test subsumption between two codes (FHIR CodeSystem/$subsumes)',
  description: "How code_a relates to code_b in the system's hierarchy: 'equivalent', 'subsumes' (a is an ancestor of b), 'subsumed-by' (a is a descendant of b) or 'not-subsumed'.",
  input: Type.Object(
    {
      system: SystemArgument,
      code_a: Type.String({ minLength: 1, maxLength: 256, description: 'The first code.' }),
      code_b: Type.String({ minLength: 1, maxLength: 256, description: 'The second code.' }),
      vocab_release: VocabReleaseArgument,
    },
    { additionalProperties: false },
  ),
  data: Type.Object({ outcome: Type.String({ description: 'equivalent, subsumes, subsumed-by or not-subsumed.' }) }),
  run(args, ctx) {
    const view = ctx.view(args.vocab_release);
    const outcome = subsumption(view, view.codeSystemVersion, { system: args.system, codeA: args.code_a, codeB: args.code_b });
    return { data: { outcome }, meta: releaseMeta(view), text: `${args.code_a} ${outcome} ${args.code_b}.` };
  },
});

const expandTool = defineTool({
  name: 'expand',
  title: 'Expand a value set (FHIR ValueSet/$expand), optionally filtered by text',
  description:
    "The codes of a value set, filtered by text: url is an implicit value set such as 'http://snomed.info/sct?fhir_vs=isa/73211009' (the concept and its descendants), 'http://snomed.info/sct?fhir_vs' (every SNOMED code) or an OMOP domain value set. " +
    `At most ${EXPAND_TOOL_MAX_COUNT} codes per call; page with offset (meta.next_page).`,
  input: Type.Object(
    {
      url: Type.String({ minLength: 1, maxLength: 2048, description: "The value set's URL, e.g. 'http://snomed.info/sct?fhir_vs=isa/73211009'." }),
      filter: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Text the codes must match (keyword search).' })),
      offset: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'Codes to skip (paging; default 0).' })),
      count: Type.Optional(Type.Integer({ minimum: 1, maximum: EXPAND_TOOL_MAX_COUNT, default: EXPAND_TOOL_DEFAULT_COUNT, description: `Codes to return (1–${EXPAND_TOOL_MAX_COUNT}, default ${EXPAND_TOOL_DEFAULT_COUNT}).` })),
      active_only: Type.Optional(Type.Boolean({ default: false, description: 'Leave out inactive (deprecated or replaced) concepts (default false).' })),
      vocab_release: VocabReleaseArgument,
    },
    { additionalProperties: false },
  ),
  data: Type.Object({
    total: Type.Integer({ description: 'Codes in the (filtered) value set.' }),
    offset: Type.Integer(),
    contains: Type.Array(AnyObject('{system, code, display, concept_id, vocabulary_id, domain_id, standard_concept, inactive}.')),
  }),
  async run(args, ctx) {
    const view = ctx.view(args.vocab_release);
    const activeOnly = args.active_only ?? false;
    const definition = await conceptSetMembers(view, definitionOfUrl(view, args.url.trim(), [], { activeOnly }), activeOnly);
    const count = args.count ?? EXPAND_TOOL_DEFAULT_COUNT;
    const offset = args.offset ?? 0;
    const expansion = expandValueSet(view, definition, { ...(args.filter !== undefined ? { filter: args.filter } : {}), offset, count, includeDesignations: false });
    const contains = expansion.members.map((m) => ({
      system: m.system,
      code: m.code,
      display: m.concept.concept_name,
      concept_id: m.concept.concept_id,
      vocabulary_id: m.concept.vocabulary_id,
      domain_id: m.concept.domain_id,
      standard_concept: m.concept.standard_concept,
      inactive: m.concept.invalid_reason !== null,
    }));
    const end = offset + contains.length;
    return {
      data: { total: expansion.total, offset: expansion.offset, contains },
      meta: { ...releaseMeta(view), ...(end < expansion.total ? { next_page: `call again with offset=${end} (${expansion.total - end} codes left)` } : {}) },
      text: listText(`${expansion.total} codes${args.filter ? ` matching '${args.filter}'` : ''} in ${args.url}:`, contains.map((c) => `${c.code} ${c.display} (concept ${c.concept_id})`)),
    };
  },
});

const translateTool = defineTool({
  name: 'translate',
  title: 'Translate a code (FHIR ConceptMap/$translate)',
  description:
    "A code of one system in another: forward along 'Maps to' (default: to the OMOP standard concept; target_system names another system, e.g. ICD10CM → SNOMED), or with reverse=true the source codes that map to it.",
  input: Type.Object(
    {
      system: SystemArgument,
      code: CodeArgument,
      target_system: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'The system the answers are wanted in (default: OMOP concept ids forward, any system reverse).' })),
      reverse: Type.Optional(Type.Boolean({ default: false, description: 'Find the codes that map TO this one (default false).' })),
      vocab_release: VocabReleaseArgument,
    },
    { additionalProperties: false },
  ),
  data: AnyObject('{result, message?, usedSystems[], usedConceptMaps[], matches[{relationship, concept{system, code, display}, values[], originMap}]} (the ConceptMap/$translate answer).'),
  run(args, ctx) {
    const view = ctx.view(args.vocab_release);
    const codings = [{ system: knownSystem(args.system, 'system'), code: args.code }];
    const answerSystem = args.target_system === undefined ? undefined : knownSystem(args.target_system, 'target_system');
    const result = translate({ view, omopVersion: view.codeSystemVersion }, { codings, reverse: args.reverse ?? false, ...(answerSystem ? { answerSystem } : {}) });
    return {
      data: result,
      meta: releaseMeta(view),
      text: result.matches.length
        ? listText(`${args.code} translates to:`, result.matches.map((m) => `${m.relationship}: ${m.concept ? `${m.concept.code} ${m.concept.display ?? ''} (${m.concept.system})` : 'no map'}`))
        : `No translation of ${args.code}${result.message ? `: ${result.message}` : '.'}`,
    };
  },
});

export const TERMINOLOGY_TOOLS: readonly McpTool[] = [lookupTool, validateCodeTool, subsumesTool, expandTool, translateTool];
