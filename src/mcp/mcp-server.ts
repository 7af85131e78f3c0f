/**
 * The MCP server, one factory for both transports (stdio: `omopterm mcp`; Streamable HTTP: /mcp): the tools, resources
 * and prompts over the same services as REST, each tool call admitted by the transport (key, rate, quota, metering)
 * and answered on a release view built with the caller's licence rules.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { LicenceRules } from '../licences/licence-rules.js';
import { ServiceError } from '../services/errors.js';
import { resolveRelease } from '../services/release-selection.js';
import { ReleaseView } from '../services/release-view.js';
import type { SemanticIndexRegistry } from '../services/semantic/semantic-index-registry.js';
import type { ReleaseRegistry } from '../store/release-registry.js';
import { runOperation } from '../threads/heavy-operations.js';
import type { WorkerPool } from '../threads/worker-pool.js';
import { checkArguments } from './arguments.js';
import { getPrompt, listPrompts } from './prompts.js';
import { listResources, listResourceTemplates, readResource } from './resources.js';
import { outputSchemaOf, type HeavyCompute, type McpTool, type ToolContext } from './tools/tool-definition.js';
import { MCP_TOOLS } from './tools/all-tools.js';

export type McpRequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface McpServerOptions {
  registry: ReleaseRegistry;
  semanticIndexes: SemanticIndexRegistry;
  /** The server's worker threads for heavy tools (without it, over stdio, they run in this thread). */
  workerPool?: WorkerPool;
  version: string;
  /**
   * Admits one tool call or resource read (the transport's key, rate, quota; one metered call) and returns the caller's
   * licence rules; throws the ServiceError that refuses it.
   */
  admit(extra: McpRequestExtra, what: string): Promise<LicenceRules>;
}

export const MCP_SERVER_NAME = 'omopterm';

const INSTRUCTIONS =
  'OMOP standardized vocabularies (SNOMED, ICD10CM, RxNorm, LOINC, …) served locally by omopterm. ' +
  'Find concepts with search_concepts (words, codes) or semantic_search (meaning); inspect them with get_concept, explore_concept, get_hierarchy and map_concept; ' +
  'resolve FHIR codings with fhir_resolve; build concept sets with resolve_concept_set. Every tool takes vocab_release (list_releases names them). ' +
  'Lists are paged: meta.next_page says how to get the next page.';

/** A tool error: the REST surface's message as text, with the error code and details as JSON (never a protocol error). */
export function toolError(error: ServiceError): CallToolResult {
  const body = { error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } };
  return { isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}` }, { type: 'text', text: JSON.stringify(body) }] };
}

function unexpectedError(tool: string, error: unknown): ServiceError {
  process.emitWarning(`MCP tool ${tool} failed: ${(error as Error)?.stack ?? String(error)}`);
  return new ServiceError(500, 'internal_server_error', `The tool ${tool} failed; the error has been logged.`);
}

const TOOLS_BY_NAME = new Map<string, McpTool>(MCP_TOOLS.map((t) => [t.name, t]));

/** What tools/list answers, built once: the same for every session and every call (a server is created per session). */
let listed: unknown[] | undefined;
function listedTools(): unknown[] {
  listed ??= MCP_TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.input),
    outputSchema: jsonSchema(outputSchemaOf(tool)),
    annotations: { title: tool.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  }));
  return listed;
}

export function createMcpServer(options: McpServerOptions): Server {
  const tools = TOOLS_BY_NAME;
  const server = new Server(
    { name: MCP_SERVER_NAME, title: 'omopterm — OMOP vocabularies', version: options.version },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS },
  );

  const pool = options.workerPool;
  const compute: HeavyCompute = (op, views, args) =>
    pool ? pool.run(op, views, args) : runOperation(op, Array.isArray(views) ? views : [views as ReleaseView], args, { semanticIndexes: options.semanticIndexes });
  const contextFor = (licences: LicenceRules): ToolContext => ({
    licences,
    registry: options.registry,
    semanticIndexes: options.semanticIndexes,
    compute,
    view: (selector) => ReleaseView.ofRelease(resolveRelease(options.registry, selector, { surface: 'mcp' }), licences),
  });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listedTools() }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = tools.get(request.params.name);
    if (!tool) {
      return toolError(new ServiceError(404, 'not_found', `Unknown tool '${request.params.name}'. Tools: ${[...tools.keys()].join(', ')}.`));
    }
    try {
      const licences = await options.admit(extra, tool.name);
      const args = checkArguments(tool.input, request.params.arguments);
      const answer = await tool.run(args, contextFor(licences));
      return { content: [{ type: 'text', text: answer.text }], structuredContent: { data: answer.data, meta: answer.meta } as Record<string, unknown> };
    } catch (error) {
      return toolError(error instanceof ServiceError ? error : unexpectedError(tool.name, error));
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: listResources() }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: listResourceTemplates() }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const licences = await options.admit(extra, `resource ${request.params.uri}`);
    return readResource(request.params.uri, contextFor(licences));
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: listPrompts() }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => getPrompt(request.params.name, request.params.arguments ?? {}));
  return server;
}

/** A TypeBox schema as plain JSON Schema (TypeBox's own markers are symbols, which JSON drops). */
function jsonSchema(schema: object): { type: 'object'; [key: string]: unknown } {
  return JSON.parse(JSON.stringify(schema)) as { type: 'object'; [key: string]: unknown };
}
