/**
 * readAthenaFile with the reading and parsing on a thread of their own (./athena-reader-thread.ts), so that a load
 * parses the next records on one core while it stores the last ones on the other. The handler sees exactly what
 * readAthenaFile gives it (the same records, lines, blank lines, progress and errors at FILE:LINE:COLUMN); only
 * TAB-separated files (Athena's own format, and the large ones) are read this way: a field there can hold no TAB, so a
 * batch crosses as one string. Comma-separated files are read in this thread.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../module-worker.js';
import { athenaDialectOf, positioned, PROGRESS_EVERY_ROWS, readAthenaFile, type AthenaFileReadResult, type AthenaRecordHandler } from './athena-file-reader.js';
import { TAB_DIALECT } from './dialect.js';
import { AthenaReadError, RowFieldError } from './read-error.js';
import type { AthenaSourceFile } from './source-files.js';

/** Records per batch: a few MB of text, so a message costs nothing beside its records. */
const BATCH_ROWS = 8192;
/** Batches the reading thread may be ahead: bounds the memory of a load whose storing is the slower side. */
const READ_AHEAD_BATCHES = 4;

export interface ReaderThreadData {
  file: AthenaSourceFile;
  flow: SharedArrayBuffer;
  batchRows: number;
  readAhead: number;
}

export type ReaderThreadMessage =
  | { kind: 'header'; names: string[]; fieldColumns: number[] }
  | { kind: 'rows'; text: string; lengths: Int32Array; lines: Int32Array }
  | { kind: 'blank'; line: number }
  | { kind: 'end'; dataRows: number; lastLine: number }
  | { kind: 'failed'; error: { file: string; line: number | null; column: number | null; explanation: string } };

/** Reads `file` to the end as readAthenaFile does, parsing on another thread when the file is TAB-separated. */
export async function readAthenaFileInThread(file: AthenaSourceFile, handler: AthenaRecordHandler, signal?: AbortSignal): Promise<AthenaFileReadResult> {
  if ((await athenaDialectOf(file)) !== TAB_DIALECT) return readAthenaFile(file, handler, signal);
  signal?.throwIfAborted();
  const flow = new SharedArrayBuffer(12);
  const words = new Int32Array(flow);
  const workerData: ReaderThreadData = { file, flow, batchRows: BATCH_ROWS, readAhead: READ_AHEAD_BATCHES };
  const worker: Worker = startModuleWorker(import.meta.url, './athena-reader-thread', { workerData });
  let dataRows = 0;
  let headerFields: string[] = [];
  return await new Promise<AthenaFileReadResult>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      // the reading thread stops at its next batch, or now if it waits
      Atomics.store(words, 2, 1);
      Atomics.notify(words, 1);
      void worker.terminate();
      outcome();
    };
    const onAbort = () => finish(() => reject(signal!.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('error', (err) => finish(() => reject(new AthenaReadError(file.displayName, null, null, `cannot read the file: ${err.message}`))));
    worker.on('exit', () => finish(() => reject(new AthenaReadError(file.displayName, null, null, 'the thread reading the file ended before the file did'))));
    worker.on('message', (message: ReaderThreadMessage) => {
      if (settled) return;
      let fields: string[] = headerFields;
      let line = 1;
      try {
        switch (message.kind) {
          case 'header':
            headerFields = message.names;
            handler.onHeader({ dialect: TAB_DIALECT, names: message.names, fieldColumns: message.fieldColumns });
            return;
          case 'rows': {
            let at = 0;
            for (let i = 0; i < message.lengths.length; i++) {
              const end = at + message.lengths[i]!;
              fields = message.text.slice(at, end).split('\t');
              at = end;
              line = message.lines[i]!;
              handler.onRecord(fields, line);
              if ((++dataRows & (PROGRESS_EVERY_ROWS - 1)) === 0) {
                signal?.throwIfAborted();
                handler.onProgress?.(dataRows);
              }
            }
            Atomics.add(words, 1, 1);
            Atomics.notify(words, 1);
            return;
          }
          case 'blank':
            handler.onBlankLine?.(message.line);
            return;
          case 'end':
            handler.onProgress?.(dataRows);
            finish(() => resolve({ dialect: TAB_DIALECT, dataRows, lastLine: message.lastLine }));
            return;
          case 'failed': {
            const e = message.error;
            finish(() => reject(new AthenaReadError(e.file, e.line, e.column, e.explanation)));
            return;
          }
        }
      } catch (err) {
        // the header's names are trimmed: its columns are the ones the reading thread measured
        const error = message.kind === 'header' ? positionedInHeader(err, file, message.fieldColumns) : positioned(err, file, TAB_DIALECT, fields, line, null);
        finish(() => reject(error));
      }
    });
  });
}

function positionedInHeader(err: unknown, file: AthenaSourceFile, fieldColumns: readonly number[]): unknown {
  if (!(err instanceof RowFieldError)) return err;
  return new AthenaReadError(file.displayName, 1, fieldColumns[Math.min(err.fieldIndex, fieldColumns.length - 1)]!, err.message);
}
