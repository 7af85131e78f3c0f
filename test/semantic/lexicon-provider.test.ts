/**
 * The built-in default embedding provider ("lexicon", src/search-model/semantic/lexicon/): a release's
 * lexicon built from rows, stored as bytes, decoded by a server, embedding and scoring texts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { LEXICON_PROVIDER_ID, cosine } from '../../src/search-model/semantic/embedding-provider.js';
import { ReleaseLexiconBuilder } from '../../src/search-model/semantic/lexicon/build-release-lexicon.js';
import { gloveVectorsFrom, quantizeUnitVector } from '../../src/search-model/semantic/lexicon/glove-vectors.js';
import { decodeLexicon, encodeLexicon } from '../../src/search-model/semantic/lexicon/lexicon-codec.js';
import { LEXICON_DIMENSION, createLexiconProvider } from '../../src/search-model/semantic/lexicon/lexicon-provider.js';

// A small release: the entries it indexes, and the name pairs (name ↔ synonym, `Maps to` ends) it carries.
const ENTRIES = [
  'Myocardial infarction',
  'Heart attack',
  'Acute myocardial infarction',
  'Old myocardial infarction',
  'Chronic kidney disease',
  'Chronic renal disease',
  'Fracture of femur',
  'Type 2 diabetes mellitus',
  'Migraine',
  'Asthma',
];
const PAIRS: Array<[string, string]> = [
  ['Myocardial infarction', 'Heart attack'],
  ['Acute myocardial infarction', 'Acute heart attack'],
  ['Old myocardial infarction', 'Healed heart attack'],
  ['Chronic kidney disease', 'Chronic renal disease'],
  ['Kidney failure', 'Renal failure'],
];
// Stand-in word vectors (4 dimensions): the provider must work with whatever vectors the lexicon holds.
const GLOVE_WORDS: Record<string, number[]> = {
  heart: [1, 0.2, 0, 0],
  myocardial: [0.9, 0.3, 0, 0],
  kidney: [0, 1, 0.1, 0],
  renal: [0, 0.9, 0.2, 0],
  fracture: [0, 0, 0, 1],
  zebra: [0.5, 0.5, 0.5, 0.5],
};

function fakeGlove() {
  const words = Object.keys(GLOVE_WORDS);
  const matrix = new Int8Array(words.length * 4);
  words.forEach((w, i) => quantizeUnitVector(GLOVE_WORDS[w]!, 4, matrix, i * 4));
  return gloveVectorsFrom(words, matrix, 4);
}

function buildLexicon(pairs = PAIRS) {
  const builder = new ReleaseLexiconBuilder();
  for (const t of ENTRIES) builder.addEntryText(t);
  for (const [a, b] of pairs) builder.addNamePair(a, b);
  return builder.finish({ glove: fakeGlove() });
}

const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

describe('release lexicon', () => {
  it('weighs a word by how rare it is among the entries (IDF)', () => {
    const lexicon = buildLexicon();
    // "infarction" is in 3 of 10 entries, "migraine" in 1, a word of no entry in none
    expect(lexicon.idf('infarction')).toBeLessThan(lexicon.idf('migraine'));
    expect(lexicon.idf('migraine')).toBeLessThan(lexicon.idf('nowhere'));
  });

  it('keeps the learned equivalents and the word vectors of the release\'s own words only', () => {
    const lexicon = buildLexicon();
    expect(lexicon.equivalentsOf('infarction').map((e) => e.word)).toContain('attack');
    expect(lexicon.equivalentsOf('kidney').map((e) => e.word)).toContain('renal');
    expect(lexicon.gloveOfIndex(lexicon.wordIndex('heart'))).not.toBeNull();
    // "zebra" has a vector but is no word of the release
    expect(lexicon.wordIndex('zebra')).toBe(-1);
  });
});

describe('default provider', () => {
  it(`is ${LEXICON_PROVIDER_ID} with ${LEXICON_DIMENSION} dimensions and unit-length vectors`, async () => {
    const provider = createLexiconProvider(buildLexicon());
    expect(provider.id).toBe(LEXICON_PROVIDER_ID);
    expect(provider.dimension).toBe(LEXICON_DIMENSION);
    const vectors = await provider.embed(['Heart attack', 'renal failure', 'zzqx', '', '-- / --']);
    for (const v of vectors) {
      expect(v).toHaveLength(LEXICON_DIMENSION);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
  });

  it('is deterministic: two providers decoded from the same stored bytes give identical vectors and scores', async () => {
    const bytes = encodeLexicon(buildLexicon());
    const first = createLexiconProvider(decodeLexicon(bytes));
    const second = createLexiconProvider(decodeLexicon(Uint8Array.from(bytes)));
    const texts = ['Heart attack', 'Chronic kidney disease', 'empagliflozin 10 MG', 'Sjögren\'s syndrome'];
    const [a, b] = [await first.embed(texts), await second.embed(texts)];
    for (let i = 0; i < texts.length; i++) expect(Array.from(a[i]!)).toEqual(Array.from(b[i]!));
    expect(first.similarity('heart attack', texts)).toEqual(second.similarity('heart attack', texts));
    // and one text embeds the same alone as in a batch
    expect(Array.from((await first.embed(['Heart attack']))[0]!)).toEqual(Array.from(a[0]!));
  });

  it('is deterministic across processes: another Node process decoding the same bytes embeds to the same vectors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omopterm-lexicon-'));
    try {
      const bytesFile = join(dir, 'lexicon.bin');
      writeFileSync(bytesFile, encodeLexicon(buildLexicon()));
      const texts = ['Heart attack', 'Chronic kidney disease', 'paracetamol 500mg tablet'];
      const script = `
        import { readFileSync } from 'node:fs';
        import { decodeLexicon } from './src/search-model/semantic/lexicon/lexicon-codec.ts';
        import { createLexiconProvider } from './src/search-model/semantic/lexicon/lexicon-provider.ts';
        const provider = createLexiconProvider(decodeLexicon(readFileSync(${JSON.stringify(bytesFile)})));
        const vectors = await provider.embed(${JSON.stringify(texts)});
        process.stdout.write(JSON.stringify(vectors.map((v) => Array.from(v))));`;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 });
      expect(child.stderr).toBe('');
      const here = await createLexiconProvider(decodeLexicon(encodeLexicon(buildLexicon()))).embed(texts);
      expect(JSON.parse(child.stdout)).toEqual(here.map((v) => Array.from(v)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('scores "heart attack" higher against "myocardial infarction" than against an unrelated name, once the release taught it', () => {
    const taught = createLexiconProvider(buildLexicon());
    const [mi, fracture, migraine] = taught.similarity('heart attack', ['Myocardial infarction', 'Fracture of femur', 'Migraine']);
    expect(mi).toBeGreaterThan(fracture!);
    expect(mi).toBeGreaterThan(migraine!);
    // without the pairs that teach attack↔infarction the two share no word: the learned part is what lifts it
    const untaught = createLexiconProvider(buildLexicon(PAIRS.filter(([a]) => !a.includes('infarction'))));
    const [miUntaught] = untaught.similarity('heart attack', ['Myocardial infarction']);
    expect(mi).toBeGreaterThan(miUntaught! + 0.1);
  });

  it('also brings kidney and renal together in the vectors the nearest-neighbour index uses', async () => {
    const provider = createLexiconProvider(buildLexicon());
    const [query, renal, fracture] = await provider.embed(['kidney disease', 'Chronic renal disease', 'Fracture of femur']);
    expect(cosine(query!, renal!)).toBeGreaterThan(cosine(query!, fracture!));
  });

  it('scores within 0..1, an identical text 1, and a text sharing nothing 0', () => {
    const provider = createLexiconProvider(buildLexicon());
    const scores = provider.similarity('Chronic kidney disease', ['Chronic kidney disease', 'chronic KIDNEY disease', 'Asthma', '', 'Renal failure']);
    for (const s of scores) {
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(1);
    }
    expect(scores[0]).toBeCloseTo(1, 6);
    expect(scores[1]).toBeCloseTo(1, 6);
    expect(scores[2]).toBe(0);
    expect(scores[3]).toBe(0);
  });

  it('embeds words no entry has (subword trigrams): a misspelling stays close to the word', () => {
    const provider = createLexiconProvider(buildLexicon());
    const [typo, other] = provider.similarity('diabetis melitus', ['Type 2 diabetes mellitus', 'Asthma']);
    expect(typo).toBeGreaterThan(0.3);
    expect(typo).toBeGreaterThan(other!);
  });

  it('has an id of its own when its part weights are not the defaults (ablations)', () => {
    const lexicon = buildLexicon();
    const withoutGlove = createLexiconProvider(lexicon, { weights: { glove: 0 } });
    expect(withoutGlove.id).not.toBe(LEXICON_PROVIDER_ID);
    expect(withoutGlove.id.startsWith(LEXICON_PROVIDER_ID)).toBe(true);
    expect(createLexiconProvider(lexicon, { weights: {} }).id).toBe(LEXICON_PROVIDER_ID);
  });
});
