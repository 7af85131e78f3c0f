/**
 * What an MCP tool is here: a JSON-schema input (TypeBox, validated like a REST query), a service call on the caller's
 * release view, and a result whose `data` is what the REST route answers for the same question (`meta` carries the
 * release and the page), with a short text for the agent to read.
 */
import { Type, type Static, type TObject, type TSchema } from 'typebox';
import type { LicenceRules } from '../../licences/licence-rules.js';
import { PaginationSchema, type PaginationMeta } from '../../services/pagination.js';
import type { ReleaseView } from '../../services/release-view.js';
import type { SemanticIndexRegistry } from '../../services/semantic/semantic-index-registry.js';
import type { ReleaseRegistry } from '../../store/release-registry.js';
import type { HeavyOperationName, OperationArgs, OperationResult } from '../../threads/heavy-operations.js';

/** Computes a heavy operation on the caller's views: on the server's worker threads over HTTP, in this thread over stdio. */
export type HeavyCompute = <K extends HeavyOperationName>(op: K, views: ReleaseView | readonly ReleaseView[], args: OperationArgs<K>) => Promise<OperationResult<K>>;

/** What a tool works with for one call: the caller's view of the selected release, and the server's shared parts. */
export interface ToolContext {
  /** The release `vocab_release` names (default: the server's default release), seen with the caller's licence rules. */
  view(selector?: string): ReleaseView;
  licences: LicenceRules;
  registry: ReleaseRegistry;
  semanticIndexes: SemanticIndexRegistry;
  /** Where meaning-based work runs (semantic search, similar concepts, display resolution, term candidates). */
  compute: HeavyCompute;
}

export interface ToolMeta {
  vocab_release: string | null;
  pagination?: PaginationMeta;
  /** How to get the next page (the arguments to change), when there is one. */
  next_page?: string;
}

export interface ToolAnswer {
  /** The REST answer's `data` for the same question. */
  data: unknown;
  meta: ToolMeta;
  /** A few lines for the agent to read; the structured result has everything. */
  text: string;
}

export interface McpTool<S extends TObject = TObject> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** The schema of `data` (the result's `meta` is the same for every tool). */
  data: TSchema;
  run(args: Static<S>, ctx: ToolContext): ToolAnswer | Promise<ToolAnswer>;
}

/** Declares a tool with its argument types inferred from its input schema. */
export function defineTool<S extends TObject>(tool: McpTool<S>): McpTool<TObject> {
  return tool as unknown as McpTool<TObject>;
}


const MetaSchema = Type.Object({
  vocab_release: Type.Union([Type.String(), Type.Null()], { description: 'The release that answered.' }),
  pagination: Type.Optional(PaginationSchema),
  next_page: Type.Optional(Type.String({ description: 'How to ask for the next page, when there is one.' })),
});

/** The output schema of a tool: its `data` and the common `meta`. */
export function outputSchemaOf(tool: McpTool): TObject {
  return Type.Object({ data: tool.data, meta: MetaSchema });
}

/** The meta of a paged answer, with the hint an agent needs to ask for the next page. */
export function pagedMeta(view: ReleaseView, pagination: PaginationMeta, pageArgument = 'page'): ToolMeta {
  return {
    vocab_release: view.label,
    pagination,
    ...(pagination.has_next ? { next_page: `call again with ${pageArgument}=${pagination.page + 1} (page ${pagination.page} of ${pagination.total_pages})` } : {}),
  };
}

export function releaseMeta(view: ReleaseView): ToolMeta {
  return { vocab_release: view.label };
}

/** The schema of `vocab_release`, the argument every release-reading tool takes. */
export const VocabReleaseArgument = Type.Optional(
  Type.String({
    maxLength: 64,
    description: 'Vocabulary release to read (a label such as 2025.2, or latest/default/current); default: the server\'s default release. list_releases names them.',
  }),
);

/** A loose object schema for the REST data a tool returns (its fields documented by the REST route of the same question). */
export const AnyObject = (description: string) => Type.Object({}, { additionalProperties: true, description });

/** One line per concept, for the text content: `201826 Type 2 diabetes mellitus [SNOMED 44054006 · Condition · S]`. */
export function conceptLine(c: { concept_id: number; concept_name: string; vocabulary_id: string; concept_code: string; domain_id?: string; standard_concept?: string | null }): string {
  const parts = [`${c.vocabulary_id} ${c.concept_code}`, c.domain_id, c.standard_concept ? c.standard_concept : undefined].filter(Boolean);
  return `${c.concept_id} ${c.concept_name} [${parts.join(' · ')}]`;
}

/** Lines shown in the text content of a list before "… and N more" (the structured result has them all). */
export const TEXT_LIST_LINES = 10;

export function listText(heading: string, lines: readonly string[], more = ''): string {
  const shown = lines.slice(0, TEXT_LIST_LINES).map((l, i) => `${i + 1}. ${l}`);
  const rest = lines.length > TEXT_LIST_LINES ? [`… and ${lines.length - TEXT_LIST_LINES} more in the structured result`] : [];
  return [heading, ...shown, ...rest, ...(more ? [more] : [])].join('\n');
}
