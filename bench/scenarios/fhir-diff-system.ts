/**
 * GET /fhir/r4/CodeSystem/$diff without `code` (the whole-system walk, issue #14), the release diffed
 * with itself: no change anywhere, so every page reads its whole scan budget (SCAN_BUDGET concepts per
 * release, each compared with its `Maps to` targets): the worst case of a page. Requests: the first
 * pages of the OMOP system and of the systems of the largest served vocabularies, and pages at 400
 * positions deep in those walks (random concepts; their cursors are built here rather than walked to).
 */
import { LicenceRules } from '../../src/licences/licence-rules.js';
import { NEVER_SERVED_VOCABULARIES } from '../../src/licences/licence-rules.js';
import { OMOP_CONCEPT_SYSTEM, systemForVocabulary } from '../../src/services/fhir/code-system-uris.js';
import { conceptCodeSystem } from '../../src/services/terminology/code-system-concept.js';
import { codeSystemDiffCursorAfter } from '../../src/services/terminology/code-system-diff.js';
import { ALL_DIFF_CHANGE_TYPES, DIFF_CHANGE_TYPES, type DiffChangeTypes } from '../../src/services/terminology/release-diff.js';
import { cycle, type BenchContext, type BenchRequest, type Scenario } from '../lib/scenario.js';

/** Vocabularies whose systems are walked: the largest served ones with a code-system URI. */
const VOCABULARY_SYSTEMS = 6;
const DEEP_POSITIONS = 400;

/**
 * Requests of whole-system diffs of the bench release with itself, for these change types: first
 * pages and pages deep in the walks (cursors for the bench key, whose CPT4 validation is current).
 */
export function diffSystemRequests(ctx: BenchContext, types: DiffChangeTypes): BenchRequest[] {
  const buildId = ctx.store.prepare("SELECT value FROM store_meta WHERE key = 'build_id'").pluck().get() as string;
  const policy = new LicenceRules('2099-12-31');
  const typeQuery = types === ALL_DIFF_CHANGE_TYPES ? '' : `&type=${DIFF_CHANGE_TYPES.filter((t) => types.has(t)).join(',')}`;
  const request = (system: string, cursor?: string): BenchRequest => ({
    path:
      `/fhir/r4/CodeSystem/$diff?system=${encodeURIComponent(system)}&fromVersion=${ctx.release}&toVersion=${ctx.release}${typeQuery}` +
      (cursor === undefined ? '' : `&cursor=${cursor}`),
  });
  const vocabularies = (
    ctx.store
      .prepare(
        `SELECT vocabulary_id FROM vocabulary_summary WHERE vocabulary_id NOT IN (${NEVER_SERVED_VOCABULARIES.map(() => '?').join(', ')}) ORDER BY concept_count DESC`,
      )
      .pluck()
      .all(...NEVER_SERVED_VOCABULARIES) as string[]
  )
    .filter((v) => systemForVocabulary(v) !== undefined)
    .slice(0, VOCABULARY_SYSTEMS);
  const requests: BenchRequest[] = [request(OMOP_CONCEPT_SYSTEM), ...vocabularies.map((v) => request(systemForVocabulary(v)!))];
  const omop = conceptCodeSystem(OMOP_CONCEPT_SYSTEM)!;
  const deep = ctx.sample<{ concept_id: number; concept_code: string; vocabulary_id: string }>(
    `SELECT concept_id, concept_code, vocabulary_id FROM concept WHERE vocabulary_id IN (${vocabularies.map(() => '?').join(', ')})`,
    DEEP_POSITIONS,
    ...vocabularies,
  );
  deep.forEach((c, i) => {
    // Half in the OMOP system's concept_id walk, half in the vocabulary's code walk.
    const system = i % 2 === 0 ? omop : conceptCodeSystem(systemForVocabulary(c.vocabulary_id)!)!;
    const lane = system.kind === 'vocabulary' ? system.vocabularyIds.indexOf(c.vocabulary_id) : 0;
    if (lane < 0) return;
    const cursor = codeSystemDiffCursorAfter(buildId, buildId, policy, system, { lane, code: c.concept_code, conceptId: c.concept_id }, types);
    requests.push(request(system.canonical, cursor));
  });
  return requests;
}

const scenario: Scenario = {
  name: 'fhir-diff-system',
  description: `GET /fhir/r4/CodeSystem/$diff of a whole code system, release with itself (every page reads its whole budget, Maps to compared): first pages of OMOP + ${VOCABULARY_SYSTEMS} largest vocabularies, ${DEEP_POSITIONS} deep cursors`,
  prepare(ctx) {
    return cycle(diffSystemRequests(ctx, ALL_DIFF_CHANGE_TYPES), ctx.random);
  },
};
export default scenario;
