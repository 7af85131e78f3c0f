/** Where a route's heavy work is computed: on the server's worker pool, skipped at its turn if the client has gone. */
import type { FastifyRequest } from 'fastify';
import type { ReleaseView } from '../../services/release-view.js';
import { runOperation, type HeavyOperationName, type OperationArgs, type OperationResult } from '../../threads/heavy-operations.js';
import type { RunOptions } from '../../threads/worker-pool.js';

/** A request's heavy operation: the request, the operation, the caller's views (`request.view`, or `[before, after]`), its arguments. */
type HeavyCall<K extends HeavyOperationName> = [request: FastifyRequest, op: K, views: ReleaseView | readonly ReleaseView[], args: OperationArgs<K>];

/** Runs a heavy operation for this request on a worker thread. */
export function computeHeavy<K extends HeavyOperationName>(...[request, op, views, args]: HeavyCall<K>): Promise<OperationResult<K>> {
  return request.server.workerPool.run(op, views, args, heavyRunOptions(request));
}

/** The same, answering the result as UTF-8 JSON made on the thread (see WorkerPool.runJson; send it with sendOkJson). */
export function computeHeavyJson<K extends HeavyOperationName>(...[request, op, views, args]: HeavyCall<K>): Promise<Uint8Array> {
  return request.server.workerPool.runJson(op, views, args, heavyRunOptions(request));
}

/** A request whose client has closed the connection is not computed (nobody would read the answer). */
export function heavyRunOptions(request: FastifyRequest): RunOptions {
  return { abandoned: () => request.socket.destroyed };
}

/** Runs the same operation in this thread, now: for requests a measured threshold says are cheaper than a hand-over. */
export function computeHere<K extends HeavyOperationName>(...[request, op, views, args]: HeavyCall<K>): Promise<OperationResult<K>> {
  return runOperation(op, Array.isArray(views) ? views : [views as ReleaseView], args, { semanticIndexes: request.server.semanticIndexes });
}
