import { expect } from 'vitest';

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
  /**
   * The REST request(s) whose `data` the tool's `data` equals: one request, or one per part of `data` (a dotted path;
   * the part's fields named in that answer must equal it).
   */
  rest: RestCall | Record<string, RestCall | null>;
  /**
   * For the FHIR operations' tools: what must agree between the tool's plain `data` and the operation's FHIR answer
   * (a Parameters resource or a ValueSet); without it the two `data` must be equal.
   */
  fhir?: (data: any, answer: any) => void; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface BadArgumentCase {
  tool: string;
  args: Record<string, unknown>;
  code: string;
  /** The message, exactly (argument checks), or the REST request that gives the same error (service checks). */
  message?: string;
  rest?: RestCall;
  /** The FHIR operation that gives the same error: its OperationOutcome's text is the message. */
  fhir?: RestCall;
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

/** A FHIR Parameters resource's parameter values by name (value[x] of the first of each name). */
export function parameterValue(parameters: { parameter?: Array<Record<string, unknown>> }, name: string): unknown {
  const p = parameters.parameter?.find((x) => x.name === name);
  if (!p) return undefined;
  const key = Object.keys(p).find((k) => k.startsWith('value'));
  return key ? p[key] : undefined;
}

const T2DM_EXPRESSION = {
  items: [
    { concept: { CONCEPT_ID: DEMO.diabetes }, isExcluded: false, includeDescendants: true, includeMapped: true },
    { concept: { CONCEPT_ID: 201254 }, isExcluded: true, includeDescendants: true, includeMapped: true },
  ],
};

/** omopterm's own tools: the FHIR operations' (compared with the /fhir/r4 answer) and the concept-set, mapping and release ones. */
export const OWN_TOOL_CASES: readonly ToolCase[] = [
  {
    tool: 'lookup',
    args: { system: 'http://snomed.info/sct', code: '44054006' },
    rest: { path: '/fhir/r4/CodeSystem/$lookup?system=http://snomed.info/sct&code=44054006' },
    fhir: (data, answer) => {
      expect(data.display).toBe(parameterValue(answer, 'display'));
      expect(data.name).toBe(parameterValue(answer, 'name'));
      expect(data.version).toBe(parameterValue(answer, 'version'));
      expect(data.properties.length).toBe(answer.parameter.filter((p: { name: string }) => p.name === 'property').length);
    },
  },
  {
    tool: 'validate_code',
    args: { system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'E11', display: 'Type 2 diabetes mellitus' },
    rest: { path: `/fhir/r4/CodeSystem/$validate-code?url=${q('http://hl7.org/fhir/sid/icd-10-cm')}&code=E11&display=${q('Type 2 diabetes mellitus')}` },
    fhir: (data, answer) => {
      expect(data.result).toBe(true);
      expect(data.result).toBe(parameterValue(answer, 'result'));
      expect(data.display).toBe(parameterValue(answer, 'display'));
    },
  },
  {
    tool: 'validate_code',
    args: { system: 'http://snomed.info/sct', code: '44054006', display: 'Sugar' },
    rest: { path: `/fhir/r4/CodeSystem/$validate-code?url=${q('http://snomed.info/sct')}&code=44054006&display=Sugar` },
    fhir: (data, answer) => {
      expect(data.result).toBe(false);
      expect(parameterValue(answer, 'result')).toBe(false);
      expect(data.issues.map((i: { text: string }) => i.text).join(' ')).toBe(parameterValue(answer, 'message'));
    },
  },
  {
    tool: 'subsumes',
    args: { system: 'http://snomed.info/sct', code_a: '73211009', code_b: '44054006' },
    rest: { path: '/fhir/r4/CodeSystem/$subsumes?system=http://snomed.info/sct&codeA=73211009&codeB=44054006' },
    fhir: (data, answer) => {
      expect(data.outcome).toBe('subsumes');
      expect(data.outcome).toBe(parameterValue(answer, 'outcome'));
    },
  },
  {
    tool: 'expand',
    args: { url: 'http://snomed.info/sct?fhir_vs=isa/73211009', count: 3 },
    rest: { path: `/fhir/r4/ValueSet/$expand?url=${q('http://snomed.info/sct?fhir_vs=isa/73211009')}&count=3` },
    fhir: (data, answer) => {
      expect(data.total).toBe(answer.expansion.total);
      expect(data.contains.map((c: { code: string }) => c.code)).toEqual(answer.expansion.contains.map((c: { code: string }) => c.code));
    },
  },
  {
    tool: 'expand',
    args: { url: 'http://snomed.info/sct?fhir_vs=isa/73211009', filter: 'type 2' },
    rest: { path: `/fhir/r4/ValueSet/$expand?url=${q('http://snomed.info/sct?fhir_vs=isa/73211009')}&filter=${q('type 2')}&count=20` },
    fhir: (data, answer) => {
      expect(data.total).toBeGreaterThan(0);
      expect(data.total).toBe(answer.expansion.total);
      expect(data.contains.map((c: { code: string }) => c.code)).toEqual(answer.expansion.contains.map((c: { code: string }) => c.code));
    },
  },
  {
    tool: 'translate',
    args: { system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'E11' },
    rest: { path: `/fhir/r4/ConceptMap/$translate?system=${q('http://hl7.org/fhir/sid/icd-10-cm')}&code=E11` },
    fhir: (data, answer) => {
      expect(data.result).toBe(parameterValue(answer, 'result'));
      const codes = answer.parameter
        .filter((p: { name: string }) => p.name === 'match')
        .map((m: { part: Array<{ name: string; valueCoding?: { code: string } }> }) => m.part.find((x) => x.name === 'concept')?.valueCoding?.code);
      expect(data.matches.map((m: { concept?: { code: string } }) => m.concept?.code)).toEqual(codes);
      expect(codes).toContain(String(DEMO.type2Diabetes));
    },
  },
  {
    tool: 'resolve_concept_set',
    args: { expression: T2DM_EXPRESSION, page_size: 50 },
    rest: { method: 'POST', path: '/v1/concept-sets/resolve', body: { expression: T2DM_EXPRESSION, page_size: 50 } },
  },
  { tool: 'optimize_concept_set', args: { expression: T2DM_EXPRESSION }, rest: { method: 'POST', path: '/v1/concept-sets/optimize', body: { expression: T2DM_EXPRESSION } } },
  {
    tool: 'diff_concept_set',
    args: { expression: T2DM_EXPRESSION, from_release: '2025.1', to_release: '2025.2' },
    rest: { method: 'POST', path: '/v1/concept-sets/diff', body: { expression: T2DM_EXPRESSION, from_release: '2025.1', to_release: '2025.2' } },
  },
  {
    tool: 'map_source_terms',
    args: { terms: [{ source_name: 'type 2 diabetes' }, { source_name: 'atrial fibrillation', source_code: 'I48' }], k: 3 },
    rest: {
      'results.0': { method: 'POST', path: '/v1/mapping/candidates', body: { source_name: 'type 2 diabetes', k: 3 } },
      'results.1': { method: 'POST', path: '/v1/mapping/candidates', body: { source_name: 'atrial fibrillation', source_code: 'I48', k: 3 } },
    },
  },
  {
    tool: 'diff_releases',
    args: { system: 'http://snomed.info/sct', code: '44054006', from_release: '2025.1', to_release: '2025.2' },
    rest: { path: '/fhir/r4/CodeSystem/$diff?system=http://snomed.info/sct&code=44054006&fromVersion=2025.1&toVersion=2025.2' },
    fhir: (data, answer) => {
      expect(data).toMatchObject({ from_release: '2025.1', to_release: '2025.2' });
      expect(data.changes.length).toBe(answer.parameter.filter((p: { name: string }) => p.name === 'change').length);
    },
  },
  { tool: 'list_releases', args: {}, rest: { path: '/v1/vocabularies/releases?page_size=100' } },
];

export const BAD_ARGUMENT_CASES: readonly BadArgumentCase[] = [
  { tool: 'lookup', args: { system: 'http://snomed.info/sct', code: '00000' }, code: 'concept_not_found', fhir: { path: '/fhir/r4/CodeSystem/$lookup?system=http://snomed.info/sct&code=00000' } },
  { tool: 'subsumes', args: { system: 'http://snomed.info/sct', code_a: '73211009', code_b: '00000' }, code: 'concept_not_found', fhir: { path: '/fhir/r4/CodeSystem/$subsumes?system=http://snomed.info/sct&codeA=73211009&codeB=00000' } },
  { tool: 'subsumes', args: { system: 'http://snomed.info/sct', code_a: '73211009' }, code: 'validation_error', message: "Missing required argument 'code_b'." },
  { tool: 'validate_code', args: { system: 'http://snomed.info/sct' }, code: 'validation_error', message: "Missing required argument 'code'." },
  { tool: 'optimize_concept_set', args: { expression: 'not an expression' }, code: 'validation_error', rest: { method: 'POST', path: '/v1/concept-sets/optimize', body: { expression: 'not an expression' } } },
  { tool: 'expand', args: { url: 'http://snomed.info/sct?fhir_vs', count: 101 }, code: 'validation_error', message: "Invalid argument 'count': must be <= 100." },
  { tool: 'translate', args: { system: 'http://snomed.info/sctx', code: '44054006' }, code: 'validation_error', message: "Unknown code system 'http://snomed.info/sctx' in argument 'system'. Did you mean 'http://snomed.info/sct'?" },
  { tool: 'resolve_concept_set', args: { expression: { items: [{ concept: { CONCEPT_ID: 201826 }, includeDescendants: 'yes' }] } }, code: 'validation_error', rest: { method: 'POST', path: '/v1/concept-sets/resolve', body: { expression: { items: [{ concept: { CONCEPT_ID: 201826 }, includeDescendants: 'yes' }] } } } },
  { tool: 'diff_concept_set', args: { expression: { items: [] }, from_release: '1999.1', to_release: '2025.2' }, code: 'release_not_found', rest: { method: 'POST', path: '/v1/concept-sets/diff', body: { expression: { items: [] }, from_release: '1999.1', to_release: '2025.2' } } },
  { tool: 'map_source_terms', args: { terms: [] }, code: 'validation_error', message: "Invalid argument 'terms': must NOT have fewer than 1 items." },
  { tool: 'diff_releases', args: { system: 'http://snomed.info/sct', code: '00000', from_release: '2025.1' }, code: 'not_found', message: "Code '00000' is not in system 'http://snomed.info/sct' in either release." },
  { tool: 'list_releases', args: { page: 0 }, code: 'validation_error', message: "Invalid argument 'page': must be >= 1." },
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
