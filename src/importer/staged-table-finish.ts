/** The end of a staged table's load: the sorted copy, with progress and duplicate reporting. */
import type { AnomalyKind } from './anomaly-kinds.js';
import { formatQuantity } from './format.js';
import { cpuStopwatch } from './progress-events.js';
import type { DuplicateKeyGroup, StagedInsert } from './staged-insert.js';
import type { TableImportContext } from './table-import.js';
import { missingConceptCondition } from './table-row-checks.js';

/** The anomaly kinds of a staged table, and the key columns holding concept ids. */
export interface StagedTableAnomalies {
  duplicate: AnomalyKind;
  /** Reported row by row as the file is read (checkConceptReferences on `conceptColumns`). */
  dangling: AnomalyKind;
  conceptColumns: readonly string[];
}

/**
 * Sorts the staged rows into the final table and reports the duplicates dropped. Dangling rows
 * were counted as read; a dropped duplicate has the same concept ids as the row kept, so those
 * dropped with a dangling key are withdrawn: the dangling count is of rows stored.
 */
export function finishStagedTable(ctx: TableImportContext, staged: StagedInsert, kinds: StagedTableAnomalies, maxExamples: number): number {
  const stored = runStep(ctx, `${ctx.fileName}: sorting ${formatQuantity(staged.staged, 'row')} into the clustered table`, () => staged.sortIntoFinalTable());
  const duplicates = staged.staged - stored;
  if (duplicates > 0) {
    const groups = runStep(ctx, `${ctx.fileName}: locating examples of ${formatQuantity(duplicates, 'repeated key')}`, () =>
      staged.findDuplicateExamples(maxExamples),
    );
    ctx.anomalies.reportMany(kinds.duplicate, duplicates, groups.map((group) => describeGroup(ctx.fileName, group)));
    if (ctx.anomalies.count(kinds.dangling) > 0) {
      const droppedDangling = runStep(ctx, `${ctx.fileName}: counting dropped repeats of rows pointing at missing concepts`, () =>
        staged.countDroppedDuplicatesWhere(missingConceptCondition(kinds.conceptColumns)),
      );
      ctx.anomalies.withdraw(kinds.dangling, droppedDangling);
    }
  }
  staged.dropStagingTable();
  return stored;
}

function runStep<T>(ctx: TableImportContext, step: string, work: () => T): T {
  const started = Date.now();
  const cpu = cpuStopwatch();
  ctx.progress({ type: 'step-start', step });
  const result = work();
  ctx.progress({ type: 'step-done', step, elapsedMs: Date.now() - started, cpuMs: cpu() });
  return result;
}

function describeGroup(fileName: string, group: DuplicateKeyGroup): string {
  const key = Object.entries(group.key)
    .map(([column, value]) => `${column}=${JSON.stringify(value)}`)
    .join(', ');
  const more = group.lines.slice(2);
  return `${fileName}:${group.lines[1]}: (${key}) repeats line ${group.lines[0]} (kept)${more.length ? `; repeated again on line ${more.join(', ')}` : ''}`;
}
