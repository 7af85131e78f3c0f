/**
 * Shape statistics of a generated (or real) Athena directory, straight from the files:
 * `npx tsx bench/tools/synth-stats.ts DIR [--closure]`. Used to calibrate the generator.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { FULL_RELEASE, FULL_VOCABULARY_COUNTS, PER_CONCEPT } from '../../src/synth/shape.js';

async function* rows(file: string): AsyncGenerator<string[]> {
  const rl = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let first = true;
  for await (const line of rl) {
    if (first) {
      first = false;
      continue;
    }
    yield line.split('\t');
  }
}

function pct(a: number, b: number): string {
  return `${((100 * a) / b).toFixed(1)}%`;
}

async function main(): Promise<void> {
  const dir = process.argv[2]!;
  const vocabOf = new Map<number, string>();
  const clsOf = new Map<number, string>();
  const stdOf = new Map<number, string>();
  const byVocab = new Map<string, number>();
  const byClass = new Map<string, number>();
  const stdMix = new Map<string, number>();
  const lengths: number[] = [];
  const words = new Map<string, number>();
  const names = new Map<string, number>();
  let n = 0;
  for await (const r of rows(join(dir, 'CONCEPT.csv'))) {
    const id = Number(r[0]);
    n++;
    vocabOf.set(id, r[3]!);
    clsOf.set(id, r[4]!);
    stdOf.set(id, r[5]! + (r[9] ? `/${r[9]}` : ''));
    byVocab.set(r[3]!, (byVocab.get(r[3]!) ?? 0) + 1);
    byClass.set(`${r[3]}/${r[4]}`, (byClass.get(`${r[3]}/${r[4]}`) ?? 0) + 1);
    const s = r[5] || (r[9] ? 'inv' : 'non-std');
    stdMix.set(s, (stdMix.get(s) ?? 0) + 1);
    lengths.push(r[1]!.length);
    names.set(`${r[3]}|${r[1]}`, (names.get(`${r[3]}|${r[1]}`) ?? 0) + 1);
    const seen = new Set(r[1]!.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1));
    for (const w of seen) words.set(w, (words.get(w) ?? 0) + 1);
  }
  lengths.sort((a, b) => a - b);
  console.log(`concepts ${n}`);
  console.log(`name length: p10 ${lengths[Math.floor(n * 0.1)]} median ${lengths[Math.floor(n / 2)]} p90 ${lengths[Math.floor(n * 0.9)]} p99 ${lengths[Math.floor(n * 0.99)]} max ${lengths[n - 1]}`);
  let dups = 0;
  for (const c of names.values()) if (c > 1) dups += c - 1;
  console.log(`duplicate names within vocabulary: ${dups} (${pct(dups, n)})`);
  const top = [...words.entries()].sort((a, b) => b[1] - a[1]);
  console.log(`distinct words ${top.length}; top: ${top.slice(0, 25).map(([w, c]) => `${w}:${c}`).join(' ')}`);
  for (const w of ['disorder', 'tablet', 'oral', 'serum', 'plasma', 'chronic', 'acute', 'of', 'mg', 'box', 'glucose', 'fracture', 'myocardial']) console.log(`  df(${w}) = ${words.get(w) ?? 0} (${pct(words.get(w) ?? 0, n)})`);
  const dfBuckets = [1, 2, 5, 10, 100, 1000, 10000, 100000];
  console.log(`  words by df: ${dfBuckets.map((b, i) => `${i ? dfBuckets[i - 1]! + 1 : 1}-${b}: ${top.filter(([, c]) => c <= b && (i === 0 || c > dfBuckets[i - 1]!)).length}`).join(', ')}`);
  console.log('standard mix:', Object.fromEntries([...stdMix].map(([k, v]) => [k, pct(v, n)])));
  console.log('vocabulary mix (got share vs full share):');
  for (const [v, full] of Object.entries(FULL_VOCABULARY_COUNTS)) {
    const got = byVocab.get(v) ?? 0;
    console.log(`  ${v.padEnd(18)} ${String(got).padStart(9)}  ${pct(got, n).padStart(6)} vs ${pct(full, FULL_RELEASE.concepts).padStart(6)}  ratio ${((got / n) / (full / FULL_RELEASE.concepts)).toFixed(3)}`);
  }
  for (const [v, c] of byVocab) if (!(v in FULL_VOCABULARY_COUNTS)) console.log(`  (${v} ${c})`);

  // relationships
  const relCount = new Map<string, number>();
  const pairs = new Set<string>();
  let rels = 0;
  const relPerVocab = new Map<string, number>();
  for await (const r of rows(join(dir, 'CONCEPT_RELATIONSHIP.csv'))) {
    rels++;
    relCount.set(r[2]!, (relCount.get(r[2]!) ?? 0) + 1);
    const v = vocabOf.get(Number(r[0])) ?? '?';
    relPerVocab.set(v, (relPerVocab.get(v) ?? 0) + 1);
    if (n <= 200_000) pairs.add(`${r[0]}|${r[2]}|${r[1]}`);
  }
  console.log(`relationships ${rels} = ${(rels / n).toFixed(3)}/concept (target ${PER_CONCEPT.conceptRelationships.toFixed(3)}) ratio ${(rels / n / PER_CONCEPT.conceptRelationships).toFixed(3)}`);
  console.log('  top types:', [...relCount].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([k, v]) => `${k}:${v}`).join(', '));
  console.log('  rows per concept by vocab of concept_id_1:', [...relPerVocab].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}:${(v / (byVocab.get(k) ?? 1)).toFixed(2)}`).join(', '));
  if (pairs.size) {
    // reverse check
    const rev = new Map<string, string>();
    for await (const r of rows(join(dir, 'RELATIONSHIP.csv'))) rev.set(r[0]!, r[4]!);
    let missing = 0;
    for (const p of pairs) {
      const [a, rel, b] = p.split('|');
      if (!pairs.has(`${b}|${rev.get(rel!)}|${a}`)) missing++;
    }
    console.log(`  rows without reverse: ${missing}; duplicate rows: ${rels - pairs.size}`);
  }

  let anc = 0;
  const ancPerVocab = new Map<string, number>();
  let maxLevel = 0;
  for await (const r of rows(join(dir, 'CONCEPT_ANCESTOR.csv'))) {
    anc++;
    const v = vocabOf.get(Number(r[1])) ?? '?';
    ancPerVocab.set(v, (ancPerVocab.get(v) ?? 0) + 1);
    maxLevel = Math.max(maxLevel, Number(r[3]));
  }
  console.log(`ancestors ${anc} = ${(anc / n).toFixed(3)}/concept (target ${PER_CONCEPT.conceptAncestors.toFixed(3)}) ratio ${(anc / n / PER_CONCEPT.conceptAncestors).toFixed(3)}; max level ${maxLevel}`);
  console.log('  rows per concept by vocab of descendant:', [...ancPerVocab].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}:${v}(${(v / (byVocab.get(k) ?? 1)).toFixed(2)})`).join(', '));
  let syn = 0;
  for await (const _r of rows(join(dir, 'CONCEPT_SYNONYM.csv'))) syn++;
  console.log(`synonyms ${syn} = ${(syn / n).toFixed(3)}/concept (target ${PER_CONCEPT.conceptSynonyms.toFixed(3)}) ratio ${(syn / n / PER_CONCEPT.conceptSynonyms).toFixed(3)}`);
  let ds = 0;
  const dsByClass = new Map<string, number>();
  for await (const r of rows(join(dir, 'DRUG_STRENGTH.csv'))) {
    ds++;
    const c = clsOf.get(Number(r[0])) ?? '?';
    dsByClass.set(c, (dsByClass.get(c) ?? 0) + 1);
  }
  console.log(`drug_strength ${ds} = ${(ds / n).toFixed(3)}/concept (target ${PER_CONCEPT.drugStrengths.toFixed(3)}) ratio ${(ds / n / PER_CONCEPT.drugStrengths).toFixed(3)}`);
  console.log('  by class:', [...dsByClass].map(([k, v]) => `${k}:${v}`).join(', '));
  if (process.argv.includes('--classes')) for (const [k, v] of [...byClass].sort()) console.log(`  ${k}: ${v}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
