/**
 * `omopterm map FILE --out DIR` on the demo vocabulary (issue #24 "Job", "Output"): the column roles and bad rows it
 * prints, the four output files, resumption (a run stopped after one batch, then the same command: every term mapped
 * once, the same files as an uninterrupted run), a different input in the same DIR refused unless --restart, and
 * `map --from-usagi` turning a reviewed Usagi file into SOURCE_TO_CONCEPT_MAP.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_VOCABULARY_DIR } from '../../src/cli/commands/demo.js';
import { runCli } from '../helpers/cli.js';
import { loadCachedRelease } from '../helpers/release-cache.js';
import { demoConcepts, demoMapsTo } from '../source-mapping/demo-release.js';

let work: string;
let dataDir: string;
let input: string;
const names: string[] = [];
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'omopterm-map-cli-'));
  dataDir = join(work, 'data');
  await loadCachedRelease(DEMO_VOCABULARY_DIR, dataDir, '2025.2', true);
  // 60 standard concepts' names in lower case (three batches of 25), one ICD10CM code, one bad row
  const standard = demoConcepts().filter((c) => c.standard_concept === 'S' && c.vocabulary_id !== 'CPT4').slice(0, 60);
  const lines = ['code\tdescription\tcount\tward'];
  standard.forEach((c, i) => {
    names.push(c.concept_name.toLowerCase());
    lines.push(`L${i}\t${c.concept_name.toLowerCase()}\t${100 - i}\tW${i % 3}`);
  });
  lines.push('E11\tsugar diabetes\tlots\tW9'); // bad frequency: line 62
  lines.push('E11\tsugar diabetes\t7\tW9');
  input = join(work, 'terms.tsv');
  writeFileSync(input, `${lines.join('\n')}\n`);
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const map = (out: string, extra: string[] = [], env: Record<string, string> = {}) =>
  runCli(['map', input, '--release', '2025.2', '--data-dir', dataDir, '--out', out, '--workers', '1', ...extra], env, 300_000);
const journalIndexes = (out: string) =>
  readFileSync(join(out, '.omopterm-map', 'journal.ndjson'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { index: number }).index);

describe('omopterm map', () => {
  it('prints the column roles and bad rows, and writes usagi.csv, source_to_concept_map.csv and the summary', () => {
    const out = join(work, 'full');
    const res = map(out, ['--auto-approve', 'exact-code']);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stderr).toContain("source_code ← 'code' (guessed), source_name ← 'description' (guessed), source_frequency ← 'count' (guessed)");
    expect(res.stderr).toContain("kept as additional info: 'ward'");
    expect(res.stderr).toContain("terms.tsv: line 62, column 3 (count): the frequency 'lots' is not a whole number ≥ 0");
    const usagi = readFileSync(join(out, 'usagi.csv'), 'utf8').trim().split('\n');
    expect(usagi[0]).toBe(
      'sourceCode,sourceName,sourceFrequency,sourceAutoAssignedConceptIds,ADD_INFO:ward,matchScore,mappingStatus,equivalence,statusSetBy,statusSetOn,conceptId,conceptName,domainId,mappingType,comment,createdBy,createdOn,assignedReviewer',
    );
    expect(usagi).toHaveLength(1 + 61);
    // E11 is approved by the exact-code rule, to the ICD10CM code's Maps to target (from the demo files)
    const target = demoMapsTo(demoConcepts().find((c) => c.vocabulary_id === 'ICD10CM' && c.concept_code === 'E11')!.concept_id)[0]!;
    const e11 = usagi.find((l) => l.startsWith('E11,'))!.split(',');
    expect([e11[6], e11[8], e11[10]]).toEqual(['APPROVED', 'rule:exact_code', String(target)]);
    const stcm = readFileSync(join(out, 'source_to_concept_map.csv'), 'utf8').trim().split('\n');
    expect(stcm).toEqual([
      'source_code,source_concept_id,source_vocabulary_id,source_code_description,target_concept_id,target_vocabulary_id,valid_start_date,valid_end_date,invalid_reason',
      `E11,0,LOCAL,sugar diabetes,${target},SNOMED,1970-01-01,2099-12-31,`,
    ]);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary).toMatchObject({ total_terms: 61, approved_terms: 1, approved_frequency: 7, approved_by: { exact_code: 1 } });
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('- Terms: 61');
  }, 300_000);

  it('resumes after an interruption: every term mapped once, the same files as an uninterrupted run', () => {
    const whole = join(work, 'whole');
    expect(map(whole).status).toBe(0);
    const resumed = join(work, 'resumed');
    const first = map(resumed, [], { OMOPTERM_TEST_MAP_STOP_AFTER_BATCHES: '1' });
    expect(first.status, first.stderr).toBe(130);
    expect(first.stderr).toContain('25 of 61 terms mapped and kept');
    expect(journalIndexes(resumed)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    // a kill in the middle of an append leaves half a line: it is dropped and its term mapped again
    appendFileSync(join(resumed, '.omopterm-map', 'journal.ndjson'), '{"index":30,"candidates":[{"conc');
    const second = map(resumed);
    expect(second.status, second.stderr).toBe(0);
    expect(second.stderr).toContain('resuming: 25 of 61 terms already mapped');
    expect(second.stderr).toContain('mapping 36 terms on release 2025.2 (25 mapped before)');
    const indexes = journalIndexes(resumed);
    expect(indexes).toHaveLength(61);
    expect(new Set(indexes).size).toBe(61);
    for (const file of ['usagi.csv', 'source_to_concept_map.csv', 'summary.json']) {
      expect(readFileSync(join(resumed, file), 'utf8'), file).toBe(readFileSync(join(whole, file), 'utf8'));
    }
    // another input (other options) in the same directory: refused unless --restart
    const other = map(resumed, ['--k', '3']);
    expect(other.status).toBe(1);
    expect(other.stderr).toContain('--restart');
    const restarted = map(resumed, ['--k', '3', '--restart']);
    expect(restarted.status, restarted.stderr).toBe(0);
    expect(journalIndexes(resumed)).toHaveLength(61);
  }, 600_000);

  it('map --from-usagi: a reviewed Usagi file becomes SOURCE_TO_CONCEPT_MAP; bad options are one-line errors', () => {
    const out = join(work, 'full');
    const lines = readFileSync(join(out, 'usagi.csv'), 'utf8').trim().split('\n');
    // a reviewer approves the first term (its pre-selected concept)
    const first = lines[1]!.split(',');
    first[6] = 'APPROVED';
    first[8] = 'ana';
    lines[1] = first.join(',');
    const reviewed = join(work, 'reviewed.csv');
    writeFileSync(reviewed, `${lines.join('\n')}\n`);
    const final = join(work, 'final');
    const res = runCli(['map', '--from-usagi', reviewed, '--data-dir', dataDir, '--source-vocabulary-id', 'MY_LAB', '--out', final], {}, 120_000);
    expect(res.status, res.stderr).toBe(0);
    const rows = readFileSync(join(final, 'source_to_concept_map.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    expect(rows.map((r) => [r[0], r[2], r[4]])).toEqual([
      ['L0', 'MY_LAB', first[10]],
      ['E11', 'MY_LAB', lines.find((l) => l.startsWith('E11,'))!.split(',')[10]],
    ]);
    expect(JSON.parse(readFileSync(join(final, 'summary.json'), 'utf8'))).toMatchObject({ total_terms: 61, approved_terms: 2, approved_by: { reviewer: 1, exact_code: 1 } });
    const bad = runCli(['map', input, '--out', join(work, 'x'), '--data-dir', dataDir, '--k', '30'], {}, 120_000);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain("'k' must be a whole number from 1 to 25");
    const cpt = runCli(['map', input, '--out', join(work, 'y'), '--data-dir', dataDir, '--vocabulary', 'CPT4'], {}, 120_000);
    expect(cpt.status).toBe(1);
    expect(cpt.stderr).toContain('CPT4');
    const help = runCli(['map', '--help']);
    for (const flag of ['--out', '--release', '--k', '--domain', '--vocabulary', '--class', '--include-non-standard', '--include-invalid', '--auto-approve', '--auto-approve-score', '--code-column', '--name-column', '--frequency-column', '--source-vocabulary-id', '--workers', '--restart', '--cpt4-validated-until', '--from-usagi']) {
      expect(help.stdout).toContain(flag);
    }
  }, 300_000);
});
