/** The end of a staged table's load: the sorted copy, with progress and duplicate reporting. */
import type { AnomalyKind } from '../anomaly-kinds.js';
import type { DuplicateKeyGroup, StagedInsert } from '../staged-insert.js';
import type { TableImportContext } from '../table-import.js';

export function finishStagedTable(ctx: TableImportContext, staged: StagedInsert, duplicateKind: AnomalyKind, maxExamples: number): number {
  const stored = runStep(ctx, `${ctx.fileName}: sorting ${staged.staged.toLocaleString('en-US')} rows into the clustered table`, () =>
    staged.sortIntoFinalTable(),
  );
  const duplicates = staged.staged - stored;
  if (duplicates > 0) {
    const groups = runStep(ctx, `${ctx.fileName}: locating examples of ${duplicates.toLocaleString('en-US')} repeated keys`, () =>
      staged.findDuplicateExamples(maxExamples),
    );
    ctx.anomalies.reportMany(duplicateKind, duplicates, groups.map((group) => describeGroup(ctx.fileName, group)));
  }
  staged.dropStagingTable();
  return stored;
}

function runStep<T>(ctx: TableImportContext, step: string, work: () => T): T {
  const started = Date.now();
  ctx.progress({ type: 'step-start', step });
  const result = work();
  ctx.progress({ type: 'step-done', step, elapsedMs: Date.now() - started });
  return result;
}

function describeGroup(fileName: string, group: DuplicateKeyGroup): string {
  const key = Object.entries(group.key)
    .map(([column, value]) => `${column}=${JSON.stringify(value)}`)
    .join(', ');
  const more = group.lines.slice(2);
  return `${fileName}:${group.lines[1]}: (${key}) repeats line ${group.lines[0]} (kept)${more.length ? `; repeated again on line ${more.join(', ')}` : ''}`;
}
