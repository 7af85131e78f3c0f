/**
 * A second process on an embedded state file, for the tests of limits shared through state.sqlite (the `--workers`
 * case): waits until the given epoch ms, admits the secret `count` times (metered), and prints how many calls its
 * quota allowed, as JSON on stdout. Run: node --import tsx test/helpers/admit-process.ts <file> <secret> <count> <startAtMs>
 */
import { EmbeddedStateStore } from '../../src/state/embedded-state-store.js';

const [file, secret, count, startAt] = process.argv.slice(2);
const store = new EmbeddedStateStore(file!, { flushIntervalMs: 0 });
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
let allowed = 0;
for (let i = 0; i < Number(count); i += 1) {
  const admission = await store.admit({ secret: secret!, clientAddress: '192.0.2.9', anonymousRatePerSecond: 1, meter: true });
  if (admission.quota?.allowed) allowed += 1;
}
await store.close();
process.stdout.write(JSON.stringify({ allowed }));
