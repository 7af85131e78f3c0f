/**
 * CodeSystem/$diff over HTTPS (OMOPHub extension, issue #14: "what changed for a code, or for a
 * vocabulary, between two loaded releases"): for one code, and as a paged walk over a whole code
 * system. Two small releases (./codesystem-diff-fixture.ts), 2024.2 (20240716) and 2025.2 (20250827,
 * the default), with concepts of each change type. Unknown release → 404 not-found (Errors rule 2: an
 * OperationOutcome on /fhir); CPT4 only for a validated key (Authentication 5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { AFTER_CONCEPTS, BEFORE_CONCEPTS, cpt, diffReleases } from './codesystem-diff-fixture.js';
import { CPT, ICD10CM, OMOP, SNOMED } from './codesystem-fixture.js';

let t: TestServer;
let validatedKey: string;
beforeAll(async () => {
  t = await startTestServer({ releases: diffReleases() });
  validatedKey = await t.createKey({ cpt4_validated_until: '2999-12-31' });
});
afterAll(async () => {
  await t?.close();
});

const diff = (query: string, options: { version?: string; key?: string } = {}) =>
  t.request(`/fhir/${options.version ?? 'r4'}/CodeSystem/$diff?${query}`, { key: options.key });

interface Parameter {
  name: string;
  valueString?: string;
  valueCode?: string;
  valueInteger?: number;
  part?: Parameter[];
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const changes = (body: any) =>
  (body.parameter as Parameter[])
    .filter((p) => p.name === 'change')
    .map((p) => Object.fromEntries(p.part!.map((q) => [q.name, q.valueCode ?? q.valueString])));
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const countOf = (body: any, type: string) =>
  (body.parameter as Parameter[]).find((p) => p.name === 'count' && p.part!.some((q) => q.valueCode === type))!.part!.find((q) => q.name === 'value')!.valueInteger;

describe('CodeSystem/$diff for one code (default: the release before the selected one → the selected one)', () => {
  it('names the compared releases and reports each change type with its old and new value', async () => {
    const cases: Array<[string, Record<string, string>]> = [
      ['1001', { code: '1001', display: 'Name after', type: 'renamed', from: 'Name before', to: 'Name after' }],
      ['1002', { code: '1002', display: 'Moves domain', type: 're-domained', from: 'Condition', to: 'Observation' }],
      ['1003', { code: '1003', display: 'Goes away', type: 'deprecated', from: 'valid', to: 'D' }],
      ['1004', { code: '1004', display: 'Comes back', type: 'reinstated', from: 'D', to: 'valid' }],
      ['1005', { code: '1005', display: 'Source code', type: 'remapped', from: '1001', to: '1002' }],
      ['1007', { code: '1007', display: 'New concept', type: 'added', from: '', to: 'New concept' }],
    ];
    for (const [code, expected] of cases) {
      const r = await diff(`system=${encodeURIComponent(OMOP)}&code=${code}`);
      expect(r.status, code).toBe(200);
      const body = r.body;
      expect(body.resourceType).toBe('Parameters');
      expect(body.parameter.find((p: Parameter) => p.name === 'fromVersion').valueString).toBe('2024.2');
      expect(body.parameter.find((p: Parameter) => p.name === 'toVersion').valueString).toBe('2025.2');
      expect(changes(body), code).toEqual([expected]);
      expect(countOf(body, expected.type!)).toBe(1);
    }
  });

  it('an unchanged concept has no change and every count is 0', async () => {
    const body = (await diff(`system=${encodeURIComponent(OMOP)}&code=1006`)).body;
    expect(changes(body)).toEqual([]);
    for (const type of ['added', 'deprecated', 'reinstated', 'renamed', 're-domained', 'remapped']) expect(countOf(body, type)).toBe(0);
  });

  it('a vocabulary URI takes the concept_code; fromVersion/toVersion accept labels, omop-v ids and YYYYMMDD dates (reversed order too)', async () => {
    const bySnomed = (await diff(`system=${encodeURIComponent(SNOMED)}&code=R1&fromVersion=omop-v20240716&toVersion=20250827`)).body;
    expect(changes(bySnomed)).toEqual([{ code: 'R1', display: 'Name after', type: 'renamed', from: 'Name before', to: 'Name after' }]);
    const reversed = (await diff(`system=${encodeURIComponent(OMOP)}&code=1007&fromVersion=2025.2&toVersion=2024.2`)).body;
    expect(changes(reversed)).toEqual([{ code: '1007', display: 'New concept', type: 'deprecated', from: 'valid', to: '' }]);
    const bySource = (await diff(`system=${encodeURIComponent(ICD10CM)}&code=E1`)).body;
    expect(changes(bySource)[0]).toMatchObject({ type: 'remapped', from: '1001', to: '1002' });
  });

  it('POST with a Parameters body, on r5, gives the same answer', async () => {
    const r = await t.request('/fhir/r5/CodeSystem/$diff', {
      method: 'POST',
      body: {
        resourceType: 'Parameters',
        parameter: [
          { name: 'system', valueUri: OMOP },
          { name: 'code', valueCode: '1002' },
          { name: 'fromVersion', valueString: '2024.2' },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(changes(r.body)).toEqual([{ code: '1002', display: 'Moves domain', type: 're-domained', from: 'Condition', to: 'Observation' }]);
  });
});

describe('CodeSystem/$diff errors', () => {
  it('an unknown release is 404 not-found naming the parameter (Errors rule 2), on r4 and r5', async () => {
    for (const version of ['r4', 'r5']) {
      const r = await diff(`system=${encodeURIComponent(OMOP)}&code=1001&fromVersion=1999.1`, { version });
      expect(r.status).toBe(404);
      const body = r.body;
      expect(body.resourceType).toBe('OperationOutcome');
      expect(body.issue[0].code).toBe('not-found');
      expect(body.issue[0].details.text).toContain('fromVersion');
    }
  });

  it('a code in neither release is 404; a missing system or an empty code is 400 naming it', async () => {
    expect((await diff(`system=${encodeURIComponent(OMOP)}&code=424242`)).status).toBe(404);
    const emptyCode = await diff(`system=${encodeURIComponent(OMOP)}&code=`);
    expect(emptyCode.status).toBe(400);
    expect(emptyCode.body.issue[0].details.text).toContain("'code'");
    const noSystem = await diff('code=1001');
    expect(noSystem.status).toBe(400);
    expect(noSystem.body.issue[0].details.text).toContain("'system'");
  });

  it('CPT4 needs a validated key (Authentication 5)', async () => {
    expect((await diff(`system=${encodeURIComponent(CPT)}&code=99213`)).status).toBe(403);
    const validated = await diff(`system=${encodeURIComponent(CPT)}&code=99213`, { key: validatedKey });
    expect(validated.status).toBe(200);
    expect(changes(validated.body)).toEqual([]);
  });

  it('a remap to a CPT4 target lists that target only for a validated key (Authentication 5)', async () => {
    const query = `system=${encodeURIComponent(ICD10CM)}&code=E1`;
    expect(changes((await diff(query)).body)[0]).toMatchObject({ type: 'remapped', from: '1001', to: '1002' });
    expect(changes((await diff(query, { key: validatedKey })).body)[0]).toMatchObject({ type: 'remapped', from: '1001', to: `1002 ${cpt.concept_id}` });
  });
});

type Change = Record<string, string | undefined>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const nextOf = (body: any): string | undefined => (body.parameter as Parameter[]).find((p) => p.name === 'next')?.valueString;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const countsOf = (body: any): Record<string, number> =>
  Object.fromEntries(
    (body.parameter as Parameter[])
      .filter((p) => p.name === 'count')
      .map((p) => [p.part!.find((q) => q.name === 'type')!.valueCode, p.part!.find((q) => q.name === 'value')!.valueInteger]),
  );
const tally = (list: Change[]) => {
  const out: Record<string, number> = { added: 0, deprecated: 0, reinstated: 0, renamed: 0, 're-domained': 0, remapped: 0 };
  for (const c of list) out[c.type!]!++;
  return out;
};
const byKey = (a: Change, b: Change) => JSON.stringify(a).localeCompare(JSON.stringify(b));

/** Every page of a whole-system diff, following `next`; each page holds at most `count` changes. */
async function walkAll(query: string, count: number, key?: string): Promise<{ changes: Change[]; counts: Record<string, number>; pages: number }> {
  const all: Change[] = [];
  let cursor: string | undefined;
  let pages = 0;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let body: any;
  do {
    const r = await diff(`${query}&count=${count}${cursor === undefined ? '' : `&cursor=${cursor}`}`, { key });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    body = r.body;
    const page = changes(body);
    expect(page.length).toBeLessThanOrEqual(count);
    all.push(...page);
    cursor = nextOf(body);
    expect(++pages).toBeLessThan(100);
  } while (cursor !== undefined);
  return { changes: all, counts: countsOf(body), pages };
}

/** The union of the one-code diffs (through the API) of these codes. */
async function oneCodeDiffs(system: string, codes: string[], key?: string): Promise<Change[]> {
  const out: Change[] = [];
  for (const code of codes) {
    const r = await diff(`system=${encodeURIComponent(system)}&code=${encodeURIComponent(code)}`, { key });
    expect(r.status, code).toBe(200);
    out.push(...changes(r.body));
  }
  return out;
}

const fixtureConcepts = [...BEFORE_CONCEPTS, ...AFTER_CONCEPTS];
const codesOf = (vocabularyIds: string[]) => [...new Set(fixtureConcepts.filter((c) => vocabularyIds.includes(c.vocabulary_id!)).map((c) => c.concept_code!))];
const idsOf = (vocabularyIds: string[]) => [...new Set(fixtureConcepts.filter((c) => vocabularyIds.includes(c.vocabulary_id!)).map((c) => String(c.concept_id)))];
const utf8Order = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('CodeSystem/$diff over a whole code system (issue #14: "what changed … for a vocabulary")', () => {
  it('every page of a vocabulary system, followed by `next`, gives the one-code diffs of all its codes in UTF-8 code order; the last page counts the totals', async () => {
    const expected = await oneCodeDiffs(SNOMED, codesOf(['SNOMED']));
    // The fixture's changes: renamed, re-domained, deprecated, reinstated, added, M1's three, Ｚ1 added.
    expect(expected).toHaveLength(9);
    for (const count of [1, 2, 100]) {
      const walked = await walkAll(`system=${encodeURIComponent(SNOMED)}`, count);
      expect([...walked.changes].sort(byKey), `count=${count}`).toEqual([...expected].sort(byKey));
      const codes = walked.changes.map((c) => c.code!);
      expect(codes, `count=${count}`).toEqual([...codes].sort(utf8Order));
      expect(walked.counts, `count=${count}`).toEqual(tally(expected));
      if (count === 1) expect(walked.pages).toBeGreaterThanOrEqual(expected.length);
    }
    // 'Ｚ1' (added) sorts before '😀1' in UTF-8 and after it in UTF-16: the merge pairs '😀1' with itself (no change).
    expect(expected.filter((c) => c.code === '😀1')).toEqual([]);
    expect(expected.filter((c) => c.code === 'Ｚ1')).toEqual([{ code: 'Ｚ1', display: 'Fullwidth letter', type: 'added', from: '', to: 'Fullwidth letter' }]);
  });

  it('a code with more changes than `count` is split across pages without losing or repeating any', async () => {
    const walked = await walkAll(`system=${encodeURIComponent(SNOMED)}`, 1);
    expect(walked.changes.filter((c) => c.code === 'M1').map((c) => c.type)).toEqual(['deprecated', 'renamed', 're-domained']);
  });

  it('the OMOP system walks concept_ids; a key without CPT4 validation sees no CPT4 concept nor CPT4 remap target (Authentication 5)', async () => {
    const visible = idsOf(['SNOMED', 'ICD10CM', 'LOINC']);
    const expected = await oneCodeDiffs(OMOP, visible);
    const walked = await walkAll(`system=${encodeURIComponent(OMOP)}`, 2);
    expect([...walked.changes].sort(byKey)).toEqual([...expected].sort(byKey));
    expect(walked.changes.map((c) => Number(c.code))).toEqual(walked.changes.map((c) => Number(c.code)).sort((a, b) => a - b));
    expect(walked.changes.some((c) => c.code === '1012' || c.code === String(cpt.concept_id))).toBe(false);
    expect(walked.changes.find((c) => c.code === '1005')).toMatchObject({ type: 'remapped', from: '1001', to: '1002' });
    expect(walked.counts).toEqual(tally(expected));

    const withCpt = await walkAll(`system=${encodeURIComponent(OMOP)}`, 100, validatedKey);
    const expectedWithCpt = await oneCodeDiffs(OMOP, idsOf(['SNOMED', 'ICD10CM', 'LOINC', 'CPT4']), validatedKey);
    expect([...withCpt.changes].sort(byKey)).toEqual([...expectedWithCpt].sort(byKey));
    expect(withCpt.changes.find((c) => c.code === '1012')).toMatchObject({ type: 'renamed', from: 'Procedure before', to: 'Procedure after' });
    expect(withCpt.changes.find((c) => c.code === '1005')).toMatchObject({ type: 'remapped', to: `1002 ${cpt.concept_id}` });
  });

  it('the CPT4 system is 403 without a validated key, and walks with one', async () => {
    const refused = await diff(`system=${encodeURIComponent(CPT)}`);
    expect(refused.status).toBe(403);
    expect(refused.body.resourceType).toBe('OperationOutcome');
    const walked = await walkAll(`system=${encodeURIComponent(CPT)}`, 10, validatedKey);
    expect(walked.changes).toEqual([{ code: '99214', display: 'Procedure after', type: 'renamed', from: 'Procedure before', to: 'Procedure after' }]);
  });

  it('`type` keeps only the change types asked for (repeatable or comma-separated); count parts only for them', async () => {
    const remapped = await walkAll(`system=${encodeURIComponent(OMOP)}&type=remapped`, 100);
    expect(remapped.changes).toEqual([{ code: '1005', display: 'Source code', type: 'remapped', from: '1001', to: '1002' }]);
    expect(remapped.counts).toEqual({ remapped: 1 });
    const all = await walkAll(`system=${encodeURIComponent(SNOMED)}`, 100);
    for (const query of ['type=renamed,added', 'type=renamed&type=added', 'type=added&type=renamed']) {
      const some = await walkAll(`system=${encodeURIComponent(SNOMED)}&${query}`, 100);
      expect(some.changes, query).toEqual(all.changes.filter((c) => c.type === 'renamed' || c.type === 'added'));
      expect(some.counts, query).toEqual({ added: 2, renamed: 2 });
    }
  });

  it('a release compared with itself has no change, on one page with `scanned` codes and no `next`', async () => {
    const r = await diff(`system=${encodeURIComponent(SNOMED)}&fromVersion=2025.2&toVersion=2025.2`);
    expect(r.status).toBe(200);
    expect(changes(r.body)).toEqual([]);
    expect(nextOf(r.body)).toBeUndefined();
    expect(Object.values(countsOf(r.body))).toEqual([0, 0, 0, 0, 0, 0]);
    const snomedAfter = AFTER_CONCEPTS.filter((c) => c.vocabulary_id === 'SNOMED').length;
    expect((r.body.parameter as Parameter[]).find((p) => p.name === 'scanned')!.valueInteger).toBe(snomedAfter);
  });

  it('POST with a Parameters body (cursor included) walks like GET', async () => {
    const viaGet = await walkAll(`system=${encodeURIComponent(SNOMED)}`, 3);
    const viaPost: Change[] = [];
    let cursor: string | undefined;
    do {
      const r = await t.request('/fhir/r5/CodeSystem/$diff', {
        method: 'POST',
        body: {
          resourceType: 'Parameters',
          parameter: [
            { name: 'system', valueUri: SNOMED },
            { name: 'count', valueInteger: 3 },
            { name: 'fromVersion', valueString: '2024.2' },
            ...(cursor === undefined ? [] : [{ name: 'cursor', valueString: cursor }]),
          ],
        },
      });
      expect(r.status).toBe(200);
      viaPost.push(...changes(r.body));
      cursor = nextOf(r.body);
    } while (cursor !== undefined);
    expect(viaPost).toEqual(viaGet.changes);
  });
});

describe('CodeSystem/$diff over a whole code system: errors (400 naming the parameter)', () => {
  const expect400 = async (query: string, parameter: string) => {
    const r = await diff(query);
    expect(r.status, query).toBe(400);
    expect(r.body.resourceType).toBe('OperationOutcome');
    expect(r.body.issue[0].details.text, query).toContain(`'${parameter}'`);
  };
  const snomed = `system=${encodeURIComponent(SNOMED)}`;

  it('`count` outside 1–1000 or not an integer; an unknown `type`', async () => {
    for (const count of ['0', '1001', '-1', 'ten', '2.5']) await expect400(`${snomed}&count=${count}`, 'count');
    await expect400(`${snomed}&type=remapped,moved`, 'type');
    await expect400(`${snomed}&type=`, 'type');
  });

  it('a cursor that does not decode, or one of another system, release pair or type list', async () => {
    for (const garbage of ['garbage', 'e30', '!!!', Buffer.from('{"l":0}').toString('base64url')]) await expect400(`${snomed}&cursor=${garbage}`, 'cursor');
    const first = await diff(`${snomed}&count=1`);
    const cursor = nextOf(first.body)!;
    expect(cursor).toBeDefined();
    expect((await diff(`${snomed}&count=1&cursor=${cursor}`)).status).toBe(200);
    await expect400(`${snomed}&count=1&cursor=${cursor}&toVersion=2024.2&fromVersion=2025.2`, 'cursor');
    await expect400(`${snomed}&count=1&cursor=${cursor}&fromVersion=2025.2`, 'cursor');
    await expect400(`system=${encodeURIComponent(ICD10CM)}&count=1&cursor=${cursor}`, 'cursor');
    await expect400(`${snomed}&count=1&cursor=${cursor}&type=added`, 'cursor');
  });

  it('`cursor` and `count` page the whole system: with `code` they are refused', async () => {
    await expect400(`${snomed}&code=R1&count=5`, 'count');
    const cursor = nextOf((await diff(`${snomed}&count=1`)).body)!;
    await expect400(`${snomed}&code=R1&cursor=${cursor}`, 'cursor');
  });
});
