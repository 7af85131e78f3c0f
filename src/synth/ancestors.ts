/**
 * CONCEPT_ANCESTOR: the transitive closure of the ancestry relationships among valid standard and classification
 * concepts (with a self row each), computed in one pass in concept index order, a topological order, each ancestor
 * list the merge of the parents' lists and written as it is computed.
 */
import { join } from 'node:path';
import type { ConceptTable } from './concept-table.js';
import { RELATIONSHIPS, REVERSE_REL } from './metadata.js';
import { TsvWriter } from './tsv-writer.js';
import { FILES } from './writers.js';

/** For each relationship index: the level increment when it is an upward (child → parent) ancestry link, else -1. */
export function upwardAncestryWeights(): Int8Array {
  const w = new Int8Array(RELATIONSHIPS.length).fill(-1);
  RELATIONSHIPS.forEach((r, k) => {
    const rev = RELATIONSHIPS[REVERSE_REL[k]!]!;
    if (rev.defines_ancestry === '1' && r.defines_ancestry !== '1') w[k] = rev.is_hierarchical === '1' ? 1 : 0;
  });
  return w;
}

export interface AncestorStats {
  rows: number;
  maxDepth: number;
  storedEntries: number;
}

export function writeAncestors(dir: string, t: ConceptTable, progress: (s: string) => void): AncestorStats {
  const w = new TsvWriter(join(dir, FILES.conceptAncestor), ['ancestor_concept_id', 'descendant_concept_id', 'min_levels_of_separation', 'max_levels_of_separation']);
  const stats = closure(t, w, progress);
  w.close();
  return stats;
}

/** Number of CONCEPT_ANCESTOR rows the table would produce (no output). */
export function countAncestors(t: ConceptTable): number {
  return closure(t, null, () => {}).rows;
}

function closure(t: ConceptTable, w: TsvWriter | null, progress: (s: string) => void): AncestorStats {
  const n = t.size;
  const up = upwardAncestryWeights();
  const downDefining = new Uint8Array(RELATIONSHIPS.length);
  RELATIONSHIPS.forEach((r, k) => (downDefining[k] = r.defines_ancestry === '1' ? 1 : 0));
  const { start, target, rel } = t.links;
  const eligible = new Uint8Array(n);
  for (let i = 0; i < n; i++) eligible[i] = t.inHierarchy(i) ? 1 : 0;

  // which concepts will be needed as parents
  const hasChild = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (!eligible[i]) continue;
    for (let k = start[i]!; k < start[i + 1]!; k++) {
      if (downDefining[rel[k]!]) throw new Error(`ancestry link stored on the ancestor side at concept ${t.id[i]}`);
      if (up[rel[k]!]! >= 0 && eligible[target[k]!]) hasChild[target[k]!] = 1;
    }
  }

  const offset = new Int32Array(n).fill(-1);
  const length = new Int32Array(n);
  let poolAnc = new Int32Array(1 << 22);
  let poolMin = new Uint8Array(1 << 22);
  let poolMax = new Uint8Array(1 << 22);
  let poolUsed = 0;
  const stamp = new Int32Array(n).fill(-1);
  const pos = new Int32Array(n);
  let tmpAnc = new Int32Array(4096);
  let tmpMin = new Uint8Array(4096);
  let tmpMax = new Uint8Array(4096);

  let maxDepth = 0;
  let rows = 0;
  for (let i = 0; i < n; i++) {
    if (!eligible[i]) continue;
    let cnt = 0;
    const put = (a: number, mn: number, mx: number): void => {
      if (stamp[a] === i) {
        const p = pos[a]!;
        if (mn < tmpMin[p]!) tmpMin[p] = mn;
        if (mx > tmpMax[p]!) tmpMax[p] = mx;
        return;
      }
      if (cnt === tmpAnc.length) {
        const a2 = new Int32Array(cnt * 2);
        a2.set(tmpAnc);
        tmpAnc = a2;
        const m2 = new Uint8Array(cnt * 2);
        m2.set(tmpMin);
        tmpMin = m2;
        const x2 = new Uint8Array(cnt * 2);
        x2.set(tmpMax);
        tmpMax = x2;
      }
      stamp[a] = i;
      pos[a] = cnt;
      tmpAnc[cnt] = a;
      tmpMin[cnt] = mn;
      tmpMax[cnt] = mx;
      cnt++;
    };
    put(i, 0, 0);
    for (let k = start[i]!; k < start[i + 1]!; k++) {
      const wgt = up[rel[k]!]!;
      const p = target[k]!;
      if (wgt < 0 || !eligible[p]) continue;
      const o = offset[p]!;
      const len = length[p]!;
      for (let e = 0; e < len; e++) {
        const mn = poolMin[o + e]! + wgt;
        const mx = poolMax[o + e]! + wgt;
        put(poolAnc[o + e]!, mn > 255 ? 255 : mn, mx > 255 ? 255 : mx);
      }
    }
    const did = t.id[i]!;
    rows += cnt;
    if (w) {
      for (let e = 0; e < cnt; e++) {
        w.line(`${t.id[tmpAnc[e]!]}\t${did}\t${tmpMin[e]}\t${tmpMax[e]}\n`);
        if (tmpMax[e]! > maxDepth) maxDepth = tmpMax[e]!;
      }
    }
    if (hasChild[i]) {
      if (poolUsed + cnt > poolAnc.length) {
        const size = Math.max(poolAnc.length * 2, poolUsed + cnt);
        const a2 = new Int32Array(size);
        a2.set(poolAnc.subarray(0, poolUsed));
        poolAnc = a2;
        const m2 = new Uint8Array(size);
        m2.set(poolMin.subarray(0, poolUsed));
        poolMin = m2;
        const x2 = new Uint8Array(size);
        x2.set(poolMax.subarray(0, poolUsed));
        poolMax = x2;
      }
      poolAnc.set(tmpAnc.subarray(0, cnt), poolUsed);
      poolMin.set(tmpMin.subarray(0, cnt), poolUsed);
      poolMax.set(tmpMax.subarray(0, cnt), poolUsed);
      offset[i] = poolUsed;
      length[i] = cnt;
      poolUsed += cnt;
    }
    if ((i & 0xfffff) === 0 && i) progress(`ancestors: concept ${i.toLocaleString('en-US')}/${n.toLocaleString('en-US')}, ${rows.toLocaleString('en-US')} rows`);
  }
  return { rows, maxDepth, storedEntries: poolUsed };
}
