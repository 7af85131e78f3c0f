/**
 * The MCP resources: the loaded releases, the vocabularies of the default release (the caller's licences applied) and
 * one vocabulary, plus the concept-set format guide and the licence rules.
 */
import { ErrorCode, McpError, type ReadResourceResult, type Resource, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { ServiceError } from '../services/errors.js';
import { listReleases } from '../services/vocabularies/release-catalog.js';
import { getVocabulary, listVocabularies } from '../services/vocabularies/vocabulary-catalog.js';
import { CONCEPT_SET_FORMAT_GUIDE, LICENCE_RULES_GUIDE } from './guides.js';
import type { ToolContext } from './tools/tool-definition.js';

export const RESOURCE_SCHEME = 'omopterm://';
const RELEASES = `${RESOURCE_SCHEME}releases`;
const VOCABULARIES = `${RESOURCE_SCHEME}vocabularies`;
const CONCEPT_SET_GUIDE = `${RESOURCE_SCHEME}guides/concept-set-format`;
const LICENCE_GUIDE = `${RESOURCE_SCHEME}guides/licence-rules`;

export function listResources(): Resource[] {
  return [
    { uri: RELEASES, name: 'releases', title: 'Vocabulary releases', description: 'The loaded vocabulary releases and the default one (what vocab_release accepts).', mimeType: 'application/json' },
    { uri: VOCABULARIES, name: 'vocabularies', title: 'Vocabularies', description: 'The vocabularies of the default release with concept counts (those your key may read).', mimeType: 'application/json' },
    { uri: CONCEPT_SET_GUIDE, name: 'concept-set-format', title: 'Concept-set expression format', description: 'How to write the expression the concept-set tools take, and how it resolves.', mimeType: 'text/markdown' },
    { uri: LICENCE_GUIDE, name: 'licence-rules', title: 'Licence rules', description: 'Which vocabularies need a validated key (CPT4) or are never served.', mimeType: 'text/markdown' },
  ];
}

export function listResourceTemplates(): ResourceTemplate[] {
  return [
    {
      uriTemplate: `${VOCABULARIES}/{vocabulary_id}`,
      name: 'vocabulary',
      title: 'One vocabulary',
      description: 'One vocabulary of the default release with its counts, e.g. omopterm://vocabularies/SNOMED.',
      mimeType: 'application/json',
    },
  ];
}

function json(uri: string, value: unknown): ReadResourceResult {
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }] };
}

/** Reads a resource; an unknown one, or a refusal (licence, unknown vocabulary), is a JSON-RPC error naming it. */
export function readResource(uri: string, ctx: ToolContext): ReadResourceResult {
  try {
    if (uri === RELEASES) return json(uri, listReleases(ctx.registry));
    if (uri === VOCABULARIES) {
      const view = ctx.view();
      return json(uri, { vocab_release: view.label, vocabularies: listVocabularies(view, { include_stats: true }) });
    }
    if (uri.startsWith(`${VOCABULARIES}/`)) {
      const view = ctx.view();
      return json(uri, getVocabulary(view, decodeURIComponent(uri.slice(VOCABULARIES.length + 1))));
    }
    if (uri === CONCEPT_SET_GUIDE) return { contents: [{ uri, mimeType: 'text/markdown', text: CONCEPT_SET_FORMAT_GUIDE }] };
    if (uri === LICENCE_GUIDE) return { contents: [{ uri, mimeType: 'text/markdown', text: LICENCE_RULES_GUIDE }] };
  } catch (error) {
    if (error instanceof ServiceError) throw new McpError(ErrorCode.InvalidParams, `${error.code}: ${error.message}`, { code: error.code, details: error.details });
    throw error;
  }
  throw new McpError(-32002, `Resource not found: ${uri}`, { uri });
}
