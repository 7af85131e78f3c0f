/**
 * Which MCP sessions (Streamable HTTP, /mcp) are open, and whose: the record any process of a server can continue a
 * session from. One process keeps it in memory (LocalMcpSessions); the workers of `serve --workers N` ask their primary,
 * which keeps the same (src/http/cluster/), so a client's next request may land on any worker.
 */

/** Sessions idle longer than this are closed (the client starts a new one with initialize). */
export const MCP_SESSION_IDLE_MS = 60 * 60_000;
/** Most open sessions per key; the oldest idle one is closed to make room. */
export const MCP_MAX_SESSIONS_PER_KEY = 16;

export interface McpSessionDirectory {
  /** Records a session opened by this key, closing the key's least recently used ones beyond MCP_MAX_SESSIONS_PER_KEY. */
  open(sessionId: string, keyId: string): Promise<void>;
  /** True when the session is open and this key's (then it counts as used now); false for an unknown, ended or other key's one. */
  touch(sessionId: string, keyId: string): Promise<boolean>;
  /** Ends a session (DELETE /mcp); unknown ids are ignored. */
  end(sessionId: string): Promise<void>;
}

interface SessionEntry {
  keyId: string;
  lastSeenMs: number;
}

/** The directory in one process's memory (a Map keeps insertion order; a touched entry is moved to the end). */
export class LocalMcpSessions implements McpSessionDirectory {
  private readonly sessions = new Map<string, SessionEntry>();

  constructor(private readonly now: () => number = Date.now) {}

  async open(sessionId: string, keyId: string): Promise<void> {
    this.openNow(sessionId, keyId);
  }

  async touch(sessionId: string, keyId: string): Promise<boolean> {
    return this.touchNow(sessionId, keyId);
  }

  async end(sessionId: string): Promise<void> {
    this.sessions.delete(sessionId);
  }

  /** The synchronous form of open (the primary answers its workers with it). */
  openNow(sessionId: string, keyId: string): void {
    const now = this.now();
    this.sweep(now);
    const own = [...this.sessions].filter(([, s]) => s.keyId === keyId);
    for (const [id] of own.slice(0, Math.max(0, own.length - MCP_MAX_SESSIONS_PER_KEY + 1))) this.sessions.delete(id);
    this.sessions.set(sessionId, { keyId, lastSeenMs: now });
  }

  /** The synchronous form of touch. */
  touchNow(sessionId: string, keyId: string): boolean {
    const now = this.now();
    const entry = this.sessions.get(sessionId);
    if (!entry || entry.keyId !== keyId) return false;
    if (now - entry.lastSeenMs > MCP_SESSION_IDLE_MS) {
      this.sessions.delete(sessionId);
      return false;
    }
    this.sessions.delete(sessionId);
    this.sessions.set(sessionId, { keyId, lastSeenMs: now });
    return true;
  }

  private sweep(now: number): void {
    for (const [id, s] of this.sessions) if (now - s.lastSeenMs > MCP_SESSION_IDLE_MS) this.sessions.delete(id);
  }
}
