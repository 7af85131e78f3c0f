/**
 * Thread of ./athena-file-thread.ts: reads and parses one TAB-separated Athena file with readAthenaFile and posts its
 * records in batches (each batch one string of the records' fields joined by TAB, with each record's length and line),
 * never more than READ_AHEAD_BATCHES ahead of the thread that stores them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readAthenaFile } from './athena-file-reader.js';
import type { ReaderThreadData, ReaderThreadMessage } from './athena-file-thread.js';
import { AthenaReadError } from './read-error.js';

const { file, flow, batchRows, readAhead } = workerData as ReaderThreadData;
/** [0]: batches posted, [1]: batches taken by the storing thread, [2]: 1 once it wants no more. */
const words = new Int32Array(flow);

let texts: string[] = [];
let lengths = new Int32Array(batchRows);
let lines = new Int32Array(batchRows);
let count = 0;

function post(message: ReaderThreadMessage, transfer: ArrayBuffer[] = []): void {
  parentPort!.postMessage(message, transfer);
}

/** Posts the records gathered so far, after waiting while the storing thread is readAhead batches behind. */
function flush(): void {
  if (count === 0) return;
  for (;;) {
    if (Atomics.load(words, 2) === 1) throw new Error('stopped');
    const taken = Atomics.load(words, 1);
    if (Atomics.load(words, 0) - taken < readAhead) break;
    Atomics.wait(words, 1, taken, 1000);
  }
  post({ kind: 'rows', text: texts.join(''), lengths: lengths.subarray(0, count), lines: lines.subarray(0, count) }, [lengths.buffer, lines.buffer]);
  Atomics.add(words, 0, 1);
  texts = [];
  lengths = new Int32Array(batchRows);
  lines = new Int32Array(batchRows);
  count = 0;
}

try {
  const result = await readAthenaFile(file, {
    onHeader: (header) => post({ kind: 'header', names: header.names, fieldColumns: header.fieldColumns }),
    onRecord: (fields, line) => {
      const text = fields.join('\t');
      texts.push(text);
      lengths[count] = text.length;
      lines[count] = line;
      if (++count === batchRows) flush();
    },
    onBlankLine: (line) => {
      flush();
      post({ kind: 'blank', line });
    },
  });
  flush();
  post({ kind: 'end', dataRows: result.dataRows, lastLine: result.lastLine });
} catch (err) {
  if (Atomics.load(words, 2) !== 1) {
    const e = err as Error;
    post(
      err instanceof AthenaReadError
        ? { kind: 'failed', error: { file: err.file, line: err.line, column: err.column, explanation: err.explanation } }
        : { kind: 'failed', error: { file: file.displayName, line: null, column: null, explanation: `cannot read the file: ${e?.message ?? String(err)}` } },
    );
  }
}
