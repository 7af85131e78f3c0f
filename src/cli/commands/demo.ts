/**
 * `omopterm demo`: loads the bundled demo vocabulary as release `demo` (a label no real YYYY.Q release can take),
 * keeps a demo API key in the data directory, serves, and prints curl lines that name the release they ask.
 */
import type { Command } from 'commander';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRelease } from '../../importer/load-release.js';
import { openStateStore, type StateChoice } from '../../state/openers/open-state-store.js';
import { memoryRateLimiter } from '../../state/rate-limiter.js';
import { listReleaseBuilds, type ReleaseBuild } from '../../store/data-dir.js';
import { DEMO_RELEASE_LABEL } from '../../store/release-manifest.js';
import { embeddingChoice } from './embed.js';
import { stateChoiceOf } from './options.js';
import { runServer, serveOptions, type ServeCliOptions } from './serve.js';

/** The bundled demo vocabulary (a small subset written for omopterm, not an Athena release). */
export const DEMO_VOCABULARY_DIR = fileURLToPath(new URL('../../../examples/demo-vocabulary/', import.meta.url));
export { DEMO_RELEASE_LABEL };
const DEMO_KEY_FILE = 'demo-api-key';
const DEMO_KEY_RATE = 20;
const DEMO_KEY_NAME = 'demo';

/** Reuses the demo key kept in the data dir while it is still valid (in the chosen state); replaces it otherwise. */
async function demoKey(dataDir: string, where: StateChoice): Promise<string> {
  const file = join(dataDir, DEMO_KEY_FILE);
  const state = await openStateStore(where, { flushIntervalMs: 0, rateLimiter: memoryRateLimiter() });
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

/**
 * Releases under a real label that an earlier omopterm loaded from the demo vocabulary (it used the label 2025.2):
 * they are left as they are (a data directory's releases are never removed behind the user's back), and named once.
 */
function olderDemoCopies(builds: ReleaseBuild[]): ReleaseBuild[] {
  return builds.filter((b) => b.label !== DEMO_RELEASE_LABEL && /[\\/]examples[\\/]demo-vocabulary[\\/]?$/.test(b.manifest.source_dir ?? ''));
}

export function registerDemoCommand(program: Command): void {
  serveOptions(program.command('demo'))
    .description(
      `Load the bundled demo vocabulary as release '${DEMO_RELEASE_LABEL}' (first run only), print a demo API key and serve it. ` +
        'The demo is a few hundred real concepts, not a full Athena release: see `omopterm load --help` for real data. ' +
        `The label '${DEMO_RELEASE_LABEL}' is reserved for the demo (load refuses it), so it never collides with a real YYYY.Q release; ` +
        'requests reach it with ?vocab_release=demo (or the header X-Vocab-Release: demo), as the printed examples do.',
    )
    .action(async (options: ServeCliOptions) => {
      const dataDir = resolve(options.dataDir);
      const builds = listReleaseBuilds(dataDir);
      if (!builds.some((b) => b.label === DEMO_RELEASE_LABEL)) {
        process.stderr.write(`loading the demo vocabulary from ${DEMO_VOCABULARY_DIR} into ${dataDir} as release ${DEMO_RELEASE_LABEL}\n`);
        await loadRelease({
          sourceDir: DEMO_VOCABULARY_DIR,
          dataDir,
          label: DEMO_RELEASE_LABEL,
          demo: true,
          // The first release of a data directory becomes the default anyway; a real default stays the default.
          makeDefault: false,
          replace: false,
          quiet: false,
          embeddings: embeddingChoice(options.embeddingModel),
        });
      }
      for (const old of olderDemoCopies(builds)) {
        process.stderr.write(
          `note: release ${old.label} in ${dataDir} is a copy of the demo vocabulary loaded by an earlier omopterm (${old.dir}); ` +
            `it is left as it is. Load a real ${old.label} over it with \`omopterm load <athena-dir> --release ${old.label} --replace\`, ` +
            `or delete that directory to remove it.\n`,
        );
      }
      const key = await demoKey(dataDir, stateChoiceOf({ ...options, dataDir }));
      const server = await runServer({ ...options, dataDir });
      const base = server.url;
      const selfSigned = server.tls.certPath === join(dataDir, 'tls', 'self-signed-cert.pem');
      const trust = selfSigned ? `--cacert ${server.tls.certPath} ` : '';
      const release = `vocab_release=${DEMO_RELEASE_LABEL}`;
      process.stdout.write(
        [
          '',
          `Demo API key: ${key}   (also saved in ${join(dataDir, DEMO_KEY_FILE)})`,
          `Try (release '${DEMO_RELEASE_LABEL}' is named in each request, so the examples keep working when another release is the default):`,
          `  curl ${trust}-H "Authorization: Bearer ${key}" '${base}/v1/concepts/201826?${release}'`,
          `  curl ${trust}-H "Authorization: Bearer ${key}" '${base}/v1/concepts/by-code/ICD10CM/E11.9?${release}'`,
          `  curl ${trust}-H "Authorization: Bearer ${key}" -H "X-Vocab-Release: ${DEMO_RELEASE_LABEL}" '${base}/fhir/r4/CodeSystem/$lookup?system=http://snomed.info/sct&code=44054006'`,
          `Browser: ${base}/?${release}   (sign in with the demo key)`,
          `API reference: ${base}/docs   ` +
            (selfSigned ? `(self-signed certificate ${server.tls.certPath}: trust it with --cacert, or accept the browser warning)` : ''),
          'Stop with Ctrl-C.',
          '',
        ].join('\n'),
      );
    });
}
