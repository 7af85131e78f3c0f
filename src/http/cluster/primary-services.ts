/**
 * What the primary of `serve --workers N` decides for all its workers: the rate buckets (the embedded state's
 * TokenBuckets, one set for every worker, so one key's rate is one rate) and the directory of open MCP sessions.
 */
import { TokenBuckets, type Clock } from '../../state/token-buckets.js';
import { LocalMcpSessions } from '../mcp-sessions.js';
import { toWire, type PrimaryMessage, type WorkerMessage } from './cluster-messages.js';

export class PrimaryServices {
  private readonly buckets: TokenBuckets;
  private readonly sessions: LocalMcpSessions;

  constructor(now: Clock = Date.now) {
    this.buckets = new TokenBuckets(now);
    this.sessions = new LocalMcpSessions(now);
  }

  /** The answer to a worker's question (rate, MCP session); undefined for a message that is not one. */
  answer(message: WorkerMessage): PrimaryMessage | undefined {
    switch (message.t) {
      case 'rate':
        return { t: 'rate', id: message.id, d: message.q.map(([bucket, rate, want]) => toWire(this.buckets.take(bucket, rate, want))) };
      case 'mcp':
        if (message.op === 'open') {
          this.sessions.openNow(message.session, message.key);
          return { t: 'mcp', id: message.id, ok: true };
        }
        if (message.op === 'touch') return { t: 'mcp', id: message.id, ok: this.sessions.touchNow(message.session, message.key) };
        void this.sessions.end(message.session);
        return { t: 'mcp', id: message.id, ok: true };
      default:
        return undefined;
    }
  }
}
