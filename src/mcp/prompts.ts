/** The MCP prompts: map a source term, build a phenotype concept set, explore a concept (each a short plan over the tools). */
import { ErrorCode, McpError, type GetPromptResult, type Prompt } from '@modelcontextprotocol/sdk/types.js';

interface PromptDefinition extends Prompt {
  render(args: Record<string, string>): string;
}

const PROMPTS: readonly PromptDefinition[] = [
  {
    name: 'map-source-term',
    title: 'Map a source term to a standard concept',
    description: 'Find the OMOP standard concept for a term or local code from a source system (ETL mapping).',
    arguments: [
      { name: 'term', description: 'The source term, e.g. "DM2 w/o complications".', required: true },
      { name: 'domain', description: 'The expected domain (Condition, Drug, Measurement, …), if known.', required: false },
    ],
    render: (a) =>
      `Map the source term "${a.term}"${a.domain ? ` (domain ${a.domain})` : ''} to an OMOP standard concept.\n` +
      '1. Call map_source_terms with terms=["…"] for ranked candidates; also try search_concepts and semantic_search.\n' +
      '2. For the best candidates call get_concept (check standard_concept = S, the domain, validity) and get_hierarchy (is it too broad or too narrow?).\n' +
      '3. If the best match is a non-standard code, follow map_concept to its standard target.\n' +
      '4. Answer with the concept_id, name, vocabulary and code, your confidence, and the runner-up.',
  },
  {
    name: 'build-phenotype-concept-set',
    title: 'Build a phenotype concept set',
    description: 'Write an OHDSI concept-set expression for a clinical idea, resolve it and check it.',
    arguments: [{ name: 'phenotype', description: 'The clinical idea, e.g. "type 2 diabetes mellitus".', required: true }],
    render: (a) =>
      `Build an OHDSI concept-set expression for "${a.phenotype}".\n` +
      '1. Read the resource omopterm://guides/concept-set-format.\n' +
      '2. Find the root standard concepts with search_concepts (standard_concept S) and semantic_search.\n' +
      "3. Check their descendants with get_hierarchy direction='down'; decide which branches to exclude.\n" +
      '4. Write the expression (includeDescendants on the roots, isExcluded on the unwanted branches, includeMapped to catch source codes).\n' +
      '5. Call resolve_concept_set, review the summary and the concepts, then optimize_concept_set; report the expression and what it resolves to.',
  },
  {
    name: 'explore-concept',
    title: 'Explore a concept',
    description: 'Explain what a concept is, where it sits in its hierarchy and how it maps to other vocabularies.',
    arguments: [{ name: 'concept', description: 'A concept_id, a code (with its vocabulary) or a name.', required: true }],
    render: (a) =>
      `Explain the OMOP concept "${a.concept}".\n` +
      '1. If it is not a concept_id, find it with get_concept_by_code or search_concepts.\n' +
      '2. Call explore_concept for its details, hierarchy and mappings.\n' +
      '3. Summarise: what it means, its parents and main children, whether it is standard, and its codes in ICD10CM, SNOMED or other vocabularies.',
  },
];

export function listPrompts(): Prompt[] {
  return PROMPTS.map(({ render: _render, ...prompt }) => prompt);
}

export function getPrompt(name: string, args: Record<string, string>): GetPromptResult {
  const prompt = PROMPTS.find((p) => p.name === name);
  if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt '${name}'. Prompts: ${PROMPTS.map((p) => p.name).join(', ')}.`);
  for (const arg of prompt.arguments ?? []) {
    if (arg.required && !args[arg.name]?.trim()) throw new McpError(ErrorCode.InvalidParams, `Missing required argument '${arg.name}' of prompt '${name}'.`);
  }
  return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text: prompt.render(args) } }] };
}
