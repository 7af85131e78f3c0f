/**
 * Counts the requests being served right now (received, not yet answered or aborted). Work that
 * can use spare cores (bulk search, see BulkSearchPool) asks this to know whether cores are spare.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

export type RequestsInFlight = () => number;

export function installRequestsInFlight(app: FastifyInstance): RequestsInFlight {
  let inFlight = 0;
  const counted = new WeakSet<FastifyRequest>();
  const finish = async (request: FastifyRequest) => {
    if (counted.delete(request)) inFlight--;
  };
  app.addHook('onRequest', async (request) => {
    counted.add(request);
    inFlight++;
  });
  app.addHook('onResponse', finish);
  app.addHook('onRequestAbort', finish);
  return () => inFlight;
}
