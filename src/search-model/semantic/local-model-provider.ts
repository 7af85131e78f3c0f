/**
 * The local-model embedding provider: a sentence-embedding ONNX model loaded offline from the directory the
 * operator names (`--embedding-model DIR`) through @huggingface/transformers, mean- or [CLS]-pooled and
 * normalised.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { EmbeddingProvider } from './embedding-provider.js';

/** The optional package this provider runs on. */
export const TRANSFORMERS_PACKAGE = '@huggingface/transformers';

/** Prefix of every local-model provider id. */
export const LOCAL_MODEL_PROVIDER_PREFIX = 'local-model/';

/** Files a model directory must hold (paths relative to it). */
export const LOCAL_MODEL_FILES = {
  config: 'config.json',
  tokenizer: 'tokenizer.json',
  tokenizerConfig: 'tokenizer_config.json',
  /** Preferred: full-precision weights. */
  fp32Model: 'onnx/model.onnx',
  /** Used when there is no fp32 file: transformers.js's name for int8 (`q8`) weights. */
  quantizedModel: 'onnx/model_quantized.onnx',
  /** Optional: sentence-transformers' pooling choice (mean when absent). */
  poolingConfig: '1_Pooling/config.json',
} as const;

/** How token vectors become one text vector (transformers.js pooling names). */
type Pooling = 'mean' | 'cls';

/** sentence-transformers pooling flags this provider can honour, by the pooling they select. */
const POOLING_FLAGS: Record<string, Pooling> = {
  pooling_mode_mean_tokens: 'mean',
  pooling_mode_cls_token: 'cls',
};

/** Texts per model call: bounds the padded batch tensor (batch × longest text × hidden size). */
export const EMBED_BATCH_SIZE = 64;

/** Embedded once at load to read the model's output dimension. */
const DIMENSION_PROBE_TEXT = 'dimension probe';

const EXPECTED_LAYOUT =
  `${LOCAL_MODEL_FILES.config}, ${LOCAL_MODEL_FILES.tokenizer}, ${LOCAL_MODEL_FILES.tokenizerConfig} ` +
  `and ${LOCAL_MODEL_FILES.fp32Model} (or ${LOCAL_MODEL_FILES.quantizedModel})`;

/** A model directory that cannot be used, or a missing optional package; the message says what to fix. */
export class LocalModelError extends Error {
  override readonly name = 'LocalModelError';
}

/**
 * The parts of @huggingface/transformers this provider uses, declared here so the project builds
 * whether or not the optional package is installed.
 */
interface TransformersModule {
  env: {
    allowRemoteModels: boolean;
    allowLocalModels: boolean;
    useFSCache: boolean;
    useBrowserCache: boolean;
  };
  pipeline(
    task: 'feature-extraction',
    model: string,
    options: { dtype: 'fp32' | 'q8'; device: 'cpu'; local_files_only: true },
  ): Promise<FeatureExtractionPipeline>;
}

interface FeatureExtractionPipeline {
  (texts: string[], options: { pooling: Pooling; normalize: true }): Promise<{
    type: string;
    dims: number[];
    data: ArrayLike<number>;
  }>;
  dispose(): Promise<void>;
}

/** Loads the model in `modelDir` as an EmbeddingProvider (see the module comment). */
export async function loadLocalModelProvider(modelDir: string): Promise<EmbeddingProvider> {
  const dir = resolve(modelDir);
  const model = locateModelFiles(dir);
  const pooling = poolingOf(dir);
  const digest = await sha256OfFile(model.file);
  const transformers = await importTransformers(TRANSFORMERS_PACKAGE);
  transformers.env.allowRemoteModels = false;
  transformers.env.allowLocalModels = true;
  transformers.env.useFSCache = false;
  transformers.env.useBrowserCache = false;

  let extractor: FeatureExtractionPipeline;
  try {
    extractor = await transformers.pipeline('feature-extraction', dir, {
      dtype: model.dtype,
      device: 'cpu',
      local_files_only: true,
    });
  } catch (err) {
    throw new LocalModelError(`embedding model ${model.file} could not be loaded: ${messageOf(err)}`);
  }

  const embedBatch = async (texts: string[]): Promise<Float32Array[]> => {
    const output = await extractor(texts, { pooling, normalize: true });
    if (output.type !== 'float32' || output.dims.length !== 2 || output.dims[0] !== texts.length) {
      throw new LocalModelError(
        `embedding model ${model.file} gave ${output.type} [${output.dims.join(', ')}] for ${texts.length} texts; ` +
          'expected float32 [texts, dimension] (a sentence-embedding export whose output is last_hidden_state or token_embeddings)',
      );
    }
    const width = output.dims[1]!;
    const data = output.data as Float32Array;
    return texts.map((_, i) => data.slice(i * width, (i + 1) * width));
  };

  let dimension: number;
  try {
    dimension = (await embedBatch([DIMENSION_PROBE_TEXT]))[0]!.length;
  } catch (err) {
    await extractor.dispose();
    if (err instanceof LocalModelError) throw err;
    throw new LocalModelError(`embedding model ${model.file} failed on a probe text: ${messageOf(err)}`);
  }

  return {
    id: `${LOCAL_MODEL_PROVIDER_PREFIX}${basename(dir)}@${digest.slice(0, 12)}${pooling === 'mean' ? '' : `+${pooling}`}`,
    dimension,
    async embed(texts: readonly string[]): Promise<Float32Array[]> {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += EMBED_BATCH_SIZE) {
        vectors.push(...(await embedBatch(texts.slice(start, start + EMBED_BATCH_SIZE))));
      }
      return vectors;
    },
    async close(): Promise<void> {
      await extractor.dispose();
    },
  };
}

interface ModelFiles {
  /** Absolute path of the ONNX file that will be loaded. */
  file: string;
  /** transformers.js dtype that selects that file. */
  dtype: 'fp32' | 'q8';
}

/** Checks the directory layout; throws a LocalModelError naming what is missing. */
function locateModelFiles(dir: string): ModelFiles {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new LocalModelError(`embedding model directory ${dir} does not exist; it should hold ${EXPECTED_LAYOUT}`);
  }
  const missing: string[] = [LOCAL_MODEL_FILES.config, LOCAL_MODEL_FILES.tokenizer, LOCAL_MODEL_FILES.tokenizerConfig].filter(
    (file) => !existsSync(join(dir, file)),
  );
  const fp32 = join(dir, LOCAL_MODEL_FILES.fp32Model);
  const quantized = join(dir, LOCAL_MODEL_FILES.quantizedModel);
  const model: ModelFiles | null = existsSync(fp32)
    ? { file: fp32, dtype: 'fp32' }
    : existsSync(quantized)
      ? { file: quantized, dtype: 'q8' }
      : null;
  if (!model) missing.push(`${LOCAL_MODEL_FILES.fp32Model} (or ${LOCAL_MODEL_FILES.quantizedModel})`);
  if (missing.length > 0 || !model) {
    throw new LocalModelError(
      `embedding model directory ${dir} has no ${missing.join(', ')}; it should hold ${EXPECTED_LAYOUT}`,
    );
  }
  return model;
}

/** The pooling the directory's sentence-transformers config asks for; mean without one. */
function poolingOf(dir: string): Pooling {
  const file = join(dir, LOCAL_MODEL_FILES.poolingConfig);
  if (!existsSync(file)) return 'mean';
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new LocalModelError(`${file} is not readable JSON: ${messageOf(err)}`);
  }
  const modes = Object.keys(config).filter((key) => key.startsWith('pooling_mode_') && config[key] === true);
  const pooling = modes.length === 1 ? POOLING_FLAGS[modes[0]!] : undefined;
  if (!pooling) {
    throw new LocalModelError(
      `${file} asks for ${modes.join(' + ') || 'no pooling mode'}; supported: exactly one of ` +
        `${Object.keys(POOLING_FLAGS).join(', ')} (or no such file, for mean pooling)`,
    );
  }
  return pooling;
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Imports the optional transformers package (by a computed specifier, so the project type-checks
 * without it); a missing package is a LocalModelError naming it. Exported for its test.
 */
export async function importTransformers(packageName: string): Promise<TransformersModule> {
  try {
    return (await import(packageName)) as TransformersModule;
  } catch (err) {
    const notInstalled = (err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && messageOf(err).includes(packageName);
    throw new LocalModelError(
      notInstalled
        ? `--embedding-model needs the optional package ${packageName}, which is not installed: ` +
            `run \`npm install ${packageName}\` (keep \`onnxruntime-node-install=skip\` in .npmrc so its install does not download)`
        : `--embedding-model needs the optional package ${packageName}, which failed to load: ${messageOf(err)}`,
    );
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
