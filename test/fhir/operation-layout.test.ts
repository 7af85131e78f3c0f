/**
 * The FHIR surface's layout (issue 21, Architecture 4): every FHIR interaction the served
 * /openapi.json lists has its adapter in src/http/fhir/operations/, in the file named for it
 * (CodeSystem/$lookup → codesystem-lookup.ts), and no FHIR interaction is registered anywhere else.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const OPERATIONS = join(SRC, 'http/fhir/operations');
const FHIR_PREFIX = '/fhir/{fhirVersion}';

let t: TestServer;
let fhirPaths: string[];
beforeAll(async () => {
  t = await startTestServer();
  const openapi = await t.request('/openapi.json');
  expect(openapi.status).toBe(200);
  fhirPaths = Object.keys(openapi.body.paths as Record<string, unknown>)
    .filter((p) => p === FHIR_PREFIX || p.startsWith(`${FHIR_PREFIX}/`))
    .map((p) => p.slice(FHIR_PREFIX.length));
});
afterAll(async () => {
  await t?.close();
});

/** The adapter file an interaction belongs in, and the route path that file registers. */
function expectedAdapter(path: string, all: readonly string[]): { file: string; route: string } {
  if (path === '') return { file: 'batch.ts', route: '/fhir/:fhirVersion' };
  if (path === '/metadata' || path === '/$versions') return { file: 'metadata.ts', route: path };
  const [type, second] = path.slice(1).split('/') as [string, string | undefined];
  if (second?.startsWith('$')) return { file: `${type.toLowerCase()}-${second.slice(1)}.ts`, route: path };
  const hasRead = all.includes(`/${type}/{id}`);
  return { file: `${type.toLowerCase()}-${hasRead ? 'read-search' : 'search'}.ts`, route: second === '{id}' ? `/${type}/:id` : `/${type}` };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

it('serves the FHIR interactions this layout names (the list is not empty)', () => {
  expect(fhirPaths).toEqual(expect.arrayContaining(['/ValueSet/$expand', '/CodeSystem/$lookup', '/CodeSystem/{id}', '/metadata', '']));
});

it('each FHIR interaction is registered by the operations/ file named for it, whose header names it', () => {
  for (const path of fhirPaths) {
    const { file, route } = expectedAdapter(path, fhirPaths);
    const source = readFileSync(join(OPERATIONS, file), 'utf8');
    expect(source, `${file} registers ${route}`).toContain(`'${route}'`);
    const header = /^\/\*\*([\s\S]*?)\*\//.exec(source)?.[1] ?? '';
    const named = path.split('/').pop()!;
    if (named.startsWith('$')) expect(header, `${file}'s header names ${named}`).toContain(named);
  }
});

it('every file in operations/ serves an interaction, and no file outside it registers one', () => {
  const expected = new Set(fhirPaths.map((p) => expectedAdapter(p, fhirPaths).file));
  expect(readdirSync(OPERATIONS).filter((f) => f.endsWith('.ts')).sort()).toEqual([...expected].sort());
  const registering = sourceFiles(SRC)
    .filter((f) => !f.startsWith(OPERATIONS) && /\bregisterFhirOperation\(app,/.test(readFileSync(f, 'utf8')))
    .map((f) => relative(SRC, f));
  expect(registering).toEqual([]);
});
