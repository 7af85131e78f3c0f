/**
 * OMOP Genomic: genes, genomic variants (`Is a` gene), transcript variants (`Is transcribed from`
 * a genomic variant) and protein variants (`Is translated from` a transcript variant), named with
 * HGVS-like expressions. A few well-known genes carry most of the variants.
 */
import type { GenContext } from './context.js';
import { AMINO_ACIDS } from './lexicon.js';
import { relativeZipf, type Rng } from './random.js';
import { geneSymbols } from './words.js';

const BASES = 'ACGT';

export function buildGenomic(ctx: GenContext): void {
  const vocab = 'OMOP Genomic';
  const rng = ctx.rng(vocab);
  const t = ctx.table;
  const gp = ctx.classPlan(vocab, 'Gene');
  const symbols = geneSymbols(ctx.rng('gene-symbols'), gp.core);
  const genes: number[] = [];
  const chromosome: number[] = [];
  for (let k = 0; k < gp.core; k++) {
    genes.push(ctx.add(vocab, { cls: 'Gene', domain: 'Measurement', std: 'S', code: `HGNC:${1000 + k * 3 + rng.int(3)}`, name: symbols[k]!, p1: k, start: ctx.startDate(0.9) }));
    chromosome.push(1 + rng.int(23));
  }
  const genePool = ctx.setPool('OMOP Genomic/Gene', { start: genes[0]!, end: genes[genes.length - 1]! + 1 });
  ctx.addRetired(vocab, 'Gene', () => 'Measurement', gp.deprecated, gp.updated, genePool, () => `HGNC:${rng.range(90000, 99999)}`, (r, n) => `${n}P${r.range(1, 9)}`);

  const seen = new Set<string>();
  const unique = (make: () => string): string => {
    let c = make();
    while (seen.has(c)) c = make();
    seen.add(c);
    return c;
  };
  const snv = (r: Rng): [string, string] => {
    const ref = BASES[r.int(4)]!;
    let alt = BASES[r.int(4)]!;
    if (alt === ref) alt = BASES[(BASES.indexOf(ref) + 1) % 4]!;
    return [ref, alt];
  };

  // genomic variants
  const gv = ctx.classPlan(vocab, 'Genomic Variant');
  const gvList: number[] = [];
  const makeGenomic = (inv: 'D' | null): number => {
    const gk = relativeZipf(rng, genes.length, 0.002);
    const gene = genes[gk]!;
    const chr = chromosome[gk]!;
    const [ref, alt] = snv(rng);
    const pos = 1_000_000 + rng.int(240_000_000);
    const code = unique(() => `NC_0000${String(chr).padStart(2, '0')}.${10 + rng.int(5)}:g.${pos + rng.int(1000)}${ref}>${alt}`);
    const i = ctx.add(vocab, { cls: 'Genomic Variant', domain: 'Measurement', std: 'S', invalid: inv, code, name: `${t.name(gene)} ${code.slice(code.indexOf(':') + 1)}`, p1: gk, start: ctx.startDate(0.9) });
    if (!inv) ctx.link(i, gene, 'Is a');
    return i;
  };
  for (let k = 0; k < gv.core; k++) gvList.push(makeGenomic(null));
  for (let k = 0; k < gv.deprecated + gv.updated; k++) makeGenomic('D');

  // transcript variants
  const tv = ctx.classPlan(vocab, 'Transcript Variant');
  const tvList: number[] = [];
  const makeTranscript = (inv: 'D' | null): number => {
    const parent = gvList[relativeZipf(rng, gvList.length, 0.02)]!;
    const gk = t.p1[parent]!;
    const [ref, alt] = snv(rng);
    const code = unique(() => `NM_${String(100 + gk * 7 + rng.int(7)).padStart(6, '0')}.${1 + rng.int(6)}:c.${1 + rng.int(6000)}${ref}>${alt}`);
    const i = ctx.add(vocab, { cls: 'Transcript Variant', domain: 'Measurement', std: 'S', invalid: inv, code, name: `${t.name(genes[gk]!)} ${code.slice(code.indexOf(':') + 1)}`, p1: gk, start: ctx.startDate(0.9) });
    if (!inv) ctx.link(i, parent, 'Is transcribed from');
    return i;
  };
  for (let k = 0; k < tv.core; k++) tvList.push(makeTranscript(null));
  for (let k = 0; k < tv.deprecated + tv.updated; k++) makeTranscript('D');

  // protein variants
  const pv = ctx.classPlan(vocab, 'Protein Variant');
  const makeProtein = (inv: 'D' | null): number => {
    const parent = tvList[relativeZipf(rng, tvList.length, 0.02)]!;
    const gk = t.p1[parent]!;
    const from = AMINO_ACIDS[rng.int(AMINO_ACIDS.length)]!;
    let to = AMINO_ACIDS[rng.int(AMINO_ACIDS.length)]!;
    if (to === from) to = rng.chance(0.5) ? 'Ter' : 'fs';
    const code = unique(() => `NP_${String(100 + gk * 7 + rng.int(7)).padStart(6, '0')}.${1 + rng.int(4)}:p.${from}${1 + rng.int(2000)}${to}`);
    const i = ctx.add(vocab, { cls: 'Protein Variant', domain: 'Measurement', std: 'S', invalid: inv, code, name: `${t.name(genes[gk]!)} ${code.slice(code.indexOf(':') + 1)}`, p1: gk, start: ctx.startDate(0.9) });
    if (!inv) ctx.link(i, parent, 'Is translated from');
    return i;
  };
  for (let k = 0; k < pv.core; k++) makeProtein(null);
  for (let k = 0; k < pv.deprecated + pv.updated; k++) makeProtein('D');
}
