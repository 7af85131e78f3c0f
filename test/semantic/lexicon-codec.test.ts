/** A release lexicon as the bytes stored with its vectors (src/search-model/semantic/lexicon/lexicon-codec.ts). */
import { describe, expect, it } from 'vitest';
import { ReleaseLexiconBuilder } from '../../src/search-model/semantic/lexicon/build-release-lexicon.js';
import { gloveVectorsFrom } from '../../src/search-model/semantic/lexicon/glove-vectors.js';
import { LEXICON_FORMAT_VERSION, decodeLexicon, encodeLexicon } from '../../src/search-model/semantic/lexicon/lexicon-codec.js';

function sampleLexicon(withGlove: boolean) {
  const builder = new ReleaseLexiconBuilder();
  for (const t of ['Kidney failure', 'Chronic renal disease', 'Sjögren\'s syndrome', 'Tumor of lung']) builder.addEntryText(t);
  builder.addNamePair('Kidney failure', 'Renal failure');
  builder.addNamePair('Cyst of kidney', 'Renal cyst');
  builder.addNamePair('Neoplasm of lung', 'Tumor of lung');
  const glove = gloveVectorsFrom(['kidney', 'lung'], Int8Array.from([127, 0, 0, 0, 127, 0]), 3);
  return builder.finish({ glove: withGlove ? glove : null });
}

describe('lexicon codec', () => {
  for (const withGlove of [true, false]) {
    it(`round-trips every field${withGlove ? '' : ' (built without word vectors)'}`, () => {
      const lexicon = sampleLexicon(withGlove);
      const decoded = decodeLexicon(encodeLexicon(lexicon));
      const [a, b] = [lexicon.data, decoded.data];
      expect(b.documentCount).toBe(a.documentCount);
      expect(b.words).toEqual(a.words);
      expect(Array.from(b.documentFrequency)).toEqual(Array.from(a.documentFrequency));
      expect(Array.from(b.equivalentOffsets)).toEqual(Array.from(a.equivalentOffsets));
      expect(Array.from(b.equivalentWords)).toEqual(Array.from(a.equivalentWords));
      expect(Array.from(b.equivalentStrengths)).toEqual(Array.from(a.equivalentStrengths));
      expect(b.gloveDimension).toBe(a.gloveDimension);
      expect(Array.from(b.gloveRows)).toEqual(Array.from(a.gloveRows));
      expect(Array.from(b.gloveVectors)).toEqual(Array.from(a.gloveVectors));
      expect(decoded.equivalentsOf('kidney')).toEqual(lexicon.equivalentsOf('kidney'));
      expect(decoded.idf('sjogren')).toBe(lexicon.idf('sjogren'));
    });
  }

  it('decodes from a view at an odd byte offset (as a database BLOB may hand it over)', () => {
    const bytes = encodeLexicon(sampleLexicon(true));
    const padded = new Uint8Array(bytes.length + 1);
    padded.set(bytes, 1);
    expect(decodeLexicon(padded.subarray(1)).data.words).toEqual(sampleLexicon(true).data.words);
  });

  it('refuses another format version and says to embed the release again', () => {
    const bytes = encodeLexicon(sampleLexicon(true));
    const versionAt = 'omopterm-lexicon\n'.length;
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(versionAt, LEXICON_FORMAT_VERSION + 1, true);
    expect(() => decodeLexicon(bytes)).toThrow(/format version 2.*embed the release again/);
  });

  it('refuses bytes that are not a lexicon, and a truncated one', () => {
    expect(() => decodeLexicon(new TextEncoder().encode('something else entirely'))).toThrow(/not an omopterm lexicon.*embed the release again/);
    const bytes = encodeLexicon(sampleLexicon(true));
    expect(() => decodeLexicon(bytes.subarray(0, bytes.length - 8))).toThrow(/truncated.*embed the release again/);
  });
});
