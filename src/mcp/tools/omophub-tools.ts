/**
 * The hosted OMOPHub MCP server's eleven tools, with its names and argument names (so prompts and agent configurations
 * written for it work unchanged) and a few more optional arguments; each calls the service its REST route calls.
 */
import { Type } from 'typebox';
import { getConceptByCode, getConceptById } from '../../services/concepts/concept-lookup.js';
import { listConceptRelationships } from '../../services/concepts/concept-relationships.js';
import { CODEABLE_CONCEPT_MAX_CODINGS, resolveCodeableConcept } from '../../services/fhir-resolver/resolve-codeable-concept.js';
import { resolveCoding } from '../../services/fhir-resolver/resolve-coding.js';
import { RECOMMENDATIONS_DEFAULT_LIMIT, RECOMMENDATIONS_MAX_LIMIT, RESOURCE_TYPES, type CodingInput, type ResolveOptions, type ResourceType } from '../../services/fhir-resolver/resolution.js';
import { conceptAncestors, conceptDescendants, conceptHierarchy } from '../../services/hierarchy/concept-hierarchy.js';
import { MAX_HIERARCHY_PAGE_SIZE } from '../../services/hierarchy/hierarchy-options.js';
import { csvList, listField } from '../../services/list-field.js';
import { conceptMappings } from '../../services/mappings/concept-mappings.js';
import { pageOf, paginationMeta, readPage } from '../../services/pagination.js';
import { searchConcepts } from '../../services/search/keyword-search.js';
import { parseStandardConcept } from '../../services/search/search-filters.js';
import { resolverContextFor } from '../../services/fhir-resolver/resolver-context.js';
import { SEMANTIC_QUERY_MAX_LENGTH } from '../../services/semantic/semantic-query.js';
import { semanticSearchData, SEMANTIC_DEFAULT_THRESHOLD, SEMANTIC_MAX_PAGE_SIZE } from '../../services/semantic/semantic-search.js';
import { SIMILAR_DEFAULT_ALGORITHM, SIMILAR_DEFAULT_THRESHOLD } from '../../services/semantic/similar-concepts.js';
import { listVocabularies } from '../../services/vocabularies/vocabulary-catalog.js';
import { searchVocabularies } from '../../services/vocabularies/vocabulary-search.js';
import { ConceptIdArgument, CsvArgument, oneOf, pageArguments } from './schema-helpers.js';
import { AnyObject, conceptLine, defineTool, listText, pagedMeta, releaseMeta, VocabReleaseArgument, type McpTool, type ToolContext } from './tool-definition.js';
import type { ReleaseView } from '../../services/release-view.js';

/** search_concepts: the hosted tool's page size (1–50, default 10). */
export const SEARCH_TOOL_MAX_PAGE_SIZE = 50;
export const SEARCH_TOOL_DEFAULT_PAGE_SIZE = 10;
export const SEMANTIC_TOOL_DEFAULT_PAGE_SIZE = 10;
/** find_similar_concepts: at most this many results (the hosted tool's cap; REST allows more). */
export const SIMILAR_TOOL_MAX_PAGE_SIZE = 100;
export const HIERARCHY_TOOL_DEFAULT_RESULTS = 100;
/** get_hierarchy: nodes per direction (the hosted tool's cap); up/down pages hold at most MAX_HIERARCHY_PAGE_SIZE. */
export const HIERARCHY_TOOL_MAX_RESULTS = 500;
export const EXPLORE_MAX_LEVELS = 5;
export const EXPLORE_DEFAULT_LEVELS = 2;
export const EXPLORE_MAX_MAPPINGS = 200;
export const EXPLORE_DEFAULT_MAPPINGS = 100;
export const MAP_TOOL_DEFAULT_PAGE_SIZE = 100;
export const MAP_TOOL_MAX_PAGE_SIZE = 200;
export const VOCABULARY_TOOL_DEFAULT_PAGE_SIZE = 100;
export const VOCABULARY_TOOL_MAX_PAGE_SIZE = 200;

const VOCABULARY_IDS = "Comma-separated vocabulary ids to keep, e.g. 'SNOMED,ICD10CM'. Leave empty for all vocabularies.";
const DOMAIN_IDS = "Comma-separated domain ids to keep, e.g. 'Condition,Drug,Measurement'. Leave empty for all domains.";
const STANDARD = oneOf(['S', 'C', 'N'] as const, "Keep only standard (S), classification (C) or non-standard (N) concepts. Omit for all.");

const ConceptLookupFlags = {
  include_synonyms: Type.Optional(Type.Boolean({ description: 'Add the synonyms (default false).' })),
  include_relationships: Type.Optional(Type.Boolean({ description: 'Add the direct parents and children (default false).' })),
  include_hierarchy: Type.Optional(Type.Boolean({ description: 'Add ancestors and descendants (default false).' })),
};

interface ConceptRow {
  concept_id: number;
  concept_name: string;
  vocabulary_id: string;
  concept_code: string;
  domain_id?: string;
  standard_concept?: string | null;
}

const searchConceptsTool = defineTool({
  name: 'search_concepts',
  title: 'Search concepts by name, synonym or code',
  description:
    "Search the OMOP standardized vocabularies by name, synonym, code or concept_id (keyword search, ranked). Returns concepts with ids, names, vocabulary, domain and standard status. Use it to find the OMOP concept_id of a medical term, e.g. 'type 2 diabetes', 'metformin 500 mg', 'HbA1c', 'E11.9'. " +
    `At most ${SEARCH_TOOL_MAX_PAGE_SIZE} results per call; page with \`page\`.`,
  input: Type.Object(
    {
      query: Type.String({ minLength: 1, maxLength: SEMANTIC_QUERY_MAX_LENGTH, description: 'The term, code or concept_id to search for.' }),
      vocabulary_ids: CsvArgument(VOCABULARY_IDS),
      domain_ids: CsvArgument(DOMAIN_IDS),
      concept_class_ids: CsvArgument("Comma-separated concept class ids, e.g. 'Clinical Finding'."),
      standard_concept: Type.Optional(STANDARD),
      include_invalid: Type.Optional(Type.Boolean({ description: 'Also return deprecated or replaced concepts, after the valid ones (default false).' })),
      ...pageArguments(SEARCH_TOOL_DEFAULT_PAGE_SIZE, SEARCH_TOOL_MAX_PAGE_SIZE),
      vocab_release: VocabReleaseArgument,
    },
    { additionalProperties: false },
  ),
  data: Type.Array(AnyObject('A concept with match_score and match_type (as GET /v1/search/concepts returns it).')),
  run(args, ctx) {
    const view = ctx.view(args.vocab_release);
    const page = readPage(args, { defaultPageSize: SEARCH_TOOL_DEFAULT_PAGE_SIZE, maxPageSize: SEARCH_TOOL_MAX_PAGE_SIZE });
    const result = searchConcepts(view, {
      query: args.query,
      filters: {
        vocabularyIds: csvList(args.vocabulary_ids),
        domainIds: csvList(args.domain_ids),
        conceptClassIds: csvList(args.concept_class_ids),
        standardConcepts: parseStandardConcept(args.standard_concept),
        includeInvalid: args.include_invalid === true,
      },
      page: page.page,
      pageSize: page.pageSize,
    });
    const pagination = paginationMeta(page, result.total ?? 0);
    const items = result.items as unknown as ConceptRow[];
    return {
      data: result.items,
      meta: pagedMeta(view, pagination),
      text: listText(`${pagination.total_items} concepts match '${args.query}' (page ${pagination.page} of ${pagination.total_pages}):`, items.map(conceptLine)),
    };
  },
});

const semanticSearchTool = defineTool({
  name: 'semantic_search',
  title: 'Search concepts by meaning',
  description:
    "Search concepts by meaning rather than by words: 'heart attack' finds Myocardial infarction, 'high blood sugar' finds Hyperglycemia. Results are ranked by similarity_score (0–1) and only those ≥ threshold are returned. " +
    `Use it for everyday or descriptive language; use search_concepts for exact terms and codes. At most ${SEMANTIC_MAX_PAGE_SIZE} results per call.`,
  input: Type.Object(
    {
      query: Type.String({ minLength: 1, maxLength: SEMANTIC_QUERY_MAX_LENGTH, description: 'Natural-language description of the concept to find.' }),
      vocabulary_ids: CsvArgument(VOCABULARY_IDS),
      domain_ids: CsvArgument(DOMAIN_IDS),
      standard_concept: Type.Optional(STANDARD),
      threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: SEMANTIC_DEFAULT_THRESHOLD, description: `Minimum similarity_score, 0–1 (default ${SEMANTIC_DEFAULT_THRESHOLD}); lower it when nothing is found.` })),
      ...pageArguments(SEMANTIC_TOOL_DEFAULT_PAGE_SIZE, SEMANTIC_MAX_PAGE_SIZE),
      vocab_release: VocabReleaseArgument,
    },
    { additionalProperties: false },
  ),
  data: AnyObject('{query, results[], search_metadata} as GET /v1/search/semantic returns it.'),
  async run(args, ctx) {
    const view = ctx.view(args.vocab_release);
    const page = readPage(args, { defaultPageSize: SEMANTIC_TOOL_DEFAULT_PAGE_SIZE, maxPageSize: SEMANTIC_MAX_PAGE_SIZE });
    const result = await ctx.compute('semanticSearch', view, {
      query: args.query,
      filters: { vocabularyIds: csvList(args.vocabulary_ids), domainIds: csvList(args.domain_ids), standardConcepts: parseStandardConcept(args.standard_concept) },
      threshold: args.threshold,
      page: page.page,
      pageSize: page.pageSize,
    });
    const pagination = paginationMeta(page, result.totalAboveThreshold);
    const rows = result.results as unknown as Array<ConceptRow & { similarity_score: number }>;
    return {
      data: semanticSearchData(result),
      meta: pagedMeta(view, pagination),
      text: rows.length
        ? listText(`Concepts meaning '${args.query}' (similarity ≥ ${result.threshold}):`, rows.map((r) => `${conceptLine(r)} — ${r.similarity_score.toFixed(2)}`))
        : `No concept means '${args.query}' with similarity ≥ ${result.threshold}: lower the threshold or reword the query.`,
    };
  },
});

const findSimilarTool = defineTool({
  name: 'find_similar_concepts',
  title: 'Find concepts similar to a concept, a name or a description',
  description:
    "Concepts similar to a reference: give exactly ONE of concept_id, concept_name or query. algorithm 'semantic' (meaning), 'lexical' (words, tolerant of typos) or 'hybrid' (both, default). " +
    `Use it to find alternative codes or to grow a concept set. At most ${SIMILAR_TOOL_MAX_PAGE_SIZE} results.`,
  input: Type.Object(
    {
      concept_id: Type.Optional(ConceptIdArgument('Find concepts similar to this OMOP concept_id (itself excluded).')),
      concept_name: Type.Optional(Type.String({ maxLength: SEMANTIC_QUERY_MAX_LENGTH, description: 'Find concepts similar to this concept name.' })),
      query: Type.Optional(Type.String({ maxLength: SEMANTIC_QUERY_MAX_LENGTH, description: 'Find concepts matching this description.' })),
      algorithm: Type.Optional(oneOf(['semantic', 'lexical', 'hybrid'] as const, `semantic, lexical or hybrid (default ${SIMILAR_DEFAULT_ALGORITHM}).`, SIMILAR_DEFAULT_ALGORITHM)),
      similarity_threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: SIMILAR_DEFAULT_THRESHOLD, description: `Minimum similarity_score, 0–1 (default ${SIMILAR_DEFAULT_THRESHOLD}).` })),
      page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: SIMILAR_TOOL_MAX_PAGE_SIZE, default: 20, description: `Number of results (1–${SIMILAR_TOOL_MAX_PAGE_SIZE}, default 20).` })),
      vocabulary_ids: CsvArgument(VOCABULARY_IDS),
      domain_ids: CsvArgument(DOMAIN_IDS),
      standard_concept: Type.Optional(STANDARD),
      include_scores: Type.Optional(Type.Boolean({ description: 'Add the semantic, lexical and hybrid scores of each result.' })),
      vocab_release: VocabReleaseArgument,
    },
    { additionalProperties: false },
  ),
  data: AnyObject('{similar_concepts[], search_metadata} as POST /v1/search/similar returns it.'),
  async run(args, ctx) {
    const view = ctx.view(args.vocab_release);
    const filters = {
      vocabularyIds: listField(args.vocabulary_ids, 'vocabulary_ids'),
      domainIds: listField(args.domain_ids, 'domain_ids'),
      standardConcepts: parseStandardConcept(args.standard_concept),
      includeInvalid: false,
    };
    const result = await ctx.compute('similarConcepts', view, {
      concept_id: args.concept_id,
      concept_name: args.concept_name,
      query: args.query,
      algorithm: args.algorithm,
      similarity_threshold: args.similarity_threshold,
      page_size: args.page_size,
      filters,
      include_scores: args.include_scores,
    });
    const rows = result.similar_concepts as unknown as Array<ConceptRow & { similarity_score: number }>;
    const source = args.concept_id !== undefined ? `concept ${args.concept_id}` : `'${args.concept_name ?? args.query}'`;
    return {
      data: result,
      meta: releaseMeta(view),
      text: rows.length
        ? listText(`Concepts similar to ${source} (${result.search_metadata.algorithm_used}):`, rows.map((r) => `${conceptLine(r)} — ${r.similarity_score.toFixed(2)}`))
        : `Nothing similar to ${source} with similarity ≥ ${result.search_metadata.similarity_threshold}: lower similarity_threshold or try another algorithm.`,
    };
  },
});

function conceptText(c: ConceptRow & { concept_class_id?: string; invalid_reason?: string | null }): string {
  return `${conceptLine(c)}${c.concept_class_id ? `, class ${c.concept_class_id}` : ''}${c.invalid_reason ? `, invalid (${c.invalid_reason})` : ''}`;
}

const getConceptTool = defineTool({
  name: 'get_concept',
  title: 'Get a concept by concept_id',
  description: 'The details of one OMOP concept by its numeric concept_id: name, vocabulary, domain, class, code, standard status, validity; optionally synonyms, parents/children and ancestors/descendants.',
  input: Type.Object({ concept_id: ConceptIdArgument('The OMOP concept_id.'), ...ConceptLookupFlags, vocab_release: VocabReleaseArgument }, { additionalProperties: false }),
  data: AnyObject('The concept as GET /v1/concepts/{concept_id} returns it.'),
  run(args, ctx) {
    const view = ctx.view(args.vocab_release);
    const concept = getConceptById(view, args.concept_id, args);
    return { data: concept, meta: releaseMeta(view), text: conceptText(concept as unknown as ConceptRow) };
  },
});

const getConceptByCodeTool = defineTool({
  name: 'get_concept_by_code',
  title: 'Get a concept by vocabulary and code',
  description:
    "The concept with this code in this vocabulary. Both are needed: the same code exists in several vocabularies (E11 is in ICD10CM and ICD10). Examples: ICD10CM E11.9, SNOMED 44054006, LOINC 4548-4.",
  input: Type.Object(
    {
      vocabulary_id: Type.String({ minLength: 1, maxLength: 64, description: "The vocabulary id, e.g. 'ICD10CM', 'SNOMED', 'RxNorm', 'LOINC'." }),
      concept_code: Type.String({ minLength: 1, maxLength: 256, description: "The code in that vocabulary, e.g. 'E11.9', '44054006'." }),
      ...ConceptLookupFlags,
      vocab_release: VocabReleaseArgument,
    },
    { additionalProperties: false },
  ),
  data: AnyObject('The concept as GET /v1/concepts/by-code/{vocabulary_id}/{concept_code} returns it.'),
  run(args, ctx) {
    const view = ctx.view(args.vocab_release);
    const concept = getConceptByCode(view, args.vocabulary_id, args.concept_code, args);
    return { data: concept, meta: releaseMeta(view), text: conceptText(concept as unknown as ConceptRow) };
  },
});

const exploreConceptTool = defineTool({
  name: 'explore_concept',
  title: 'Explore a concept: details, hierarchy and mappings in one call',
  description:
    'One call instead of get_concept + get_hierarchy + map_concept: the concept, its ancestors and descendants (hierarchy_levels deep) and its cross-vocabulary mappings (Maps to and Mapped from). ' +
    `An overview: at most ${EXPLORE_MAX_MAPPINGS} mappings; for a complete list use map_concept and page through it.`,
  input: Type.Object(
    {
      concept_id: ConceptIdArgument('The OMOP concept_id to explore.'),
      include_hierarchy: Type.Optional(Type.Boolean({ default: true, description: 'Include ancestors and descendants (default true).' })),
      hierarchy_levels: Type.Optional(Type.Integer({ minimum: 1, maximum: EXPLORE_MAX_LEVELS, default: EXPLORE_DEFAULT_LEVELS, description: `Hierarchy levels each way (1–${EXPLORE_MAX_LEVELS}, default ${EXPLORE_DEFAULT_LEVELS}).` })),
      include_mappings: Type.Optional(Type.Boolean({ default: true, description: 'Include Maps to / Mapped from relationships (default true).' })),
      target_vocabularies: CsvArgument("Comma-separated vocabulary ids the mapped concepts must be in, e.g. 'ICD10CM'."),
      mappings_page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: EXPLORE_MAX_MAPPINGS, default: EXPLORE_DEFAULT_MAPPINGS, description: `Most mappings to return (1–${EXPLORE_MAX_MAPPINGS}, default ${EXPLORE_DEFAULT_MAPPINGS}).` })),
      vocab_release: VocabReleaseArgument,
    },
    { additionalProperties: false },
  ),
  data: Type.Object({
    concept: AnyObject('GET /v1/concepts/{concept_id}.'),
    hierarchy: Type.Union([AnyObject('GET /v1/concepts/{concept_id}/hierarchy?max_levels=hierarchy_levels.'), Type.Null()]),
    relationships: Type.Union([AnyObject("GET /v1/concepts/{concept_id}/relationships?relationship_ids=Maps to,Mapped from."), Type.Null()]),
  }),
  run(args, ctx) {
    const view = ctx.view(args.vocab_release);
    const concept = getConceptById(view, args.concept_id);
    const hierarchy = args.include_hierarchy === false ? null : conceptHierarchy(view, args.concept_id, { max_levels: args.hierarchy_levels }, 'flat', HIERARCHY_TOOL_DEFAULT_RESULTS);
    let relationships: { relationships: unknown[] } | null = null;
    let mappingsTotal = 0;
    if (args.include_mappings !== false) {
      const found = listConceptRelationships(
        view,
        args.concept_id,
        { relationshipIds: ['Maps to', 'Mapped from'], vocabularyIds: csvList(args.target_vocabularies), includeInvalid: false, standardOnly: false, includeReverse: false },
        { offset: 0, limit: args.mappings_page_size ?? EXPLORE_DEFAULT_MAPPINGS },
      );
      relationships = { relationships: found.relationships };
      mappingsTotal = found.total;
    }
    const flat = hierarchy as { total_ancestors?: number; total_descendants?: number } | null;
    const lines = [conceptText(concept as unknown as ConceptRow)];
    if (flat) lines.push(`${flat.total_ancestors ?? 0} ancestors and ${flat.total_descendants ?? 0} descendants within ${args.hierarchy_levels ?? EXPLORE_DEFAULT_LEVELS} levels.`);
    if (relationships) {
      const rels = relationships.relationships as Array<{ relationship_id: string; concept_2?: ConceptRow }>;
      lines.push(
        listText(
          `${mappingsTotal} mappings (Maps to / Mapped from):`,
          rels.map((r) => `${r.relationship_id} → ${r.concept_2 ? conceptLine(r.concept_2) : '?'}`),
          mappingsTotal > rels.length ? `${mappingsTotal - rels.length} more: use map_concept and page through it.` : '',
        ),
      );
    }
    return { data: { concept, hierarchy, relationships }, meta: releaseMeta(view), text: lines.join('\n') };
  },
});

const mapConceptTool = defineTool({
  name: 'map_concept',
  title: "Map a concept to other vocabularies",
  description:
    "Mappings FROM a source concept TO concepts in other vocabularies (Maps to by default): the concept_id given is always the source. Filter the targets with target_vocabularies, e.g. a SNOMED concept with target_vocabularies='ICD10CM'. " +
    `An empty list means no mapping exists. At most ${MAP_TOOL_MAX_PAGE_SIZE} per page.`,
  input: Type.Object(
    {
      concept_id: ConceptIdArgument('The source OMOP concept_id to map FROM.'),
      target_vocabularies: CsvArgument("Comma-separated vocabulary ids to map TO, e.g. 'ICD10CM,SNOMED'. Omit for every vocabulary."),
      relationship_ids: CsvArgument("Comma-separated relationships to follow (default 'Maps to'; 'Maps to value' must be asked for)."),
      include_invalid: Type.Optional(Type.Boolean({ default: true, description: 'Include mappings to deprecated concepts (default true, as the REST route).' })),
      ...pageArguments(MAP_TOOL_DEFAULT_PAGE_SIZE, MAP_TOOL_MAX_PAGE_SIZE),
      vocab_release: VocabReleaseArgument,
    },
    { additionalProperties: false },
  ),
  data: AnyObject('{source_concept, mappings[], total_mappings} as GET /v1/concepts/{concept_id}/mappings returns it.'),
  run(args, ctx) {
    const view = ctx.view(args.vocab_release);
    const page = readPage(args, { defaultPageSize: MAP_TOOL_DEFAULT_PAGE_SIZE, maxPageSize: MAP_TOOL_MAX_PAGE_SIZE });
    const result = conceptMappings(view, {
      conceptId: args.concept_id,
      targetVocabularyIds: csvList(args.target_vocabularies),
      relationshipIds: csvList(args.relationship_ids),
      includeInvalid: args.include_invalid ?? true,
      offset: page.offset,
      limit: page.pageSize,
    });
    const pagination = paginationMeta(page, result.total_mappings);
    const rows = result.mappings as unknown as Array<{ relationship_id: string; target_concept_id: number; target_concept_name: string; target_vocabulary_id?: string; target_concept_code?: string }>;
    return {
      data: result,
      meta: pagedMeta(view, pagination),
      text: rows.length
        ? listText(
            `${result.total_mappings} mappings from concept ${args.concept_id}:`,
            rows.map((m) => `${m.relationship_id} → ${m.target_concept_id} ${m.target_concept_name}${m.target_vocabulary_id ? ` [${m.target_vocabulary_id} ${m.target_concept_code ?? ''}]` : ''}`),
          )
        : `No mappings found from concept ${args.concept_id}${args.target_vocabularies ? ` to ${args.target_vocabularies}` : ''} (mapped: false).`,
    };
  },
});

const getHierarchyTool = defineTool({
  name: 'get_hierarchy',
  title: "Navigate a concept's hierarchy",
  description:
    "Ancestors (direction='up', broader concepts), descendants ('down', narrower: what a phenotype concept set includes) or both (default). " +
    `At most max_results nodes each way (1–${HIERARCHY_TOOL_MAX_RESULTS}, default ${HIERARCHY_TOOL_DEFAULT_RESULTS}; up and down pages hold at most ${MAX_HIERARCHY_PAGE_SIZE}, page with \`page\`); the totals say how many exist, so narrow with vocabulary_ids or max_levels when truncated.`,
  input: Type.Object(
    {
      concept_id: ConceptIdArgument('The OMOP concept_id.'),
      direction: Type.Optional(oneOf(['up', 'down', 'both'] as const, "'up' ancestors, 'down' descendants, 'both' (default).", 'both')),
      max_levels: Type.Optional(Type.Integer({ minimum: 0, description: 'Levels to traverse (default: all; more than 20 are clamped).' })),
      max_results: Type.Optional(Type.Integer({ minimum: 1, maximum: HIERARCHY_TOOL_MAX_RESULTS, default: HIERARCHY_TOOL_DEFAULT_RESULTS, description: `Most nodes each way (1–${HIERARCHY_TOOL_MAX_RESULTS}, default ${HIERARCHY_TOOL_DEFAULT_RESULTS}).` })),
      page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: "Page of nodes for direction 'up' or 'down' (1-based)." })),
      vocabulary_ids: CsvArgument('Comma-separated vocabulary ids the nodes must be in. Leave empty for all.'),
      vocab_release: VocabReleaseArgument,
    },
    { additionalProperties: false },
  ),
  data: AnyObject('GET /v1/concepts/{id}/hierarchy (both), /ancestors (up) or /descendants (down).'),
  run(args, ctx) {
    const view = ctx.view(args.vocab_release);
    const options = { max_levels: args.max_levels, vocabulary_ids: csvList(args.vocabulary_ids) };
    const direction = args.direction ?? 'both';
    const maxResults = args.max_results ?? HIERARCHY_TOOL_DEFAULT_RESULTS;
    if (direction === 'both') {
      const data = conceptHierarchy(view, args.concept_id, options, 'flat', maxResults) as {
        concept_name: string;
        ancestors: ConceptRow[];
        descendants: ConceptRow[];
        total_ancestors: number;
        total_descendants: number;
      };
      const text = [
        `${data.concept_name} (${args.concept_id}): ${data.total_ancestors} ancestors, ${data.total_descendants} descendants.`,
        listText('Ancestors:', data.ancestors.map(conceptLine)),
        listText('Descendants:', data.descendants.map(conceptLine)),
      ].join('\n');
      return { data, meta: releaseMeta(view), text };
    }
    const page = readPage({ page: args.page, page_size: maxResults }, { maxPageSize: MAX_HIERARCHY_PAGE_SIZE });
    const answer = direction === 'up' ? conceptAncestors : conceptDescendants;
    const { data, total } = answer(view, args.concept_id, options, { offset: page.offset, limit: page.pageSize });
    const pagination = paginationMeta(page, total);
    const nodes = ((data as unknown as Record<string, ConceptRow[]>)[direction === 'up' ? 'ancestors' : 'descendants'] ?? []) as ConceptRow[];
    return {
      data,
      meta: pagedMeta(view, pagination),
      text: listText(`${total} ${direction === 'up' ? 'ancestors' : 'descendants'} of concept ${args.concept_id}:`, nodes.map(conceptLine)),
    };
  },
});

const listVocabulariesTool = defineTool({
  name: 'list_vocabularies',
  title: 'List the vocabularies',
  description: 'The vocabularies of the release (SNOMED, ICD10CM, RxNorm, LOINC, …) with concept counts; `search` keeps those whose id or name matches. Licence-restricted vocabularies your key may not read are left out.',
  input: Type.Object(
    {
      search: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Keep vocabularies whose id or name matches this text.' })),
      ...pageArguments(VOCABULARY_TOOL_DEFAULT_PAGE_SIZE, VOCABULARY_TOOL_MAX_PAGE_SIZE),
      vocab_release: VocabReleaseArgument,
    },
    { additionalProperties: false },
  ),
  data: Type.Object({ vocabularies: Type.Array(AnyObject('A vocabulary with its counts.')) }, { additionalProperties: true }),
  run(args, ctx) {
    const view = ctx.view(args.vocab_release);
    const page = readPage(args, { defaultPageSize: VOCABULARY_TOOL_DEFAULT_PAGE_SIZE, maxPageSize: VOCABULARY_TOOL_MAX_PAGE_SIZE });
    const all = args.search === undefined ? listVocabularies(view, { include_stats: true }) : searchVocabularies(view, args.search, { include_stats: true });
    const rows = pageOf(all, page) as unknown as Array<{ vocabulary_id: string; vocabulary_name: string; concept_count?: number }>;
    const pagination = paginationMeta(page, all.length);
    return {
      data: { vocabularies: rows },
      meta: pagedMeta(view, pagination),
      text: listText(`${all.length} vocabularies${args.search ? ` matching '${args.search}'` : ''}:`, rows.map((v) => `${v.vocabulary_id} — ${v.vocabulary_name}${v.concept_count !== undefined ? ` (${v.concept_count} concepts)` : ''}`)),
    };
  },
});

const CodingArguments = {
  system: Type.Optional(Type.String({ maxLength: 2048, description: 'FHIR code-system URI, e.g. http://snomed.info/sct, http://loinc.org, http://hl7.org/fhir/sid/icd-10-cm.' })),
  code: Type.Optional(Type.String({ maxLength: 256, description: 'The code (with system or vocabulary_id).' })),
  display: Type.Optional(Type.String({ maxLength: 1000, description: 'Display text: the fallback (meaning-based match) when the code is not found, or the only input.' })),
  vocabulary_id: Type.Optional(Type.String({ maxLength: 64, description: 'OMOP vocabulary id instead of system, e.g. ICD10CM.' })),
};

const ResolveOptionArguments = {
  resource_type: Type.Optional(oneOf(RESOURCE_TYPES, 'FHIR resource type the coding comes from: checks domain alignment and picks the CDM table.')),
  include_recommendations: Type.Optional(Type.Boolean({ default: false, description: 'Add related concepts worth considering (default false).' })),
  recommendations_limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: RECOMMENDATIONS_MAX_LIMIT, description: `At most this many recommendations (1–${RECOMMENDATIONS_MAX_LIMIT}, default ${RECOMMENDATIONS_DEFAULT_LIMIT}).` }),
  ),
  include_quality: Type.Optional(Type.Boolean({ default: false, description: 'Add mapping_quality (high/medium/low/manual_review) (default false).' })),
};

function resolveOptionsOf(args: { resource_type?: string; include_recommendations?: boolean; recommendations_limit?: number; include_quality?: boolean }): ResolveOptions {
  return {
    resourceType: args.resource_type as ResourceType | undefined,
    includeRecommendations: args.include_recommendations ?? false,
    recommendationsLimit: args.recommendations_limit ?? RECOMMENDATIONS_DEFAULT_LIMIT,
    includeQuality: args.include_quality ?? false,
    onUnmapped: 'error',
  };
}

interface ResolutionShape {
  resolution?: { standard_concept?: ConceptRow | null; source_concept?: ConceptRow | null; mapping_type?: string; target_table?: string | null; mapping_quality?: string } | null;
}

function resolutionText(outcome: ResolutionShape): string {
  const r = outcome.resolution;
  if (!r?.standard_concept) return 'No standard concept found for this coding.';
  return [
    `Standard concept: ${conceptLine(r.standard_concept)}`,
    r.source_concept ? `Source concept: ${conceptLine(r.source_concept)}` : '',
    `Mapping: ${r.mapping_type ?? '?'}; CDM table: ${r.target_table ?? 'unknown'}${r.mapping_quality ? `; quality ${r.mapping_quality}` : ''}`,
  ]
    .filter(Boolean)
    .join('\n');
}

/** The resolver's context for a tool call: its display fallback computed where the server computes heavy work. */
function resolverOf(ctx: ToolContext, view: ReleaseView) {
  return resolverContextFor(ctx.semanticIndexes, view, (display, options) => ctx.compute('resolveDisplay', view, { display, options }));
}

const fhirResolveTool = defineTool({
  name: 'fhir_resolve',
  title: 'Resolve a FHIR coding to an OMOP standard concept',
  description:
    "A FHIR coded value (system URI + code) → its OMOP source concept, standard concept and CDM target table. Give system + code, vocabulary_id + code, or display alone (meaning-based fallback). Example: system='http://snomed.info/sct' code='44054006'; or display='heart attack'.",
  input: Type.Object({ ...CodingArguments, ...ResolveOptionArguments, vocab_release: VocabReleaseArgument }, { additionalProperties: false }),
  data: AnyObject('{input, resolution} as POST /v1/fhir/resolve returns it.'),
  async run(args, ctx) {
    const view = ctx.view(args.vocab_release);
    const coding: CodingInput = { system: args.system, code: args.code, display: args.display, vocabulary_id: args.vocabulary_id };
    const outcome = await resolveCoding(resolverOf(ctx, view), coding, resolveOptionsOf(args));
    return { data: outcome, meta: releaseMeta(view), text: resolutionText(outcome as ResolutionShape) };
  },
});

const fhirResolveCodeableConceptTool = defineTool({
  name: 'fhir_resolve_codeable_concept',
  title: 'Resolve a FHIR CodeableConcept (several codings)',
  description:
    'A FHIR CodeableConcept with several codings → the best OMOP match (a coding with user_selected wins; otherwise SNOMED > RxNorm > LOINC > CVX > ICD-10 > others), the alternatives and the codings that did not resolve; `text` is the meaning-based fallback.',
  input: Type.Object(
    {
      coding: Type.Array(
        Type.Object({ ...CodingArguments, user_selected: Type.Optional(Type.Boolean({ description: 'FHIR Coding.userSelected: this coding wins.' })) }),
        { minItems: 1, maxItems: CODEABLE_CONCEPT_MAX_CODINGS, description: `The codings of the CodeableConcept (1–${CODEABLE_CONCEPT_MAX_CODINGS}).` },
      ),
      text: Type.Optional(Type.String({ maxLength: 1000, description: 'CodeableConcept.text: the fallback when no coding resolves.' })),
      ...ResolveOptionArguments,
      vocab_release: VocabReleaseArgument,
    },
    { additionalProperties: false },
  ),
  data: AnyObject('{input, best_match, alternatives[], unresolved[]} as POST /v1/fhir/resolve/codeable-concept returns it.'),
  async run(args, ctx) {
    const view = ctx.view(args.vocab_release);
    const codings: CodingInput[] = args.coding.map((c) => ({ system: c.system, code: c.code, display: c.display, vocabulary_id: c.vocabulary_id, user_selected: c.user_selected }));
    const outcome = await resolveCodeableConcept(resolverOf(ctx, view), codings, args.text, resolveOptionsOf(args));
    const best = (outcome as { best_match?: ResolutionShape | null }).best_match;
    return { data: outcome, meta: releaseMeta(view), text: best ? `Best match:\n${resolutionText(best)}` : 'No coding resolved and the text found nothing.' };
  },
});

export const OMOPHUB_TOOLS: readonly McpTool[] = [
  searchConceptsTool,
  semanticSearchTool,
  findSimilarTool,
  getConceptTool,
  getConceptByCodeTool,
  exploreConceptTool,
  mapConceptTool,
  getHierarchyTool,
  listVocabulariesTool,
  fhirResolveTool,
  fhirResolveCodeableConceptTool,
];
