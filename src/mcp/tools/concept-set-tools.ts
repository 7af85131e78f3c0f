/**
 * omopterm's own tools beyond the hosted service's: concept sets (resolve, optimize, diff between releases), ranked
 * mapping candidates for source terms, a code's changes between releases, and the loaded releases.
 */
import { Type } from 'typebox';
import { diffConceptSet } from '../../services/concept-sets/concept-set-diff.js';
import { optimizeConceptSet, resolveConceptSetPage } from '../../services/concept-sets/concept-set-operations.js';
import { readExpression } from '../../services/concept-sets/expression-formats.js';
import { validationError } from '../../services/errors.js';
import { csvList } from '../../services/list-field.js';
import { paginationMeta, pageOf, readPage } from '../../services/pagination.js';
import { resolveRelease } from '../../services/release-selection.js';
import { MAX_RANKED_CANDIDATES } from '../../services/semantic/ranked-candidates.js';
import { checkMappingOptions } from '../../services/source-mapping/term-mapping.js';
import { DIFF_CHANGE_TYPES, diffChangeTypes, diffCode } from '../../services/terminology/release-diff.js';
import { listReleases } from '../../services/vocabularies/release-catalog.js';
import { CsvArgument, pageArguments } from './schema-helpers.js';
import { AnyObject, conceptLine, defineTool, listText, pagedMeta, releaseMeta, VocabReleaseArgument, type McpTool, type ToolContext } from './tool-definition.js';

export const CONCEPT_SET_TOOL_DEFAULT_PAGE_SIZE = 100;
/** resolve_concept_set / diff_concept_set: concepts per page (REST allows 1,000; an agent pages). */
export const CONCEPT_SET_TOOL_MAX_PAGE_SIZE = 200;
/** map_source_terms: terms per call (a mapping job takes whole files: POST /v1/mapping/jobs). */
export const MAP_TERMS_MAX_TERMS = 20;
export const MAP_TERMS_DEFAULT_K = 5;
/** Longest source name or code (as POST /v1/mapping/candidates). */
const MAX_TERM_CHARS = 1000;
export const RELEASES_TOOL_MAX_PAGE_SIZE = 100;

const ExpressionArgument = Type.Unsafe<unknown>({
  description:
    'The concept-set expression: ATLAS JSON {"items":[{"concept":{"CONCEPT_ID":201820},"isExcluded":false,"includeDescendants":true,"includeMapped":false}]} ' +
    '(also {"expression":{…}} or a whole ATLAS concept set), the OHDSI TAB draft, or ATLAS\' CSV export as a string. The resource omopterm://guides/concept-set-format explains it.',
  anyOf: [{ type: 'object' }, { type: 'string' }],
});

function releaseArgument(ctx: ToolContext, selector: string, argument: string) {
  return ctx.view().onRelease(resolveRelease(ctx.registry, selector, { surface: 'mcp', parameter: argument }));
}

const resolveConceptSetTool = defineTool({
  name: 'resolve_concept_set',
  title: 'Resolve a concept-set expression',
  description:
    "The concepts an OHDSI/ATLAS concept-set expression stands for (circe's rules: descendants, mapped source codes, exclusions), in concept_id order, with a summary by domain, vocabulary and item. " +
    `At most ${CONCEPT_SET_TOOL_MAX_PAGE_SIZE} concepts per page; page with \`page\`.`,
  input: Type.Object({ expression: ExpressionArgument, ...pageArguments(CONCEPT_SET_TOOL_DEFAULT_PAGE_SIZE, CONCEPT_SET_TOOL_MAX_PAGE_SIZE), vocab_release: VocabReleaseArgument }, { required: ['expression'], additionalProperties: false }),
  data: AnyObject('{concepts[], summary, unknown_concepts[], restricted_items[], …} as POST /v1/concept-sets/resolve returns it.'),
  async run(args, ctx) {
    const view = ctx.view(args.vocab_release);
    const expression = readExpression(args.expression);
    const page = readPage(args, { defaultPageSize: CONCEPT_SET_TOOL_DEFAULT_PAGE_SIZE, maxPageSize: CONCEPT_SET_TOOL_MAX_PAGE_SIZE });
    const result = await resolveConceptSetPage(view, expression, { offset: page.offset, limit: page.pageSize });
    const concepts = (result as unknown as { concepts: Parameters<typeof conceptLine>[0][] }).concepts;
    return {
      data: result,
      meta: pagedMeta(view, paginationMeta(page, result.summary.total)),
      text: listText(`The expression resolves to ${result.summary.total} concepts:`, concepts.map(conceptLine)),
    };
  },
});

const optimizeConceptSetTool = defineTool({
  name: 'optimize_concept_set',
  title: 'Optimize a concept-set expression',
  description: 'The smallest expression that resolves to the same concepts, and why each removed item was redundant.',
  input: Type.Object({ expression: ExpressionArgument, vocab_release: VocabReleaseArgument }, { required: ['expression'], additionalProperties: false }),
  data: AnyObject('{optimized expression, removed items with reasons, …} as POST /v1/concept-sets/optimize returns it.'),
  async run(args, ctx) {
    const view = ctx.view(args.vocab_release);
    const result = await optimizeConceptSet(view, readExpression(args.expression));
    const removed = (result as unknown as { removed?: unknown[] }).removed ?? [];
    return { data: result, meta: releaseMeta(view), text: `${removed.length} items can be removed without changing what the expression resolves to.` };
  },
});

const diffConceptSetTool = defineTool({
  name: 'diff_concept_set',
  title: 'What a concept set gains and loses between two releases',
  description:
    'Resolves the expression in from_release and in to_release and lists the concepts gained and lost, each with the reason (new concept, new descendant, deprecated, replaced, …). ' +
    `At most ${CONCEPT_SET_TOOL_MAX_PAGE_SIZE} per list per page. list_releases names the releases.`,
  input: Type.Object(
    {
      expression: ExpressionArgument,
      from_release: Type.String({ minLength: 1, maxLength: 64, description: 'The release compared from, e.g. 2025.1.' }),
      to_release: Type.String({ minLength: 1, maxLength: 64, description: 'The release compared to, e.g. 2025.2.' }),
      ...pageArguments(CONCEPT_SET_TOOL_DEFAULT_PAGE_SIZE, CONCEPT_SET_TOOL_MAX_PAGE_SIZE),
    },
    { required: ['expression', 'from_release', 'to_release'], additionalProperties: false },
  ),
  data: AnyObject('{from_release, to_release, summary, gained[], lost[]} as POST /v1/concept-sets/diff returns it.'),
  async run(args, ctx) {
    const expression = readExpression(args.expression);
    const from = releaseArgument(ctx, args.from_release, 'from_release');
    const to = releaseArgument(ctx, args.to_release, 'to_release');
    const page = readPage(args, { defaultPageSize: CONCEPT_SET_TOOL_DEFAULT_PAGE_SIZE, maxPageSize: CONCEPT_SET_TOOL_MAX_PAGE_SIZE });
    const result = await diffConceptSet(from, to, expression, { offset: page.offset, limit: page.pageSize });
    const s = result.summary;
    return {
      data: result,
      meta: pagedMeta(to, paginationMeta(page, Math.max(s.gained, s.lost))),
      text: `From ${result.from_release} (${s.from_total} concepts) to ${result.to_release} (${s.to_total}): ${s.gained} gained, ${s.lost} lost, ${s.unchanged} unchanged.`,
    };
  },
});

const mapSourceTermsTool = defineTool({
  name: 'map_source_terms',
  title: 'Ranked standard-concept candidates for source terms',
  description:
    "Candidates for mapping a few source terms (names, optionally codes) to standard concepts, as a mapping job computes them: the top k per term with score (0–1) and why each was proposed (exact_code, exact_name, exact_synonym, keyword, meaning, maps_to), the best pre-selected. " +
    `At most ${MAP_TERMS_MAX_TERMS} terms per call; whole files go to a mapping job (POST /v1/mapping/jobs).`,
  input: Type.Object(
    {
      terms: Type.Array(
        Type.Object(
          {
            source_name: Type.String({ minLength: 1, maxLength: MAX_TERM_CHARS, description: 'The source term, e.g. "DM2 w/o complications".' }),
            source_code: Type.Optional(Type.String({ maxLength: MAX_TERM_CHARS, description: 'Its source code, if any: concepts with this code are candidates.' })),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: MAP_TERMS_MAX_TERMS, description: `The terms (1–${MAP_TERMS_MAX_TERMS}).` },
      ),
      k: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_RANKED_CANDIDATES, default: MAP_TERMS_DEFAULT_K, description: `Candidates per term (1–${MAX_RANKED_CANDIDATES}, default ${MAP_TERMS_DEFAULT_K}).` })),
      domain_ids: CsvArgument("Comma-separated domains the candidates must be in, e.g. 'Condition'."),
      vocabulary_ids: CsvArgument("Comma-separated vocabularies the candidates must be in, e.g. 'SNOMED'."),
      vocab_release: VocabReleaseArgument,
    },
    { additionalProperties: false },
  ),
  data: Type.Object({
    results: Type.Array(AnyObject('{source_name, source_code, candidates[], selected_concept_ids[]}: candidates and selection as POST /v1/mapping/candidates returns them.')),
  }),
  async run(args, ctx) {
    const view = ctx.view(args.vocab_release);
    const filters = { ...(args.domain_ids ? { domain_ids: csvList(args.domain_ids) } : {}), ...(args.vocabulary_ids ? { vocabulary_ids: csvList(args.vocabulary_ids) } : {}) };
    const options = checkMappingOptions({ k: args.k ?? MAP_TERMS_DEFAULT_K, filters }, view);
    const results = [];
    for (const [index, t] of args.terms.entries()) {
      if (t.source_name.trim() === '') throw validationError(`Invalid argument 'terms.${index}.source_name': must not be blank.`, { parameter: `terms.${index}.source_name` });
      const term = { index: 0, line: 0, source_code: t.source_code ?? '', source_name: t.source_name, source_frequency: 0, additional_info: {} };
      const mapped = await ctx.compute('termCandidates', view, { term, options });
      results.push({ source_name: t.source_name, source_code: t.source_code ?? null, candidates: mapped.candidates, selected_concept_ids: mapped.review.concept_ids });
    }
    const lines = results.map((r) => {
      const best = (r.candidates as unknown as Array<Parameters<typeof conceptLine>[0] & { score: number }>)[0];
      return `${r.source_name} → ${best ? `${conceptLine(best)} (${best.score})` : 'no candidate'}`;
    });
    return { data: { results }, meta: releaseMeta(view), text: listText('Best candidate per term:', lines) };
  },
});

const diffReleasesTool = defineTool({
  name: 'diff_releases',
  title: "A code's changes between two releases",
  description:
    `What changed for one code between two loaded releases (FHIR CodeSystem/$diff for a code): ${DIFF_CHANGE_TYPES.join(', ')}. ` +
    'Default: from the release before to_release (default: the default release).',
  input: Type.Object(
    {
      system: Type.String({ minLength: 1, maxLength: 2048, description: 'Code-system URI of the code, e.g. http://snomed.info/sct, or https://fhir-terminology.ohdsi.org for a concept_id.' }),
      code: Type.String({ minLength: 1, maxLength: 256, description: 'The code.' }),
      from_release: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The earlier release (default: the one loaded just before to_release).' })),
      to_release: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The later release (default: the default release).' })),
      type: CsvArgument(`Comma-separated change types to report (default all): ${DIFF_CHANGE_TYPES.join(', ')}.`),
    },
    { additionalProperties: false },
  ),
  data: Type.Object({ from_release: Type.String(), to_release: Type.String(), changes: Type.Array(AnyObject('One change: type, concept, before/after values.')) }),
  run(args, ctx) {
    const after = args.to_release === undefined ? ctx.view() : releaseArgument(ctx, args.to_release, 'to_release');
    let before;
    if (args.from_release !== undefined) before = releaseArgument(ctx, args.from_release, 'from_release');
    else {
      const previous = ctx.registry.releaseBefore(after.label);
      if (!previous) throw validationError(`Argument 'from_release' is required: no release is loaded before ${after.label}.`, { parameter: 'from_release' });
      before = after.onRelease(previous);
    }
    const changes = diffCode(before, after, args.system, args.code, diffChangeTypes(csvList(args.type) ?? []));
    return {
      data: { from_release: before.label, to_release: after.label, changes },
      meta: releaseMeta(after),
      text: changes.length ? listText(`${changes.length} changes of ${args.code} from ${before.label} to ${after.label}:`, changes.map((c) => c.type)) : `No change of ${args.code} from ${before.label} to ${after.label}.`,
    };
  },
});

const listReleasesTool = defineTool({
  name: 'list_releases',
  title: 'List the loaded vocabulary releases',
  description: 'The vocabulary releases this server has loaded (label, vocabulary date, load date) and the default one: the values vocab_release, from_release and to_release take.',
  input: Type.Object({ ...pageArguments(RELEASES_TOOL_MAX_PAGE_SIZE, RELEASES_TOOL_MAX_PAGE_SIZE) }, { additionalProperties: false }),
  data: Type.Object({ releases: Type.Array(AnyObject('A release.')), default_release: Type.Union([Type.String(), Type.Null()]) }),
  run(args, ctx) {
    const { releases, default_release } = listReleases(ctx.registry);
    const page = readPage(args, { defaultPageSize: RELEASES_TOOL_MAX_PAGE_SIZE, maxPageSize: RELEASES_TOOL_MAX_PAGE_SIZE });
    const pagination = paginationMeta(page, releases.length);
    const shown = pageOf(releases, page);
    return {
      data: { releases: shown, default_release },
      meta: { vocab_release: default_release, pagination },
      text: listText(`${releases.length} releases (default ${default_release ?? 'none'}):`, shown.map((r) => (r as { label: string }).label)),
    };
  },
});

export const CONCEPT_SET_AND_RELEASE_TOOLS: readonly McpTool[] = [resolveConceptSetTool, optimizeConceptSetTool, diffConceptSetTool, mapSourceTermsTool, diffReleasesTool, listReleasesTool];
