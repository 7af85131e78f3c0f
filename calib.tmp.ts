import { buildModel } from '/work/main/src/synth/generate.js';
import { countAncestors } from '/work/main/src/synth/ancestors.js';
import { makePlan } from '/work/main/src/synth/plan.js';
import { fixedConceptIds } from '/work/main/src/synth/family-fixed.js';
import { LANGUAGES } from '/work/main/src/synth/family-snomed.js';
import { PER_CONCEPT } from '/work/main/src/synth/shape.js';
const n = Number(process.argv[2]);
const plan = makePlan(n);
const reserved = new Set<number>([...fixedConceptIds(), ...LANGUAGES.map((l) => l[0])]);
for (const d of process.argv.slice(3).map(Number)) {
  const t0 = Date.now();
  const ctx = buildModel(plan, 20250829, reserved, () => {}, d);
  const t1 = Date.now();
  const rows = countAncestors(ctx.table);
  console.log(`density ${d}: ${(rows / n).toFixed(3)} per concept (ratio ${(rows / n / PER_CONCEPT.conceptAncestors).toFixed(3)}), build ${(t1 - t0) / 1000}s count ${(Date.now() - t1) / 1000}s`);
}
