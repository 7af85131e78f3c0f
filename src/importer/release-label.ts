/**
 * The label a release is loaded under: canonical `YYYY.Q` (quarter 1–4); `load` refuses the alias `YYYYvQ`, naming
 * the canonical form, and `demo` is reserved for the bundled demo vocabulary, which only `omopterm demo` loads.
 */
import { DEMO_RELEASE_LABEL } from '../store/release-manifest.js';

const LOADABLE_LABEL = /^\d{4}\.[1-4]$/;
const ALIAS_LABEL = /^(\d{4})v([1-4])$/i;

/** Null when `label` can be loaded; otherwise why not, as one sentence. */
export function releaseLabelProblem(label: string): string | null {
  if (LOADABLE_LABEL.test(label)) return null;
  if (label.toLowerCase() === DEMO_RELEASE_LABEL) {
    return `release label '${label}' is reserved for the bundled demo vocabulary (omopterm demo loads it); load a real release as YYYY.Q with Q 1–4 (e.g. 2025.2)`;
  }
  const alias = ALIAS_LABEL.exec(label);
  if (alias) return `release label '${label}' is the alias form; load it as ${alias[1]}.${alias[2]} (YYYY.Q, Q 1–4)`;
  return `release label '${label}' is not of the form YYYY.Q with Q 1–4 (a year and its release number, e.g. 2025.2)`;
}

/** Null when the demo vocabulary may be loaded under `label` (only the demo label); otherwise why not. */
export function demoReleaseLabelProblem(label: string): string | null {
  return label === DEMO_RELEASE_LABEL ? null : `the demo vocabulary is loaded as release '${DEMO_RELEASE_LABEL}', not '${label}'`;
}
