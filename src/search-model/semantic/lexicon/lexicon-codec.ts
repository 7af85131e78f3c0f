/**
 * A release lexicon as bytes (magic, format version, JSON header, then 4-byte-aligned typed-array sections),
 * stored with the release's vectors as the provider state; another format version is refused with the remedy.
 */

import { ReleaseLexicon, type ReleaseLexiconData } from './release-lexicon.js';

export const LEXICON_FORMAT_VERSION = 1;
const MAGIC = 'omopterm-lexicon\n';

interface LexiconHeader {
  documentCount: number;
  wordCount: number;
  wordBytes: number;
  equivalentCount: number;
  gloveDimension: number;
  gloveCount: number;
}

const align4 = (n: number): number => (n + 3) & ~3;

export function encodeLexicon(lexicon: ReleaseLexicon): Uint8Array {
  const d = lexicon.data;
  const wordBytes = Buffer.from(d.words.join('\n'), 'utf8');
  const gloveCount = d.gloveDimension > 0 ? d.gloveVectors.length / d.gloveDimension : 0;
  const header: LexiconHeader = {
    documentCount: d.documentCount,
    wordCount: d.words.length,
    wordBytes: wordBytes.length,
    equivalentCount: d.equivalentWords.length,
    gloveDimension: d.gloveDimension,
    gloveCount,
  };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const sections: Uint8Array[] = [
    wordBytes,
    bytesOf(d.documentFrequency),
    bytesOf(d.equivalentOffsets),
    bytesOf(d.equivalentWords),
    bytesOf(d.equivalentStrengths),
    bytesOf(d.gloveRows),
    bytesOf(d.gloveVectors),
  ];
  let size = align4(MAGIC.length + 8 + headerBytes.length);
  for (const s of sections) size = align4(size + s.length);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set(Buffer.from(MAGIC, 'ascii'), 0);
  view.setUint32(MAGIC.length, LEXICON_FORMAT_VERSION, true);
  view.setUint32(MAGIC.length + 4, headerBytes.length, true);
  out.set(headerBytes, MAGIC.length + 8);
  let at = align4(MAGIC.length + 8 + headerBytes.length);
  for (const s of sections) {
    out.set(s, at);
    at = align4(at + s.length);
  }
  return out;
}

export function decodeLexicon(bytes: Uint8Array): ReleaseLexicon {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length < MAGIC.length + 8 || buffer.toString('ascii', 0, MAGIC.length) !== MAGIC) {
    throw new Error('the stored semantic lexicon is not an omopterm lexicon: embed the release again (omopterm embed --release …)');
  }
  const version = buffer.readUInt32LE(MAGIC.length);
  if (version !== LEXICON_FORMAT_VERSION) {
    throw new Error(
      `the stored semantic lexicon has format version ${version}; this omopterm reads version ${LEXICON_FORMAT_VERSION}: embed the release again (omopterm embed --release …)`,
    );
  }
  const headerLength = buffer.readUInt32LE(MAGIC.length + 4);
  const header = JSON.parse(buffer.toString('utf8', MAGIC.length + 8, MAGIC.length + 8 + headerLength)) as LexiconHeader;
  // Sections are copied into fresh, aligned typed arrays (the input may sit at any byte offset).
  let at = align4(MAGIC.length + 8 + headerLength);
  const take = (length: number): Uint8Array => {
    if (at + length > buffer.length) throw new Error('the stored semantic lexicon is truncated: embed the release again (omopterm embed --release …)');
    const slice = new Uint8Array(length);
    slice.set(buffer.subarray(at, at + length));
    at = align4(at + length);
    return slice;
  };
  const wordText = Buffer.from(take(header.wordBytes)).toString('utf8');
  const words = header.wordCount === 0 ? [] : wordText.split('\n');
  const u32 = (n: number): Uint32Array => new Uint32Array(take(n * 4).buffer);
  const data: ReleaseLexiconData = {
    documentCount: header.documentCount,
    words,
    documentFrequency: u32(header.wordCount),
    equivalentOffsets: u32(header.wordCount + 1),
    equivalentWords: u32(header.equivalentCount),
    equivalentStrengths: new Float32Array(take(header.equivalentCount * 4).buffer),
    gloveDimension: header.gloveDimension,
    gloveRows: new Int32Array(take(header.wordCount * 4).buffer),
    gloveVectors: new Int8Array(take(header.gloveCount * header.gloveDimension).buffer),
  };
  if (words.length !== header.wordCount) throw new Error('the stored semantic lexicon is damaged: embed the release again (omopterm embed --release …)');
  return new ReleaseLexicon(data);
}

function bytesOf(array: ArrayBufferView): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}
