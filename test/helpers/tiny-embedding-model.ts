/**
 * Writes a tiny BERT-shaped sentence-embedding model in the layout `--embedding-model DIR` expects
 * (config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx or onnx/model_quantized.onnx),
 * so the real @huggingface/transformers loading code runs in tests without any download.
 *
 * The ONNX graph is one node, `Gather(embeddings, input_ids) → last_hidden_state`: each token's
 * output is its row of a designed embedding table, and the pipeline's mean pooling averages them.
 * The table gives every meaning an axis of its own and puts the words of one meaning on (nearly)
 * the same axis, so the phrases of TINY_MODEL_SYNONYMS have cosines near 1 and those of
 * TINY_MODEL_UNRELATED near 0. [CLS]/[SEP] share a small common axis, so every text (even an
 * empty one) has a non-zero vector. The tokenizer is a lowercasing WordPiece over TINY_MODEL_WORDS.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/** Length of the model's vectors. */
export const TINY_MODEL_DIMENSION = 16;

const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

/** Axes of the embedding table, one per meaning. */
const AXIS = {
  heart: 0,
  kidney: 1,
  neoplasm: 2,
  hypertension: 3,
  fracture: 4,
  bone: 5,
  diabetes: 6,
  liver: 7,
  unknown: 14,
  boundary: 15,
} as const;

/** Each word of the vocabulary with its designed vector: [axis, weight] pairs. */
const WORD_VECTORS: Record<string, Array<[number, number]>> = {
  heart: [[AXIS.heart, 1]],
  cardiac: [[AXIS.heart, 0.98], [AXIS.kidney, 0.1]],
  myocardial: [[AXIS.heart, 1]],
  infarction: [[AXIS.heart, 1]],
  attack: [[AXIS.heart, 0.95], [AXIS.fracture, 0.1]],
  kidney: [[AXIS.kidney, 1]],
  renal: [[AXIS.kidney, 0.97], [AXIS.heart, 0.05]],
  failure: [[AXIS.kidney, 0.3], [AXIS.heart, 0.3]],
  tumour: [[AXIS.neoplasm, 1]],
  tumor: [[AXIS.neoplasm, 1]],
  neoplasm: [[AXIS.neoplasm, 0.96], [AXIS.unknown, 0.1]],
  high: [[AXIS.hypertension, 1]],
  blood: [[AXIS.hypertension, 1]],
  pressure: [[AXIS.hypertension, 1]],
  hypertension: [[AXIS.hypertension, 1]],
  fracture: [[AXIS.fracture, 1]],
  broken: [[AXIS.fracture, 0.97]],
  bone: [[AXIS.bone, 1]],
  of: [[AXIS.boundary, 0.05]],
  diabetes: [[AXIS.diabetes, 1]],
  mellitus: [[AXIS.diabetes, 1]],
  sugar: [[AXIS.diabetes, 0.9], [AXIS.liver, 0.1]],
  liver: [[AXIS.liver, 1]],
  hepatic: [[AXIS.liver, 0.97]],
};

/** The tokenizer's vocabulary after the special tokens. */
export const TINY_MODEL_WORDS: readonly string[] = Object.keys(WORD_VECTORS);

/** Phrase pairs the table makes near-synonyms (cosine close to 1). */
export const TINY_MODEL_SYNONYMS: ReadonlyArray<readonly [string, string]> = [
  ['heart attack', 'myocardial infarction'],
  ['kidney', 'renal'],
  ['tumour', 'neoplasm'],
  ['high blood pressure', 'hypertension'],
  ['broken bone', 'fracture of bone'],
  ['sugar diabetes', 'diabetes mellitus'],
  ['liver', 'hepatic'],
];

/** Phrase pairs the table keeps apart (cosine close to 0). */
export const TINY_MODEL_UNRELATED: ReadonlyArray<readonly [string, string]> = [
  ['heart attack', 'kidney'],
  ['kidney', 'tumour'],
  ['hypertension', 'fracture of bone'],
  ['diabetes mellitus', 'myocardial infarction'],
  ['liver', 'neoplasm'],
];

export interface TinyEmbeddingModelOptions {
  /** Directory to write into (created); default a new temp dir `.../tiny-bert`. */
  dir?: string;
  /** `quantized` writes onnx/model_quantized.onnx instead of onnx/model.onnx (same graph). */
  variant?: 'fp32' | 'quantized';
  /** A non-zero revision changes one unused table cell: a different model file, same vectors' meaning. */
  revision?: number;
}

export interface TinyEmbeddingModel {
  dir: string;
  /** Path of the ONNX file written. */
  modelFile: string;
}

export function writeTinyEmbeddingModel(options: TinyEmbeddingModelOptions = {}): TinyEmbeddingModel {
  const dir = options.dir ?? join(mkdtempSync(join(tmpdir(), 'omopterm-tiny-model-')), 'tiny-bert');
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  const vocabulary = [...SPECIAL_TOKENS, ...TINY_MODEL_WORDS];
  const table = embeddingTable(vocabulary, options.revision ?? 0);
  const modelFile = join(dir, 'onnx', options.variant === 'quantized' ? 'model_quantized.onnx' : 'model.onnx');
  writeFileSync(modelFile, onnxModel(table, vocabulary.length));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(wordPieceTokenizer(vocabulary)));
  writeFileSync(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      model_max_length: 64,
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      mask_token: '[MASK]',
    }),
  );
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      model_type: 'bert',
      architectures: ['BertModel'],
      hidden_size: TINY_MODEL_DIMENSION,
      vocab_size: vocabulary.length,
    }),
  );
  return { dir, modelFile };
}

function embeddingTable(vocabulary: readonly string[], revision: number): Float32Array {
  const table = new Float32Array(vocabulary.length * TINY_MODEL_DIMENSION);
  const set = (token: string, cells: Array<[number, number]>): void => {
    const row = vocabulary.indexOf(token);
    for (const [axis, weight] of cells) table[row * TINY_MODEL_DIMENSION + axis] = weight;
  };
  for (const [word, cells] of Object.entries(WORD_VECTORS)) set(word, cells);
  set('[UNK]', [[AXIS.unknown, 0.3]]);
  set('[CLS]', [[AXIS.boundary, 0.1]]);
  set('[SEP]', [[AXIS.boundary, 0.1]]);
  // [MASK] is never produced by the tokenizer for plain text: its row carries the revision.
  set('[MASK]', [[AXIS.unknown, revision]]);
  return table;
}

function onnxModel(table: Float32Array, vocabularySize: number): Uint8Array {
  const valueInfo = (name: string, elemType: number, dims: Array<string | number>): onnxProto.onnx.IValueInfoProto => ({
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) },
      },
    },
  });
  const { FLOAT, INT64 } = onnx.TensorProto.DataType;
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 17 }],
    producerName: 'omopterm-tests',
    graph: {
      name: 'tiny-bert',
      node: [{ opType: 'Gather', input: ['embeddings', 'input_ids'], output: ['last_hidden_state'], name: 'lookup' }],
      initializer: [
        {
          name: 'embeddings',
          dataType: FLOAT,
          dims: [vocabularySize, TINY_MODEL_DIMENSION],
          rawData: new Uint8Array(table.buffer, table.byteOffset, table.byteLength),
        },
      ],
      input: [valueInfo('input_ids', INT64, ['batch', 'sequence'])],
      output: [valueInfo('last_hidden_state', FLOAT, ['batch', 'sequence', TINY_MODEL_DIMENSION])],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

function wordPieceTokenizer(vocabulary: readonly string[]): object {
  const special = (content: string) => ({
    id: vocabulary.indexOf(content),
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const cls = { SpecialToken: { id: '[CLS]', type_id: 0 } };
  const sep = (typeId: number) => ({ SpecialToken: { id: '[SEP]', type_id: typeId } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map(special),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [cls, { Sequence: { id: 'A', type_id: 0 } }, sep(0)],
      pair: [cls, { Sequence: { id: 'A', type_id: 0 } }, sep(0), { Sequence: { id: 'B', type_id: 1 } }, sep(1)],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [vocabulary.indexOf('[CLS]')], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [vocabulary.indexOf('[SEP]')], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocabulary.map((token, id) => [token, id])),
    },
  };
}
