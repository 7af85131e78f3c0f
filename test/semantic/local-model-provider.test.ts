/**
 * The local-model embedding provider (`--embedding-model DIR`) on a tiny BERT-shaped ONNX model the
 * test generates: the real @huggingface/transformers + onnxruntime-node loading code runs, offline.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { env as transformersEnv } from '@huggingface/transformers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cosine, type EmbeddingProvider } from '../../src/search-model/semantic/embedding-provider.js';
import {
  importTransformers,
  loadLocalModelProvider,
  LocalModelError,
} from '../../src/search-model/semantic/local-model-provider.js';
import {
  TINY_MODEL_DIMENSION,
  TINY_MODEL_SYNONYMS,
  TINY_MODEL_UNRELATED,
  TINY_MODEL_WORDS,
  writeTinyEmbeddingModel,
} from '../helpers/tiny-embedding-model.js';

const sha256Prefix = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 12);
const norm = (v: Float32Array): number => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const scratch = mkdtempSync(join(tmpdir(), 'omopterm-local-model-test-'));
const modelDir = (name: string): string => join(scratch, name, 'tiny-bert');

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('local-model provider on a generated model', () => {
  let provider: EmbeddingProvider;
  let modelFile: string;

  beforeAll(async () => {
    ({ modelFile } = writeTinyEmbeddingModel({ dir: modelDir('main') }));
    provider = await loadLocalModelProvider(modelDir('main'));
  });
  afterAll(async () => provider.close?.());

  it('is named after the directory and the first 12 hex of the model file sha256', () => {
    expect(provider.id).toBe(`local-model/tiny-bert@${sha256Prefix(modelFile)}`);
  });

  it('reads its dimension from the model output', () => {
    expect(provider.dimension).toBe(TINY_MODEL_DIMENSION);
  });

  it('gives unit-length vectors of that dimension, in input order, for any text', async () => {
    const texts = [
      'heart attack',
      'Myocardial Infarction',
      '',
      'zzz unknown words only',
      // longer than the tokenizer's model_max_length (64): truncated, still embedded
      Array.from({ length: 200 }, (_, i) => TINY_MODEL_WORDS[i % TINY_MODEL_WORDS.length]).join(' '),
    ];
    const vectors = await provider.embed(texts);
    expect(vectors).toHaveLength(texts.length);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(TINY_MODEL_DIMENSION);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    expect(await provider.embed([])).toEqual([]);
  });

  it('is deterministic, whatever the batch a text is embedded in', async () => {
    // 150 texts: three model calls of at most 64, with padding to the longest text of each.
    const texts = Array.from({ length: 150 }, (_, i) =>
      Array.from({ length: 1 + (i % 7) }, (_, j) => TINY_MODEL_WORDS[(i + j * 3) % TINY_MODEL_WORDS.length]).join(' '),
    );
    const batched = await provider.embed(texts);
    expect(await provider.embed(texts)).toEqual(batched);
    for (const i of [0, 1, 63, 64, 65, 127, 128, 149]) {
      const [alone] = await provider.embed([texts[i]!]);
      expect(Array.from(batched[i]!)).toEqual(Array.from(alone!).map((x) => expect.closeTo(x, 6)));
    }
  });

  it("places the model's designed synonyms closer than unrelated phrases", async () => {
    const similarity = async ([a, b]: readonly [string, string]): Promise<number> => {
      const [va, vb] = await provider.embed([a, b]);
      return cosine(va!, vb!);
    };
    const synonyms = await Promise.all(TINY_MODEL_SYNONYMS.map(similarity));
    const unrelated = await Promise.all(TINY_MODEL_UNRELATED.map(similarity));
    for (const s of synonyms) expect(s).toBeGreaterThan(0.9);
    for (const u of unrelated) expect(u).toBeLessThan(0.2);
  });
});

describe('local-model provider identity and model files', () => {
  it('has the same id for the same model file under the same directory name, another when the file changes', async () => {
    writeTinyEmbeddingModel({ dir: modelDir('copy-a') });
    writeTinyEmbeddingModel({ dir: modelDir('copy-b') });
    const { modelFile: changed } = writeTinyEmbeddingModel({ dir: modelDir('changed'), revision: 1 });
    const [a, b, c] = await Promise.all(['copy-a', 'copy-b', 'changed'].map((n) => loadLocalModelProvider(modelDir(n))));
    expect(a!.id).toBe(b!.id);
    expect(c!.id).toBe(`local-model/tiny-bert@${sha256Prefix(changed)}`);
    expect(c!.id).not.toBe(a!.id);
    await Promise.all([a, b, c].map((p) => p!.close?.()));
  });

  it('loads onnx/model_quantized.onnx when the directory has no onnx/model.onnx', async () => {
    const fp32 = writeTinyEmbeddingModel({ dir: modelDir('fp32') });
    const quantized = writeTinyEmbeddingModel({ dir: modelDir('quantized'), variant: 'quantized' });
    const [full, small] = await Promise.all([loadLocalModelProvider(fp32.dir), loadLocalModelProvider(quantized.dir)]);
    expect(small.id).toBe(`local-model/tiny-bert@${sha256Prefix(quantized.modelFile)}`);
    expect(small.dimension).toBe(TINY_MODEL_DIMENSION);
    // the generated "quantized" file holds the same graph, so the vectors agree
    const [a] = await full.embed(['kidney failure']);
    const [b] = await small.embed(['kidney failure']);
    expect(cosine(a!, b!)).toBeCloseTo(1, 5);
    await Promise.all([full.close?.(), small.close?.()]);
  });

  it('prefers onnx/model.onnx when both files are present', async () => {
    const { modelFile } = writeTinyEmbeddingModel({ dir: modelDir('both') });
    writeTinyEmbeddingModel({ dir: modelDir('both'), variant: 'quantized', revision: 2 });
    const provider = await loadLocalModelProvider(modelDir('both'));
    expect(provider.id).toBe(`local-model/tiny-bert@${sha256Prefix(modelFile)}`);
    await provider.close?.();
  });
});

describe('local-model provider pooling (sentence-transformers 1_Pooling/config.json)', () => {
  const writePoolingConfig = (dir: string, flags: Record<string, boolean>): void => {
    mkdirSync(join(dir, '1_Pooling'), { recursive: true });
    writeFileSync(join(dir, '1_Pooling', 'config.json'), JSON.stringify({ word_embedding_dimension: 16, ...flags }));
  };

  it('mean pooling, when the config asks for it, is the same provider as without a config', async () => {
    const plain = writeTinyEmbeddingModel({ dir: modelDir('pool-none') });
    const mean = writeTinyEmbeddingModel({ dir: modelDir('pool-mean') });
    writePoolingConfig(mean.dir, { pooling_mode_mean_tokens: true, pooling_mode_cls_token: false });
    const [a, b] = await Promise.all([loadLocalModelProvider(plain.dir), loadLocalModelProvider(mean.dir)]);
    expect(b.id).toBe(a.id);
    expect(await b.embed(['renal failure'])).toEqual(await a.embed(['renal failure']));
    await Promise.all([a.close?.(), b.close?.()]);
  });

  it('[CLS] pooling takes the first token: in the tiny model every text is then the [CLS] row', async () => {
    const { dir, modelFile } = writeTinyEmbeddingModel({ dir: modelDir('pool-cls') });
    writePoolingConfig(dir, { pooling_mode_cls_token: true, pooling_mode_mean_tokens: false });
    const provider = await loadLocalModelProvider(dir);
    expect(provider.id).toBe(`local-model/tiny-bert@${sha256Prefix(modelFile)}+cls`);
    const [kidney, tumour] = await provider.embed(['kidney', 'tumour']);
    expect(cosine(kidney!, tumour!)).toBeCloseTo(1, 5);
    expect(norm(kidney!)).toBeCloseTo(1, 5);
    await provider.close?.();
  });

  it('a pooling this provider cannot run is refused, naming the file and the mode', async () => {
    const { dir } = writeTinyEmbeddingModel({ dir: modelDir('pool-max') });
    writePoolingConfig(dir, { pooling_mode_max_tokens: true });
    const failure = await loadLocalModelProvider(dir).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(LocalModelError);
    expect((failure as Error).message).toContain(`${join(dir, '1_Pooling', 'config.json')} asks for pooling_mode_max_tokens`);
  });
});

describe('local-model provider errors, offline', () => {
  // Every request the library could make goes through its env.fetch; record them.
  const requests: string[] = [];
  let originalFetch: typeof transformersEnv.fetch;
  beforeEach(() => {
    originalFetch = transformersEnv.fetch;
    transformersEnv.fetch = async (input: string | URL) => {
      requests.push(String(input));
      throw new Error('network access in a test');
    };
  });
  afterEach(() => {
    transformersEnv.fetch = originalFetch;
    expect(requests).toEqual([]);
  });

  const expectLocalModelError = async (dir: string, ...fragments: string[]): Promise<void> => {
    const failure = await loadLocalModelProvider(dir).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(LocalModelError);
    for (const fragment of fragments) expect((failure as Error).message).toContain(fragment);
  };

  it('a missing directory names it and the files expected', async () => {
    await expectLocalModelError(
      join(scratch, 'no-such-model'),
      join(scratch, 'no-such-model'),
      'does not exist',
      'config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx (or onnx/model_quantized.onnx)',
    );
  });

  it('a directory without an ONNX file names both accepted model files', async () => {
    const { dir, modelFile } = writeTinyEmbeddingModel({ dir: modelDir('no-onnx') });
    rmSync(modelFile);
    await expectLocalModelError(dir, `${dir} has no onnx/model.onnx (or onnx/model_quantized.onnx)`);
  });

  it.each(['tokenizer.json', 'tokenizer_config.json', 'config.json'])('a directory without %s names it', async (file) => {
    const { dir } = writeTinyEmbeddingModel({ dir: modelDir(`no-${file}`) });
    rmSync(join(dir, file));
    await expectLocalModelError(dir, `${dir} has no ${file};`);
  });

  it('a model file that is not ONNX fails in the library, locally, naming the file', async () => {
    const { dir, modelFile } = writeTinyEmbeddingModel({ dir: modelDir('corrupt') });
    writeFileSync(modelFile, 'this is not a protobuf model');
    await expectLocalModelError(dir, `embedding model ${modelFile} could not be loaded`);
  });

  it('a successful load makes no request either, and leaves remote loading disabled', async () => {
    const { dir } = writeTinyEmbeddingModel({ dir: modelDir('offline') });
    const provider = await loadLocalModelProvider(dir);
    await provider.embed(['renal failure']);
    expect(transformersEnv.allowRemoteModels).toBe(false);
    await provider.close?.();
  });
});

describe('the optional package', () => {
  it('when it is not installed, the error names the package and how to install it', async () => {
    const failure = await importTransformers('@omopterm-test/not-installed-transformers').then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(LocalModelError);
    expect((failure as Error).message).toContain(
      'needs the optional package @omopterm-test/not-installed-transformers, which is not installed',
    );
    expect((failure as Error).message).toContain('onnxruntime-node-install=skip');
  });
});
