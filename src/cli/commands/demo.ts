import type { Command } from 'commander';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRelease } from '../../importer/load-release.js';
import { EmbeddedStateStore } from '../../state/embedded-state-store.js';
import { listReleaseBuilds, stateStorePath } from '../../store/data-dir.js';
import { embeddingChoice } from './embed.js';
import { runServer, serveOptions, type ServeCliOptions } from './serve.js';

/** The bundled demo vocabulary (a small subset written for omopterm, not an Athena release). */
export const DEMO_VOCABULARY_DIR = fileURLToPath(new URL('../../../examples/demo-vocabulary/', import.meta.url));
export const DEMO_RELEASE_LABEL = '2025.2';
const DEMO_KEY_FILE = 'demo-api-key';
const DEMO_KEY_RATE = 20;
const DEMO_KEY_NAME = 'demo';

/** Reuses the demo key kept in the data dir while it is still valid; replaces it otherwise. */
async function demoKey(dataDir: string): Promise<string> {
  const file = join(dataDir, DEMO_KEY_FILE);
  const state = new EmbeddedStateStore(stateStorePath(dataDir), { flushIntervalMs: 0 });
  try {
    if (existsSync(file)) {
      const saved = readFileSync(file, 'utf8').trim();
      if (saved && (await state.authenticate(saved))) return saved;
    }
    // Key names are unique: an active 'demo' key whose secret was lost is revoked and replaced.
    await state.revokeKey(DEMO_KEY_NAME);
    const { secret } = await state.createKey({ name: DEMO_KEY_NAME, rate_per_second: DEMO_KEY_RATE, monthly_quota: null, cpt4_validated_until: null });
    writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    return secret;
  } finally {
    await state.close();
  }
}

export function registerDemoCommand(program: Command): void {
  serveOptions(program.command('demo'))
    .description(
      `Load the bundled demo vocabulary as release ${DEMO_RELEASE_LABEL} (first run only), print a demo API key and serve it. ` +
        'The demo is a few hundred real concepts, not a full Athena release: see `omopterm load --help` for real data.',
    )
    .action(async (options: ServeCliOptions) => {
      const dataDir = resolve(options.dataDir);
      if (!listReleaseBuilds(dataDir).some((b) => b.label === DEMO_RELEASE_LABEL)) {
        process.stderr.write(`loading the demo vocabulary from ${DEMO_VOCABULARY_DIR} into ${dataDir}\n`);
        await loadRelease({
          sourceDir: DEMO_VOCABULARY_DIR,
          dataDir,
          label: DEMO_RELEASE_LABEL,
          makeDefault: true,
          replace: false,
          quiet: false,
          embeddings: embeddingChoice(options.embeddingModel),
        });
      }
      const key = await demoKey(dataDir);
      const server = await runServer({ ...options, dataDir });
      const base = server.url;
      process.stdout.write(
        [
          '',
          `Demo API key: ${key}   (also saved in ${join(dataDir, DEMO_KEY_FILE)})`,
          'Try:',
          `  curl -k -H "Authorization: Bearer ${key}" ${base}/v1/concepts/201826`,
          `  curl -k -H "Authorization: Bearer ${key}" ${base}/v1/concepts/by-code/ICD10CM/E11.9`,
          `API reference: ${base}/docs   (self-signed certificate: -k / accept the browser warning)`,
          'Stop with Ctrl-C.',
          '',
        ].join('\n'),
      );
    });
}
