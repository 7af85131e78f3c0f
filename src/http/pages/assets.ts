/**
 * The browser's static files, served by this server from memory (nothing from another origin): the stylesheet and
 * script in assets/browser/, and htmx from its npm package. Each URL carries the file's content hash, so the
 * answer may be cached for a year and a new version is a new URL.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../services/errors.js';

interface Asset {
  body: Buffer;
  contentType: string;
  hash: string;
}

const BROWSER_ASSETS = fileURLToPath(new URL('../../../assets/browser/', import.meta.url));

const SOURCES: Record<string, { file: () => string; contentType: string }> = {
  'app.css': { file: () => `${BROWSER_ASSETS}app.css`, contentType: 'text/css; charset=utf-8' },
  'app.js': { file: () => `${BROWSER_ASSETS}app.js`, contentType: 'text/javascript; charset=utf-8' },
  'htmx.min.js': { file: () => createRequire(import.meta.url).resolve('htmx.org/dist/htmx.min.js'), contentType: 'text/javascript; charset=utf-8' },
};

let loaded: Map<string, Asset> | undefined;

function assets(): Map<string, Asset> {
  if (!loaded) {
    loaded = new Map();
    for (const [name, source] of Object.entries(SOURCES)) {
      const body = readFileSync(source.file());
      loaded.set(name, { body, contentType: source.contentType, hash: createHash('sha256').update(body).digest('hex').slice(0, 16) });
    }
  }
  return loaded;
}

export type AssetName = keyof typeof SOURCES & string;

/** The URL of an asset, fingerprinted with its content hash. */
export function assetUrl(name: 'app.css' | 'app.js' | 'htmx.min.js'): string {
  return `/assets/${name}?v=${assets().get(name)!.hash}`;
}

/** Bytes of an asset (page-weight budgets). */
export function assetSize(name: 'app.css' | 'app.js' | 'htmx.min.js'): number {
  return assets().get(name)!.body.length;
}

export function registerAssetRoutes(app: FastifyInstance): void {
  assets();
  app.get<{ Params: { name: string } }>(
    '/assets/:name',
    { config: { page: 'open', cacheable: true }, schema: { hide: true } },
    async (request, reply) => {
      const asset = assets().get(request.params.name);
      if (!asset) throw new ServiceError(404, 'not_found', `No asset named ${JSON.stringify(request.params.name)}.`);
      reply
        .type(asset.contentType)
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('X-Content-Type-Options', 'nosniff');
      return asset.body;
    },
  );
}
