/**
 * The journal that makes `omopterm map` resumable: the run's identity (a hash of the input and everything that
 * changes the candidates) and each mapped term as one JSON line, appended batch by batch in OUT/.omopterm-map/.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TermMappingResult } from '../../services/source-mapping/term-mapping.js';

export const JOURNAL_DIR = '.omopterm-map';
const RUN_FILE = 'run.json';
const RESULTS_FILE = 'journal.ndjson';

export interface RunIdentity {
  /** sha256 of the input and the settings that change candidates (see runHash). */
  hash: string;
  /** The time every initial review is stamped with (kept, so that a resumed run writes the same files). */
  started_at: string;
  total_terms: number;
  input: string;
}

/** The run's hash: the input file's bytes and every setting that changes candidates or reviews. */
export function runHash(fileBytes: Buffer, settings: unknown): string {
  return createHash('sha256').update(createHash('sha256').update(fileBytes).digest('hex')).update('\0').update(JSON.stringify(settings)).digest('hex');
}

export interface OpenedJournal {
  identity: RunIdentity;
  /** Terms already mapped, by index. */
  done: Map<number, TermMappingResult>;
  append(results: readonly TermMappingResult[]): void;
}

/**
 * Opens (or starts) the journal of `outDir` for a run with this identity. A journal of another run is an error unless
 * `restart` (then it is discarded); a last line cut short by a kill is dropped.
 */
export function openJournal(outDir: string, wanted: RunIdentity, restart: boolean): OpenedJournal {
  const dir = join(outDir, JOURNAL_DIR);
  const runFile = join(dir, RUN_FILE);
  const resultsFile = join(dir, RESULTS_FILE);
  if (existsSync(runFile)) {
    let previous: RunIdentity | null = null;
    try {
      previous = JSON.parse(readFileSync(runFile, 'utf8')) as RunIdentity;
    } catch {
      previous = null;
    }
    if (previous && previous.hash !== wanted.hash && !restart) {
      throw new Error(
        `${outDir} holds a mapping run of another input or other options (${previous.input}, ${previous.total_terms} terms); ` +
          'use another --out directory, the same input and options to resume it, or --restart to discard it',
      );
    }
    if (!previous || previous.hash !== wanted.hash) rmSync(dir, { recursive: true, force: true });
  }
  mkdirSync(dir, { recursive: true });
  let identity = wanted;
  const done = new Map<number, TermMappingResult>();
  if (existsSync(runFile)) {
    identity = JSON.parse(readFileSync(runFile, 'utf8')) as RunIdentity;
    const lines = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8').split('\n') : [];
    const kept: string[] = [];
    for (const line of lines) {
      if (line.trim() === '') continue;
      try {
        const result = JSON.parse(line) as TermMappingResult;
        if (!done.has(result.index)) {
          done.set(result.index, result);
          kept.push(line);
        }
      } catch {
        // a line cut short by a kill: its terms are mapped again
      }
    }
    writeFileSync(resultsFile, kept.length ? `${kept.join('\n')}\n` : '');
  } else {
    writeFileSync(resultsFile, '');
    writeFileSync(runFile, `${JSON.stringify(identity, null, 2)}\n`);
  }
  return {
    identity,
    done,
    append(results) {
      if (!results.length) return;
      appendFileSync(resultsFile, results.map((r) => `${JSON.stringify(r)}\n`).join(''));
      for (const r of results) done.set(r.index, r);
    },
  };
}
