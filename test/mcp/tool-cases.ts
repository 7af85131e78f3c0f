/**
 * Every MCP tool asked a question over the bundled demo vocabulary, with the REST request that asks the same question
 * (the tool's structured `data` must equal that answer's `data`), and bad arguments with the error each must give.
 */
export interface RestCall {
  method?: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

export interface ToolCase {
  tool: string;
  args: Record<string, unknown>;
  /** The REST request(s) whose `data` the tool's `data` equals: one request, or one per field of `data`. */
  rest: RestCall | Record<string, RestCall | null>;
}

export interface BadArgumentCase {
  tool: string;
  args: Record<string, unknown>;
  code: string;
  /** The message, exactly (argument checks), or the REST request that gives the same error (service checks). */
  message?: string;
  rest?: RestCall;
}

/** Demo-vocabulary concepts the cases use (examples/demo-vocabulary/CONCEPT.csv). */
export const DEMO = {
  type2Diabetes: 201826,
  diabetes: 201820,
  icd10E11: 1567956,
  cpt4Obstetric: 2110307,
  cpt4Code: '59400',
} as const;

const q = encodeURIComponent;

export const TOOL_CASES: readonly ToolCase[] = [
  { tool: 'search_concepts', args: { query: 'diabetes', page_size: 5 }, rest: { path: '/v1/search/concepts?query=diabetes&page_size=5' } },
  {
    tool: 'search_concepts',
    args: { query: 'diabetes', vocabulary_ids: 'SNOMED', standard_concept: 'S', page: 2, page_size: 3 },
    rest: { path: '/v1/search/concepts?query=diabetes&vocabulary_ids=SNOMED&standard_concept=S&page=2&page_size=3' },
  },
  { tool: 'semantic_search', args: { query: 'high blood sugar', threshold: 0.2, page_size: 5 }, rest: { path: `/v1/search/semantic?query=${q('high blood sugar')}&threshold=0.2&page_size=5` } },
  {
    tool: 'find_similar_concepts',
    args: { concept_id: DEMO.type2Diabetes, similarity_threshold: 0.2, page_size: 5 },
    rest: { method: 'POST', path: '/v1/search/similar', body: { concept_id: DEMO.type2Diabetes, similarity_threshold: 0.2, page_size: 5 } },
  },
  { tool: 'get_concept', args: { concept_id: DEMO.type2Diabetes }, rest: { path: `/v1/concepts/${DEMO.type2Diabetes}` } },
  {
    tool: 'get_concept',
    args: { concept_id: DEMO.type2Diabetes, include_synonyms: true, include_relationships: true },
    rest: { path: `/v1/concepts/${DEMO.type2Diabetes}?include_synonyms=true&include_relationships=true` },
  },
  { tool: 'get_concept_by_code', args: { vocabulary_id: 'ICD10CM', concept_code: 'E11' }, rest: { path: '/v1/concepts/by-code/ICD10CM/E11' } },
  {
    tool: 'explore_concept',
    args: { concept_id: DEMO.icd10E11 },
    rest: {
      concept: { path: `/v1/concepts/${DEMO.icd10E11}` },
      hierarchy: { path: `/v1/concepts/${DEMO.icd10E11}/hierarchy?max_levels=2` },
      relationships: { path: `/v1/concepts/${DEMO.icd10E11}/relationships?relationship_ids=${q('Maps to,Mapped from')}&page_size=100` },
    },
  },
  {
    tool: 'explore_concept',
    args: { concept_id: DEMO.type2Diabetes, include_mappings: false, hierarchy_levels: 1 },
    rest: { concept: { path: `/v1/concepts/${DEMO.type2Diabetes}` }, hierarchy: { path: `/v1/concepts/${DEMO.type2Diabetes}/hierarchy?max_levels=1` }, relationships: null },
  },
  { tool: 'map_concept', args: { concept_id: DEMO.icd10E11 }, rest: { path: `/v1/concepts/${DEMO.icd10E11}/mappings` } },
  { tool: 'map_concept', args: { concept_id: DEMO.icd10E11, target_vocabularies: 'SNOMED', page_size: 1 }, rest: { path: `/v1/concepts/${DEMO.icd10E11}/mappings?target_vocabulary=SNOMED&page_size=1` } },
  { tool: 'get_hierarchy', args: { concept_id: DEMO.type2Diabetes }, rest: { path: `/v1/concepts/${DEMO.type2Diabetes}/hierarchy?max_results=100` } },
  { tool: 'get_hierarchy', args: { concept_id: DEMO.diabetes, direction: 'down', max_results: 3 }, rest: { path: `/v1/concepts/${DEMO.diabetes}/descendants?page_size=3` } },
  { tool: 'get_hierarchy', args: { concept_id: DEMO.type2Diabetes, direction: 'up', max_levels: 2 }, rest: { path: `/v1/concepts/${DEMO.type2Diabetes}/ancestors?max_levels=2&page_size=100` } },
  { tool: 'list_vocabularies', args: {}, rest: { path: '/v1/vocabularies?include_stats=true&page_size=100' } },
  { tool: 'list_vocabularies', args: { search: 'SNOMED' }, rest: { path: '/v1/vocabularies/search?query=SNOMED&include_stats=true&page_size=100' } },
  {
    tool: 'fhir_resolve',
    args: { system: 'http://snomed.info/sct', code: '44054006', resource_type: 'Condition', include_quality: true },
    rest: { method: 'POST', path: '/v1/fhir/resolve', body: { system: 'http://snomed.info/sct', code: '44054006', resource_type: 'Condition', include_quality: true } },
  },
  {
    tool: 'fhir_resolve_codeable_concept',
    args: { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'E11' }, { system: 'http://snomed.info/sct', code: '44054006' }], text: 'type 2 diabetes' },
    rest: {
      method: 'POST',
      path: '/v1/fhir/resolve/codeable-concept',
      body: { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'E11' }, { system: 'http://snomed.info/sct', code: '44054006' }], text: 'type 2 diabetes' },
    },
  },
];

export const BAD_ARGUMENT_CASES: readonly BadArgumentCase[] = [
  { tool: 'search_concepts', args: {}, code: 'validation_error', message: "Missing required argument 'query'." },
  { tool: 'search_concepts', args: { query: 'diabetes', page_size: 51 }, code: 'validation_error', message: "Invalid argument 'page_size': must be <= 50." },
  { tool: 'search_concepts', args: { query: 'diabetes', vocab_release: '1999.1' }, code: 'release_not_found', rest: { path: '/v1/search/concepts?query=diabetes&vocab_release=1999.1' } },
  { tool: 'semantic_search', args: { query: 'sugar', threshold: 2 }, code: 'validation_error', message: "Invalid argument 'threshold': must be <= 1." },
  {
    tool: 'find_similar_concepts',
    args: { concept_id: DEMO.type2Diabetes, query: 'diabetes' },
    code: 'validation_error',
    rest: { method: 'POST', path: '/v1/search/similar', body: { concept_id: DEMO.type2Diabetes, query: 'diabetes' } },
  },
  { tool: 'get_concept', args: { concept_id: 999999999 }, code: 'not_found', rest: { path: '/v1/concepts/999999999' } },
  { tool: 'get_concept', args: { concept_id: 'abc' }, code: 'validation_error', message: "Invalid argument 'concept_id': must be integer." },
  { tool: 'get_concept_by_code', args: { vocabulary_id: 'ICD10CM', concept_code: 'Z99.999' }, code: 'not_found', rest: { path: '/v1/concepts/by-code/ICD10CM/Z99.999' } },
  { tool: 'get_concept_by_code', args: { vocabulary_id: 'ICD10CM' }, code: 'validation_error', message: "Missing required argument 'concept_code'." },
  { tool: 'explore_concept', args: { concept_id: DEMO.type2Diabetes, hierarchy_levels: 6 }, code: 'validation_error', message: "Invalid argument 'hierarchy_levels': must be <= 5." },
  { tool: 'explore_concept', args: { concept_id: 999999999 }, code: 'not_found', rest: { path: '/v1/concepts/999999999' } },
  { tool: 'map_concept', args: { concept_id: 999999999 }, code: 'not_found', rest: { path: '/v1/concepts/999999999/mappings' } },
  { tool: 'get_hierarchy', args: { concept_id: DEMO.type2Diabetes, direction: 'sideways' }, code: 'validation_error', message: "Invalid argument 'direction': must be one of: up, down, both." },
  { tool: 'get_hierarchy', args: { concept_id: 999999999 }, code: 'not_found', rest: { path: '/v1/concepts/999999999/hierarchy' } },
  { tool: 'list_vocabularies', args: { page_size: 0 }, code: 'validation_error', message: "Invalid argument 'page_size': must be >= 1." },
  { tool: 'fhir_resolve', args: {}, code: 'missing_input', rest: { method: 'POST', path: '/v1/fhir/resolve', body: {} } },
  { tool: 'fhir_resolve', args: { system: 'http://snomed.info/sct', code: '00000000' }, code: 'concept_not_found', rest: { method: 'POST', path: '/v1/fhir/resolve', body: { system: 'http://snomed.info/sct', code: '00000000' } } },
  { tool: 'fhir_resolve_codeable_concept', args: { coding: [] }, code: 'validation_error', message: "Invalid argument 'coding': must NOT have fewer than 1 items." },
];

/** Tool calls that ask for CPT4 content explicitly: a key without CPT4 validation gets REST's 403 message. */
export const CPT4_EXPLICIT_CASES: readonly BadArgumentCase[] = [
  { tool: 'get_concept', args: { concept_id: DEMO.cpt4Obstetric }, code: 'vocabulary_restricted', rest: { path: `/v1/concepts/${DEMO.cpt4Obstetric}` } },
  { tool: 'get_concept_by_code', args: { vocabulary_id: 'CPT4', concept_code: DEMO.cpt4Code }, code: 'vocabulary_restricted', rest: { path: `/v1/concepts/by-code/CPT4/${DEMO.cpt4Code}` } },
  { tool: 'search_concepts', args: { query: 'obstetric', vocabulary_ids: 'CPT4' }, code: 'vocabulary_restricted', rest: { path: '/v1/search/concepts?query=obstetric&vocabulary_ids=CPT4' } },
  { tool: 'map_concept', args: { concept_id: DEMO.cpt4Obstetric }, code: 'vocabulary_restricted', rest: { path: `/v1/concepts/${DEMO.cpt4Obstetric}/mappings` } },
  { tool: 'explore_concept', args: { concept_id: DEMO.cpt4Obstetric }, code: 'vocabulary_restricted', rest: { path: `/v1/concepts/${DEMO.cpt4Obstetric}` } },
  { tool: 'get_hierarchy', args: { concept_id: DEMO.cpt4Obstetric }, code: 'vocabulary_restricted', rest: { path: `/v1/concepts/${DEMO.cpt4Obstetric}/hierarchy` } },
];

/** Calls whose answers would hold CPT4 concepts for a validated key (searches, lists): an unvalidated key sees none. */
export const CPT4_IMPLICIT_CALLS: ReadonlyArray<{ tool: string; args: Record<string, unknown> }> = [
  { tool: 'search_concepts', args: { query: 'obstetric care', page_size: 50 } },
  { tool: 'search_concepts', args: { query: '59400' } },
  { tool: 'semantic_search', args: { query: 'cesarean delivery', threshold: 0, page_size: 100 } },
  { tool: 'find_similar_concepts', args: { query: 'routine obstetric care', similarity_threshold: 0, page_size: 100 } },
  { tool: 'list_vocabularies', args: {} },
  { tool: 'list_vocabularies', args: { search: 'CPT' } },
];

/** Removes what differs between two runs of the same question (timings). */
export function withoutTimings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimings);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !/(_ms|duration)$/.test(k))
        .map(([k, v]) => [k, withoutTimings(v)]),
    );
  }
  return value;
}
