/**
 * One opening of each vector file per process: a thread of its own (./vector-host-thread.ts) views the files, and
 * the threads that search vectors (request and mapping pools) ask it through a MessagePort each, waiting on a shared
 * counter, so their SemanticIndex stays synchronous. usearch's tables for a viewed HNSW file (sets embedded before
 * format 4, ~200 MiB at full size) are held once per process instead of once per searching thread
 * (docs/performance.md). Vector lists (format 4) hold only their centroids and offsets: every thread opens them itself.
 */
import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import { startModuleWorker } from '../module-worker.js';
import { viewVectorFile } from '../store/sqlite/sqlite-semantic-index.js';
import { isVectorListsFile } from '../store/vector-lists.js';
import type { VectorFileOpener, VectorFileSearch, VectorMatches } from '../store/semantic-index.js';

/** What a searching thread is given (in its workerData, the port in the transfer list). */
export interface VectorHostConnection {
  port: MessagePort;
  /** Int32 [0]: replies posted so far (the host adds one and wakes the waiter); [1]: 1 once the host thread has ended. */
  signal: SharedArrayBuffer;
}

export type VectorHostRequest =
  | { op: 'open'; id: number; path: string; dimension: number }
  | { op: 'search'; id: number; handle: number; query: Int8Array | Float32Array; k: number }
  | { op: 'close'; handle: number };

export type VectorHostReply =
  | { id: number; ok: true; handle: number; size: number }
  | { id: number; ok: true; keys: Float64Array; distances: Float32Array }
  | { id: number; ok: false; message: string };

/** Messages of the host thread's own port. */
export type VectorHostControl = { kind: 'connect'; port: MessagePort; signal: SharedArrayBuffer } | { kind: 'files'; id: number };
export type VectorHostStatus = { kind: 'ready' } | { kind: 'files'; id: number; open: Array<{ path: string; users: number }> };

/** How long a searching thread waits for an answer before it fails its request (the host is stuck or gone). */
export const VECTOR_HOST_WAIT_MS = 60_000;
const REPLIES = 0;
const ENDED = 1;

export class VectorHost {
  private worker: Worker | null = null;
  private readonly signals = new Set<SharedArrayBuffer>();
  private readonly fileQueries = new Map<number, (open: Array<{ path: string; users: number }>) => void>();
  private nextQuery = 1;
  private closed = false;

  /** A new connection for one searching thread (starts the host thread at the first). */
  connect(): VectorHostConnection {
    if (this.closed) throw new Error('the vector host is closed');
    const worker = this.start();
    const channel = new MessageChannel();
    const signal = new SharedArrayBuffer(8);
    this.signals.add(signal);
    worker.postMessage({ kind: 'connect', port: channel.port1, signal } satisfies VectorHostControl, [channel.port1]);
    return { port: channel.port2, signal };
  }

  /** The files the host thread has open and how many openings of each it serves (tests, diagnostics). */
  openFiles(): Promise<Array<{ path: string; users: number }>> {
    if (!this.worker) return Promise.resolve([]);
    const id = this.nextQuery++;
    const answer = new Promise<Array<{ path: string; users: number }>>((resolve) => this.fileQueries.set(id, resolve));
    this.worker.postMessage({ kind: 'files', id } satisfies VectorHostControl);
    return answer;
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = startModuleWorker(import.meta.url, './vector-host-thread');
    worker.unref();
    worker.on('message', (status: VectorHostStatus) => {
      if (status.kind !== 'files') return;
      this.fileQueries.get(status.id)?.(status.open);
      this.fileQueries.delete(status.id);
    });
    worker.on('error', () => {});
    worker.on('exit', () => {
      // Searching threads waiting now, or later, fail at once instead of waiting out VECTOR_HOST_WAIT_MS.
      for (const signal of this.signals) {
        const words = new Int32Array(signal);
        Atomics.store(words, ENDED, 1);
        Atomics.add(words, REPLIES, 1);
        Atomics.notify(words, REPLIES);
      }
      this.signals.clear();
      for (const resolve of this.fileQueries.values()) resolve([]);
      this.fileQueries.clear();
      if (this.worker === worker) this.worker = null;
    });
    this.worker = worker;
    return worker;
  }
}

/** Opens vector files through the host (in a searching thread): each call waits for the host's answer. */
export function vectorHostOpener(connection: VectorHostConnection): VectorFileOpener {
  const words = new Int32Array(connection.signal);
  const port = connection.port;
  let nextId = 1;
  const ask = (request: Exclude<VectorHostRequest, { op: 'close' }>): VectorHostReply => {
    let seen = Atomics.load(words, REPLIES);
    port.postMessage(request);
    const deadline = Date.now() + VECTOR_HOST_WAIT_MS;
    for (;;) {
      const received = receiveMessageOnPort(port);
      if (received) {
        const reply = received.message as VectorHostReply;
        if (reply.id === request.id) return reply;
        continue; // the answer to a request whose wait had failed
      }
      if (Atomics.load(words, ENDED) === 1) throw new Error('the vector search thread has ended');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`the vector search thread did not answer within ${VECTOR_HOST_WAIT_MS / 1000} s`);
      Atomics.wait(words, REPLIES, seen, left);
      seen = Atomics.load(words, REPLIES);
    }
  };
  const answer = <R extends VectorHostReply>(reply: VectorHostReply): R & { ok: true } => {
    if (!reply.ok) throw new Error(reply.message);
    return reply as R & { ok: true };
  };
  return (path, dimension): VectorFileSearch => {
    // Vector lists hold next to nothing per opening (their centroids and list offsets): the searching thread opens
    // them itself, so its searches neither wait for the host's turn nor cross a port. The host is for HNSW files.
    if (isReadableVectorListsFile(path)) return viewVectorFile(path, dimension);
    const opened = answer<{ id: number; ok: true; handle: number; size: number }>(ask({ op: 'open', id: nextId++, path, dimension }));
    let open = true;
    return {
      size: opened.size,
      search(query, k): VectorMatches {
        if (!open) throw new Error(`${path} is closed`);
        return answer<{ id: number; ok: true; keys: Float64Array; distances: Float32Array }>(ask({ op: 'search', id: nextId++, handle: opened.handle, query, k }));
      },
      close() {
        if (!open) return;
        open = false;
        port.postMessage({ op: 'close', handle: opened.handle } satisfies VectorHostRequest);
      },
    };
  };
}

/** True for a vector lists file; false for anything else, a file that cannot be read included (the host reports why). */
function isReadableVectorListsFile(path: string): boolean {
  try {
    return isVectorListsFile(path);
  } catch {
    return false;
  }
}
