/**
 * `omopterm concept-set resolve FILE`: ids, CSV and JSON output of the hand-built concept-set release, the three file
 * formats, and the exit codes (0 resolved, 1 usage or invalid expression naming the item and field).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRelease } from '../../src/importer/load-release.js';
import { writeAthenaFixture } from '../helpers/athena-fixture.js';
import { runCli } from '../helpers/cli.js';
import { atlas, CHILD, CONCEPT_SET_FIXTURE, CPT4_ROOT, GRANDCHILD, ROOT, SOURCE_OF_CHILD, SOURCE_OF_GRANDCHILD, SOURCE_OF_ROOT } from '../concept-sets/concept-set-fixture.js';

let work: string;
let dataDir: string;
const file = (name: string, text: string) => {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'omopterm-cs-cli-'));
  dataDir = join(work, 'data');
  await loadRelease({ sourceDir: writeAthenaFixture(CONCEPT_SET_FIXTURE), dataDir, label: '2025.2', makeDefault: true, replace: false, quiet: true });
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const expression = atlas([{ id: ROOT, desc: true, mapped: true }, { id: GRANDCHILD, ex: true }, { id: 77777 }, { id: CPT4_ROOT }]);
const expected = [ROOT, CHILD, SOURCE_OF_CHILD, SOURCE_OF_ROOT, SOURCE_OF_GRANDCHILD];

describe('omopterm concept-set resolve', () => {
  it('prints one id a line (exit 0) and reports unknown and licensed items on stderr', () => {
    const res = runCli(['concept-set', 'resolve', file('set.json', JSON.stringify(expression)), '--data-dir', dataDir]);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout.trim().split('\n').map(Number)).toEqual(expected);
    expect(res.stderr).toContain('item 2 (concept 77777) is not in release 2025.2');
    expect(res.stderr).toContain(`item 3 (concept ${CPT4_ROOT}) is of a licensed vocabulary`);
  }, 120_000);

  it('reads the ATLAS CSV export and the TAB draft; --format csv and json', () => {
    const csv = file(
      'set.csv',
      [
        '"Concept Set ID","Name","Concept ID","Concept Code","Concept Name","Domain","Vocabulary","Standard Concept","Exclude","Descendants","Mapped"',
        `"1","Diabetes","${ROOT}","x","Disorder","Condition","SNOMED","S","false","true","true"`,
        `"1","Diabetes","${GRANDCHILD}","y","T2DM","Condition","SNOMED","S","true","false","false"`,
      ].join('\n'),
    );
    const out = runCli(['concept-set', 'resolve', csv, '--data-dir', dataDir, '--format', 'csv', '--release', '2025.2']);
    expect(out.status, out.stderr).toBe(0);
    const lines = out.stdout.trim().split('\n');
    expect(lines[0]).toBe('concept_id,concept_code,concept_name,domain_id,vocabulary_id,concept_class_id,standard_concept,invalid_reason');
    expect(lines.slice(1).map((l) => Number(l.split(',')[0]))).toEqual(expected);
    const tab = file('tab.json', JSON.stringify({ id: 'dm', name: 'Diabetes', items: [{ concept: { conceptId: ROOT }, includeDescendants: true, includeMapped: true }, { concept: { conceptId: GRANDCHILD }, isExcluded: true }] }));
    const json = runCli(['concept-set', 'resolve', tab, '--data-dir', dataDir, '--format', 'json']);
    expect(json.status, json.stderr).toBe(0);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.name).toBe('Diabetes');
    expect(parsed.summary.total).toBe(expected.length);
    expect(parsed.concepts.map((c: { concept_id: number }) => c.concept_id)).toEqual(expected);
  }, 120_000);

  it('an invalid expression is exit 1 naming the item and field; a usage error is exit 1', () => {
    const bad = structuredClone(expression) as { items: Array<Record<string, unknown>> };
    bad.items[1]!.includeMapped = 'no';
    const res = runCli(['concept-set', 'resolve', file('bad.json', JSON.stringify(bad)), '--data-dir', dataDir]);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('expression.items[1].includeMapped');
    expect(res.stdout).toBe('');
    const format = runCli(['concept-set', 'resolve', file('ok.json', JSON.stringify(expression)), '--data-dir', dataDir, '--format', 'xml']);
    expect(format.status).toBe(1);
    expect(format.stderr).toContain("'xml'");
    const release = runCli(['concept-set', 'resolve', file('ok2.json', JSON.stringify(expression)), '--data-dir', dataDir, '--release', '2019.1']);
    expect(release.status).toBe(1);
    expect(release.stderr).toContain('release 2019.1 is not loaded');
    const missing = runCli(['concept-set', 'resolve', join(work, 'nope.json'), '--data-dir', dataDir]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('cannot read');
  }, 120_000);
});

describe('omopterm concept-set diff', () => {
  it('lists the concepts gained and lost between two releases with their reasons (exit 0); an unknown release is exit 1', async () => {
    // 2025.3: the fixture with the grandchild deprecated.
    const changed = structuredClone(CONCEPT_SET_FIXTURE);
    const grandchild = changed.concepts.find((c) => c.concept_id === GRANDCHILD)!;
    Object.assign(grandchild, { invalid_reason: 'D', standard_concept: null });
    await loadRelease({ sourceDir: writeAthenaFixture(changed), dataDir, label: '2025.3', makeDefault: false, replace: false, quiet: true });
    const set = file('diff.json', JSON.stringify(atlas([{ id: ROOT, desc: true }])));
    const res = runCli(['concept-set', 'diff', set, '--from', '2025.2', '--to', '2025.3', '--data-dir', dataDir]);
    expect(res.status, res.stderr).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines[0]).toBe('2025.2 → 2025.3: 3 → 2 concepts, +0 −1, 2 unchanged');
    expect(lines.slice(1).map((l) => l.split('\t')[0] + ' ' + l.split('\t')[3]!.split(':')[0])).toEqual([`- ${GRANDCHILD} deprecated`]);
    const json = runCli(['concept-set', 'diff', set, '--from', '2025.2', '--to', '2025.3', '--data-dir', dataDir, '--json']);
    expect(JSON.parse(json.stdout).lost.map((l: { concept: { concept_id: number } }) => l.concept.concept_id)).toEqual([GRANDCHILD]);
    const unknown = runCli(['concept-set', 'diff', set, '--from', '2025.2', '--to', '2031.1', '--data-dir', dataDir]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('release 2031.1 is not loaded');
    const usage = runCli(['concept-set', 'diff', set, '--from', '2025.2', '--data-dir', dataDir]);
    expect(usage.status).toBe(1);
    expect(usage.stderr).toContain('--to');
  }, 120_000);
});
