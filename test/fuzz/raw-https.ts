/**
 * Sends one request with its request line exactly as given (no URL normalisation: dot segments,
 * double slashes and escapes reach the server as written), over a keep-alive HTTPS agent.
 */
import https from 'node:https';
import type { FuzzResponse } from './response-properties.js';

export function rawHttps(agent: https.Agent, port: number, request: { method: string; url: string; headers: Record<string, string>; body?: string }): Promise<FuzzResponse> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: '127.0.0.1', port, method: request.method, path: request.url, headers: request.headers, agent, rejectUnauthorized: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (request.body !== undefined) req.write(request.body);
    req.end();
  });
}
