/**
 * Embeds with the default provider in a helper thread (./embed-worker.ts; embed-release.ts starts two), so that embedding the next batches
 * overlaps summing and quantising the current one.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../module-worker.js';

export interface EmbedWorkerData {
  /** encodeLexicon() bytes of the release lexicon. */
  lexicon: Uint8Array;
}
export interface EmbedRequest {
  id: number;
  texts: string[];
}
export interface EmbedReply {
  /** -1: the thread is ready. */
  id: number;
  matrix: Float32Array;
}

export class EmbeddingThread {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (matrix: Float32Array) => void; reject: (err: Error) => void }>();
  private failure: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: EmbedReply) => {
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      waiter?.resolve(reply.matrix);
    });
    const fail = (err: Error) => {
      this.failure = err;
      for (const waiter of this.waiting.values()) waiter.reject(err);
      this.waiting.clear();
    };
    worker.on('error', (err) => fail(new Error(`the embedding thread failed: ${err.message}`)));
    worker.on('exit', (code) => fail(new Error(`the embedding thread ended (exit code ${code})`)));
  }

  /** Starts the thread and waits until its provider is ready. */
  static async start(lexicon: Uint8Array): Promise<EmbeddingThread> {
    const workerData: EmbedWorkerData = { lexicon };
    const worker = startModuleWorker(import.meta.url, './embed-worker', { workerData });
    const thread = new EmbeddingThread(worker);
    await thread.request(-1);
    return thread;
  }

  /** Unit vectors (count × dimension, row-major) of the texts. */
  embed(texts: string[]): Promise<Float32Array> {
    const id = this.nextId++;
    const reply = this.request(id);
    this.worker.postMessage({ id, texts } satisfies EmbedRequest);
    return reply;
  }

  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }

  private request(id: number): Promise<Float32Array> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiting.set(id, { resolve, reject }));
  }
}
