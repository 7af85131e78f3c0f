/**
 * HTTPS on one port, with plain HTTP recognised and refused instead of dropped.
 *
 * The listening socket belongs to an https.Server; each new connection is peeked at: a TLS
 * handshake (first byte 0x16) goes to TLS as usual, anything else is handed to a plain
 * http.Server running the same application, whose gate answers "HTTPS is required" unless the
 * peer is a trusted TLS-terminating proxy that sent X-Forwarded-Proto: https.
 */
import type { FastifyServerOptions } from 'fastify';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface TlsMaterial {
  key: string;
  cert: string;
  keyPath: string;
  certPath: string;
  /** True when the certificate was generated on this start. */
  generated: boolean;
}

const TLS_HANDSHAKE = 0x16;

/** Uses the given files, or a self-signed certificate kept in `<data-dir>/tls/` (created on first start). */
export async function loadTlsMaterial(dataDir: string, certPath?: string, keyPath?: string): Promise<TlsMaterial> {
  if (certPath || keyPath) {
    if (!certPath || !keyPath) throw new Error('--tls-cert and --tls-key must be given together');
    for (const f of [certPath, keyPath]) if (!existsSync(f)) throw new Error(`TLS file not found: ${f}`);
    return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8'), certPath, keyPath, generated: false };
  }
  const dir = join(dataDir, 'tls');
  const generatedCert = join(dir, 'self-signed-cert.pem');
  const generatedKey = join(dir, 'self-signed-key.pem');
  if (existsSync(generatedCert) && existsSync(generatedKey)) {
    return { cert: readFileSync(generatedCert, 'utf8'), key: readFileSync(generatedKey, 'utf8'), certPath: generatedCert, keyPath: generatedKey, generated: false };
  }
  mkdirSync(dir, { recursive: true });
  const notAfter = new Date();
  notAfter.setFullYear(notAfter.getFullYear() + 5);
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate: notAfter,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
    ],
  } as Parameters<typeof generate>[1]);
  writeFileSync(generatedKey, pems.private, { mode: 0o600 });
  writeFileSync(generatedCert, pems.cert);
  return { cert: pems.cert, key: pems.private, certPath: generatedCert, keyPath: generatedKey, generated: true };
}

/** A Fastify serverFactory serving HTTPS and recognising plain HTTP on the same port. */
export function httpsWithPlainHttpDetection(tls: { key: string; cert: string }): NonNullable<FastifyServerOptions['serverFactory']> {
  return (handler) => {
    const secure = https.createServer({ key: tls.key, cert: tls.cert }, handler);
    const plain = http.createServer(handler);
    const tlsConnectionListeners = secure.listeners('connection') as Array<(socket: Socket) => void>;
    secure.removeAllListeners('connection');
    const dispatch = (socket: Socket): void => {
      const first = socket.read(1) as Buffer | null;
      if (first === null) {
        socket.once('readable', () => dispatch(socket));
        return;
      }
      socket.unshift(first);
      if (first[0] === TLS_HANDSHAKE) {
        for (const listener of tlsConnectionListeners) listener.call(secure, socket);
      } else {
        plain.emit('connection', socket);
      }
    };
    secure.on('connection', (socket: Socket) => {
      socket.on('error', () => socket.destroy());
      dispatch(socket);
    });
    secure.keepAliveTimeout = 65_000;
    plain.keepAliveTimeout = 65_000;
    return secure;
  };
}
