/**
 * Thread of ./vector-host.ts: views each vector file once (viewVectorFile), however many threads of the process open
 * it, answers their searches one at a time on their ports, and lets a file go when its last opening is closed.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import type { VectorFileSearch } from '../store/semantic-index.js';
import { viewVectorFile } from '../store/sqlite/sqlite-semantic-index.js';
import type { VectorHostControl, VectorHostReply, VectorHostRequest, VectorHostStatus } from './vector-host.js';

interface OpenFile {
  path: string;
  dimension: number;
  search: VectorFileSearch;
  users: number;
}

const files = new Map<string, OpenFile>();
const handles = new Map<number, OpenFile>();
let nextHandle = 1;

function open(path: string, dimension: number): { handle: number; size: number } {
  const key = `${dimension}:${path}`;
  let file = files.get(key);
  if (!file) files.set(key, (file = { path, dimension, search: viewVectorFile(path, dimension), users: 0 }));
  file.users++;
  const handle = nextHandle++;
  handles.set(handle, file);
  return { handle, size: file.search.size };
}

function close(handle: number): void {
  const file = handles.get(handle);
  if (!file) return;
  handles.delete(handle);
  if (--file.users > 0) return;
  files.delete(`${file.dimension}:${file.path}`);
  file.search.close();
}

type Asked = Exclude<VectorHostRequest, { op: 'close' }>;

function answer(request: Asked): VectorHostReply {
  try {
    if (request.op === 'open') return { id: request.id, ok: true, ...open(request.path, request.dimension) };
    const file = handles.get(request.handle);
    if (!file) return { id: request.id, ok: false, message: 'the vector file is not open' };
    const found = file.search.search(request.query, request.k);
    return { id: request.id, ok: true, keys: Float64Array.from(found.keys), distances: Float32Array.from(found.distances) };
  } catch (err) {
    return { id: request.id, ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

function serve(port: MessagePort, signal: SharedArrayBuffer): void {
  const words = new Int32Array(signal);
  const opened = new Set<number>();
  port.on('message', (request: VectorHostRequest) => {
    if (request.op === 'close') {
      opened.delete(request.handle);
      close(request.handle);
      return;
    }
    const reply = answer(request);
    if (request.op === 'open' && reply.ok && 'handle' in reply) opened.add(reply.handle);
    port.postMessage(reply, reply.ok && 'keys' in reply ? [reply.keys.buffer as ArrayBuffer, reply.distances.buffer as ArrayBuffer] : []);
    Atomics.add(words, 0, 1);
    Atomics.notify(words, 0);
  });
  // A searching thread that ends (replaced, closed) closes its port: its openings are let go.
  port.on('close', () => {
    for (const handle of opened) close(handle);
    opened.clear();
  });
}

parentPort!.on('message', (message: VectorHostControl) => {
  if (message.kind === 'connect') serve(message.port, message.signal);
  else parentPort!.postMessage({ kind: 'files', id: message.id, open: [...files.values()].map((f) => ({ path: f.path, users: f.users })) } satisfies VectorHostStatus);
});
