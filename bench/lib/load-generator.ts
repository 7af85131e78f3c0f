/**
 * Drives the server with autocannon over HTTPS. autocannon's own latency histogram has a 1 ms
 * resolution, too coarse for sub-millisecond lookups, so every response time (from autocannon's
 * `response` events, measured with hrtime) is also kept here and the percentiles are computed
 * exactly from them.
 *
 * The first `connections` responses of a run are left out of the percentiles (not of the throughput): they
 * carry the connections' TLS handshakes and may wait behind work the warm-up left queued, which is
 * the harness's start-up, not the server's steady state.
 */
import autocannon from 'autocannon';
import type { BenchRequest } from './scenario.js';

export interface RunOptions {
  baseUrl: string;
  apiKey: string;
  connections: number;
  durationSec: number;
  next: () => BenchRequest;
  okStatuses: number[];
}

export interface RunStats {
  connections: number;
  durationSec: number;
  requests: number;
  /** Responses the percentiles are computed from (requests less each connection's first). */
  samples: number;
  ok: number;
  failed: number;
  errors: number;
  timeouts: number;
  /** Successful responses per second. */
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  max: number;
  /** A few failing statuses, for diagnosis. */
  statusCounts: Record<string, number>;
}

export function percentile(sorted: Float64Array, q: number): number {
  if (!sorted.length) return NaN;
  const k = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[k]!;
}

export function runLoad(o: RunOptions): Promise<RunStats> {
  return new Promise((resolvePromise, reject) => {
    let lat = new Float64Array(1 << 16);
    let n = 0;
    let seen = 0;
    let ok = 0;
    let failed = 0;
    const statusCounts: Record<string, number> = {};
    const okSet = new Set(o.okStatuses);
    const started = process.hrtime.bigint();
    const instance = autocannon(
      {
        url: o.baseUrl,
        connections: o.connections,
        duration: o.durationSec,
        timeout: 30,
        headers: { authorization: `Bearer ${o.apiKey}`, accept: 'application/json' },
        requests: [
          {
            setupRequest: (req) => {
              const r = o.next();
              return {
                ...req,
                method: r.method ?? 'GET',
                path: r.path,
                headers: { ...req.headers, ...(r.body ? { 'content-type': 'application/json' } : {}), ...r.headers },
                ...(r.body ? { body: r.body } : {}),
              };
            },
          },
        ],
      },
      (err, result) => {
        if (err) return reject(err);
        const elapsedSec = Number(process.hrtime.bigint() - started) / 1e9;
        const sorted = lat.subarray(0, n).sort();
        let sum = 0;
        for (let i = 0; i < n; i++) sum += sorted[i]!;
        resolvePromise({
          connections: o.connections,
          durationSec: o.durationSec,
          requests: seen,
          samples: n,
          ok,
          failed,
          errors: result.errors,
          timeouts: result.timeouts,
          rps: ok / Math.min(elapsedSec, result.duration || elapsedSec),
          p50: percentile(sorted, 0.5),
          p95: percentile(sorted, 0.95),
          p99: percentile(sorted, 0.99),
          mean: n ? sum / n : NaN,
          max: n ? sorted[n - 1]! : NaN,
          statusCounts,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (okSet.has(statusCode)) ok++;
      else {
        failed++;
        statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
      }
      if (++seen <= o.connections) return;
      if (n === lat.length) {
        const bigger = new Float64Array(lat.length * 2);
        bigger.set(lat);
        lat = bigger;
      }
      lat[n++] = responseTime;
    });
  });
}
