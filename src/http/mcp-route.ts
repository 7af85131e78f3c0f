/**
 * The MCP server over Streamable HTTP at POST/GET/DELETE /mcp, behind the same gate as /v1 and /fhir (API key or OAuth
 * access token, rate limit); each tool call is then metered as one call and answered with the caller's licences.
 * Sessions (Mcp-Session-Id) belong to the key that opened them and are recorded in a McpSessionDirectory, so that any
 * process of the server continues them; Host and Origin are checked against DNS rebinding.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Readable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer, type McpRequestExtra } from '../mcp/mcp-server.js';
import { quotaExceededError, stateUnavailableError } from '../services/admission-errors.js';
import { ServiceError } from '../services/errors.js';
import type { SemanticIndexRegistry } from '../services/semantic/semantic-index-registry.js';
import { StateUnavailableError } from '../state/state-errors.js';
import type { ApiKeyRecord, QuotaDecision, StateStore } from '../state/state-store.js';
import type { ReleaseRegistry } from '../store/release-registry.js';
import { LocalMcpSessions, MCP_MAX_SESSIONS_PER_KEY, MCP_SESSION_IDLE_MS, type McpSessionDirectory } from './mcp-sessions.js';
import type { Caller } from './plumbing/request-context.js';

export const MCP_PATH = '/mcp';
export { MCP_MAX_SESSIONS_PER_KEY, MCP_SESSION_IDLE_MS };

/** Host names a server listening on a loopback address answers to (DNS rebinding: any other Host is refused). */
export const LOOPBACK_HOST_NAMES = ['localhost', '127.0.0.1', '[::1]'] as const;

export interface McpHttpOptions {
  /**
   * Host names (without port) the Host header may carry; null: any (a server behind a proxy, or on a public address).
   * Default (start-server.ts): the loopback names when the server listens on a loopback address.
   */
  allowedHostNames: readonly string[] | null;
  /** Origins (scheme://host[:port]) a browser may call /mcp from besides the server's own origin. */
  allowedOrigins: readonly string[];
}

/** A session's transport and server in this process (rebuilt from the directory when another process opened it). */
interface LiveSession {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  keyId: string;
  lastSeen: number;
}

interface McpRouteDependencies {
  registry: ReleaseRegistry;
  state: StateStore;
  semanticIndexes: SemanticIndexRegistry;
  version: string;
  options: McpHttpOptions;
  /** Where open sessions are recorded (default: this process's memory). */
  sessions?: McpSessionDirectory;
}

/** The caller of the HTTP request a tool call came in, as the route hands it to the transport (AuthInfo.extra). */
interface McpAuthExtra extends Record<string, unknown> {
  caller: Caller & { key: ApiKeyRecord };
}

function hostNameOf(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1);
  return value.split(':')[0]!;
}

/** The JSON-RPC error answer the SDK gives for transport-level refusals, with our common headers. */
function jsonRpcError(request: FastifyRequest, reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type('application/json').send({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

/** Refuses a request whose Host or Origin could come from a DNS-rebinding page; undefined when it may proceed. */
function rebindingRefusal(request: FastifyRequest, options: McpHttpOptions): string | undefined {
  const host = String(request.headers.host ?? '');
  if (options.allowedHostNames && !options.allowedHostNames.includes(hostNameOf(host))) return `Invalid Host header: ${host}`;
  const origin = request.headers.origin;
  if (origin === undefined) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(origin);
  } catch {
    return `Invalid Origin header: ${origin}`;
  }
  const sameOrigin = parsed.protocol === 'https:' && parsed.host.toLowerCase() === host.toLowerCase();
  // On a loopback listener a page served from this machine (any loopback name, scheme or port) may call; a rebinding
  // page's Origin keeps the attacker's name, which is not one of them.
  const local = options.allowedHostNames !== null && options.allowedHostNames.includes(hostNameOf(parsed.host));
  return sameOrigin || local || options.allowedOrigins.includes(parsed.origin) ? undefined : `Invalid Origin header: ${origin}`;
}

/** The headers the SDK's transport reads (the gate has read the rest; Host and Origin are checked before). */
const TRANSPORT_HEADERS = ['accept', 'content-type', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id', 'host'] as const;

/**
 * The request as the SDK's web-standard transport reads it (the body is passed parsed). Converting here instead of
 * through the SDK's Node wrapper (@hono/node-server) keeps Fastify's reply, hooks and headers, and costs less.
 */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const name of TRANSPORT_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  return new Request(`https://${request.headers.host ?? 'localhost'}${request.url}`, { method: request.method, headers });
}

/** Writes the transport's answer through Fastify: JSON (or an empty 202) whole, an event stream as a stream. */
async function sendWebResponse(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  reply.code(response.status);
  response.headers.forEach((value, name) => {
    reply.header(name, value);
  });
  if (!response.body) return reply.send();
  if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    return reply.send(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream));
  }
  return reply.send(Buffer.from(await response.arrayBuffer()));
}

type StreamEntry = { resolveJson?: (response: Response) => void };

/**
 * Works around the SDK (1.32.2): in JSON-response mode its transport keeps the entry of every answered POST in a
 * private map (`_streamMapping`; only SSE streams are removed), one per tool call for the life of the session. Each
 * entry is dropped here once its answer is given; test/mcp/mcp-transport-streams.test.ts checks both.
 */
export function releaseAnsweredStreams(transport: WebStandardStreamableHTTPServerTransport): void {
  const mapping = (transport as unknown as { _streamMapping?: unknown })._streamMapping;
  if (!(mapping instanceof Map)) return;
  const set = mapping.set.bind(mapping) as (id: string, entry: StreamEntry) => Map<string, StreamEntry>;
  mapping.set = (id: string, entry: StreamEntry) => {
    const resolve = entry.resolveJson;
    if (resolve) {
      entry.resolveJson = (response) => {
        mapping.delete(id);
        resolve(response);
      };
    }
    return set(id, entry);
  };
}

/** Open transports' pending-answer maps, for the test that checks they do not grow (see releaseAnsweredStreams). */
export function pendingStreamsOf(transport: WebStandardStreamableHTTPServerTransport): number {
  const mapping = (transport as unknown as { _streamMapping?: unknown })._streamMapping;
  return mapping instanceof Map ? mapping.size : -1;
}

export function registerMcpRoute(app: FastifyInstance, deps: McpRouteDependencies): void {
  const directory = deps.sessions ?? new LocalMcpSessions();
  /** The sessions this process has a transport for: a cache of the directory's (closing one here ends nothing). */
  const live = new Map<string, LiveSession>();
  /** Sessions being taken up here (two requests of one session arriving together build one transport). */
  const takingUp = new Map<string, Promise<WebStandardStreamableHTTPServerTransport>>();

  const admit = async (extra: McpRequestExtra) => {
    const auth = extra.authInfo?.extra as McpAuthExtra | undefined;
    if (!auth) throw new ServiceError(401, 'missing_api_key', 'An API key is required: send the header "Authorization: Bearer <API key>".');
    let quota: QuotaDecision;
    try {
      quota = await deps.state.meter(auth.caller.key);
    } catch (error) {
      throw error instanceof StateUnavailableError ? stateUnavailableError(error) : error;
    }
    if (!quota.allowed) throw quotaExceededError(quota);
    return auth.caller.licences;
  };

  function forget(id: string): void {
    const session = live.get(id);
    if (!session) return;
    live.delete(id);
    void session.transport.close().catch(() => undefined);
  }

  /** Drops transports idle too long, and this key's least recently used ones beyond the per-key bound. */
  function sweep(keyId: string, now: number): void {
    for (const [id, s] of live) if (now - s.lastSeen > MCP_SESSION_IDLE_MS) forget(id);
    const own = [...live.entries()].filter(([, s]) => s.keyId === keyId).sort((a, b) => a[1].lastSeen - b[1].lastSeen);
    for (const [id] of own.slice(0, Math.max(0, own.length - MCP_MAX_SESSIONS_PER_KEY + 1))) forget(id);
  }

  /**
   * A transport and server for a new session (no id yet: initialize gives it one) or for an open one (`existing`):
   * that one is taken up as initialized (the SDK has no public way to; its server needs nothing of the client's
   * initialize, as omopterm asks clients for no sampling, elicitation or roots).
   */
  async function liveSession(keyId: string, existing?: string): Promise<WebStandardStreamableHTTPServerTransport> {
    sweep(keyId, Date.now());
    const server = createMcpServer({ registry: deps.registry, semanticIndexes: deps.semanticIndexes, workerPool: app.workerPool, version: deps.version, admit });
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: async (id) => {
        live.set(id, { transport, server, keyId, lastSeen: Date.now() });
        await directory.open(id, keyId);
      },
      onsessionclosed: async (id) => {
        live.delete(id);
        await directory.end(id);
      },
    });
    releaseAnsweredStreams(transport);
    transport.onclose = () => {
      if (transport.sessionId && live.get(transport.sessionId)?.transport === transport) live.delete(transport.sessionId);
    };
    await server.connect(transport);
    if (existing !== undefined) {
      transport.sessionId = existing;
      (transport as unknown as { _initialized: boolean })._initialized = true;
      live.set(existing, { transport, server, keyId, lastSeen: Date.now() });
    }
    return transport;
  }

  async function handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
    const refusal = rebindingRefusal(request, deps.options);
    if (refusal) return jsonRpcError(request, reply, 403, refusal);
    // One message per request: the gate's rate limit counts requests, so a batch would be many calls for one token.
    if (Array.isArray(request.body) && request.body.length > 1) {
      return jsonRpcError(request, reply, 400, 'JSON-RPC batches are not accepted (MCP removed them in 2025-06-18): send one message per request.');
    }
    const caller = request.caller as Caller & { key: ApiKeyRecord };
    const sessionId = request.headers['mcp-session-id'];
    let transport: WebStandardStreamableHTTPServerTransport;
    if (typeof sessionId === 'string') {
      // Another key's session is not found either: a session id is no credential.
      if (!(await directory.touch(sessionId, caller.key.id))) {
        forget(sessionId);
        return jsonRpcError(request, reply, 404, 'Session not found');
      }
      const session = live.get(sessionId);
      if (session && session.keyId === caller.key.id) {
        session.lastSeen = Date.now();
        transport = session.transport;
      } else {
        let pending = takingUp.get(sessionId);
        if (!pending) {
          pending = liveSession(caller.key.id, sessionId).finally(() => takingUp.delete(sessionId));
          takingUp.set(sessionId, pending);
        }
        transport = await pending;
      }
    } else if (request.method === 'POST' && isInitializeRequest(request.body)) {
      transport = await liveSession(caller.key.id);
    } else {
      return jsonRpcError(request, reply, 400, 'Bad Request: No valid session ID provided (send initialize first, then the Mcp-Session-Id it returns).');
    }
    const response = await transport.handleRequest(webRequestOf(request), {
      parsedBody: request.body,
      authInfo: { token: '', clientId: caller.key.id, scopes: [], extra: { caller } },
    });
    return sendWebResponse(reply, response);
  }

  const config = { perCallAdmission: true };
  const schema = { tags: ['MCP'], summary: 'Model Context Protocol (Streamable HTTP)', description:
      'The Model Context Protocol server for LLM agents (docs/mcp.md): JSON-RPC 2.0 over Streamable HTTP — POST a message (initialize first; then send the Mcp-Session-Id it returns), GET the event stream, DELETE the session. Each tool call counts as one call of the key; tools take vocab_release as an argument.',
  };
  app.post(MCP_PATH, { config, schema }, handle);
  app.get(MCP_PATH, { config, schema }, handle);
  app.delete(MCP_PATH, { config, schema }, handle);
  app.addHook('onClose', async () => {
    for (const id of [...live.keys()]) forget(id);
  });
}
