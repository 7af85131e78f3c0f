/**
 * Thread of ./embed-worker-client.ts: embeds batches of texts with the default provider over the release lexicon
 * it is given (decoded from the stored bytes, as a server decodes them) and replies with one transferred
 * Float32Array per batch.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { decodeLexicon } from '../search-model/semantic/lexicon/lexicon-codec.js';
import { createLexiconProvider } from '../search-model/semantic/lexicon/lexicon-provider.js';
import type { EmbedReply, EmbedRequest, EmbedWorkerData } from './embed-worker-client.js';

const provider = createLexiconProvider(decodeLexicon((workerData as EmbedWorkerData).lexicon));

parentPort!.on('message', ({ id, texts }: EmbedRequest) => {
  const matrix = new Float32Array(texts.length * provider.dimension);
  texts.forEach((text, i) => matrix.set(provider.embedOne(text), i * provider.dimension));
  parentPort!.postMessage({ id, matrix } satisfies EmbedReply, [matrix.buffer]);
});
parentPort!.postMessage({ id: -1, matrix: new Float32Array(0) } satisfies EmbedReply);
