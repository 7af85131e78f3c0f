/**
 * Renders load progress on stderr: on a TTY one status line redrawn about once a second (rows, rows/s, elapsed,
 * also while a long SQLite step runs in the child process); otherwise (CI, logs, pipes) plain lines, at most one
 * progress line per table every few seconds.
 */
import { formatCount, formatDuration, formatQuantity, formatRate } from './format.js';
import type { LoadProgressEvent } from './progress-events.js';

interface OutputStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

type Activity =
  | { kind: 'table'; table: string; rows: number; startedAt: number }
  | { kind: 'step'; step: string; startedAt: number; count?: { done: number; total: number | null; unit: string } };

const REDRAW_INTERVAL_MS = 1000;
const PLAIN_PROGRESS_INTERVAL_MS = 5000;

export class TerminalProgress {
  private activity: Activity | null = null;
  private readonly tty: boolean;
  private timer: NodeJS.Timeout | null = null;
  private statusShown = false;
  private lastPlainLineAt = 0;

  constructor(private readonly out: OutputStream) {
    this.tty = Boolean(out.isTTY);
    if (this.tty) {
      this.timer = setInterval(() => this.redraw(), REDRAW_INTERVAL_MS);
      this.timer.unref();
    }
  }

  handle(event: LoadProgressEvent): void {
    const now = Date.now();
    switch (event.type) {
      case 'load-start':
        this.line(`loading release ${event.label} from ${event.sourceDir}`);
        this.line(`  building in ${event.storeDir}`);
        if (event.ignoredFiles.length) this.line(`  not vocabulary tables, ignored: ${event.ignoredFiles.join(', ')}`);
        break;
      case 'table-start':
        this.activity = { kind: 'table', table: event.table, rows: 0, startedAt: now };
        this.lastPlainLineAt = now;
        if (!this.tty) this.line(`  ${event.table}: reading ${event.file} (${event.dialect})`);
        this.redraw();
        break;
      case 'table-rows':
        if (this.activity?.kind === 'table') this.activity.rows = event.rows;
        if (!this.tty && now - this.lastPlainLineAt >= PLAIN_PROGRESS_INTERVAL_MS && this.activity) {
          this.lastPlainLineAt = now;
          this.line(`  ${this.describe(now)}`);
        }
        break;
      case 'table-done': {
        this.activity = null;
        const dropped = event.rowsRead - event.rowsStored;
        this.line(
          `  ${event.table}: ${formatQuantity(event.rowsRead, 'row')}` +
            (dropped > 0 ? ` (${formatCount(event.rowsStored)} stored, ${formatQuantity(dropped, 'duplicate')} dropped)` : '') +
            ` in ${formatDuration(event.elapsedMs)}` +
            (event.rowsRead > 0 ? `, ${formatRate(event.rowsRead, event.elapsedMs)}` : '') +
            cpuNote(event.elapsedMs, event.cpuMs),
        );
        break;
      }
      case 'table-missing':
        this.line(`  ${event.table}: no file, left empty`);
        break;
      case 'step-start':
        this.activity = { kind: 'step', step: event.step, startedAt: now };
        this.lastPlainLineAt = now;
        if (!this.tty) this.line(`  ${event.step}…`);
        this.redraw();
        break;
      case 'step-progress':
        if (this.activity?.kind === 'step' && this.activity.step === event.step) {
          this.activity.count = { done: event.done, total: event.total, unit: event.unit };
          if (!this.tty && now - this.lastPlainLineAt >= PLAIN_PROGRESS_INTERVAL_MS) {
            this.lastPlainLineAt = now;
            this.line(`  ${this.describe(now)}`);
          }
        }
        break;
      case 'step-done':
        this.activity = null;
        this.line(`  ${event.step}: done in ${formatDuration(event.elapsedMs)}${cpuNote(event.elapsedMs, event.cpuMs)}`);
        break;
      case 'note':
        this.line(`    ${event.message}`);
        break;
    }
  }

  /** Stops redrawing and clears the status line. */
  finish(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.clearStatus();
    this.activity = null;
  }

  private describe(now: number): string {
    const a = this.activity!;
    const elapsed = now - a.startedAt;
    if (a.kind === 'step' && a.count) {
      const { done, total, unit } = a.count;
      const share = total ? ` / ${formatCount(total)} (${Math.floor((done * 100) / total)} %)` : '';
      return `${a.step}: ${formatCount(done)}${share} ${unit}, ${formatRate(done, elapsed, unit) || '…'}, ${formatDuration(elapsed)}`;
    }
    if (a.kind === 'step') return `${a.step}… ${formatDuration(elapsed)}`;
    return `${a.table}: ${formatQuantity(a.rows, 'row')}, ${formatRate(a.rows, elapsed) || '…'}, ${formatDuration(elapsed)}`;
  }

  private redraw(): void {
    if (!this.tty || !this.activity) return;
    this.out.write(`\r\x1b[K  ${this.describe(Date.now())}`);
    this.statusShown = true;
  }

  private clearStatus(): void {
    if (this.statusShown) this.out.write('\r\x1b[K');
    this.statusShown = false;
  }

  private line(text: string): void {
    this.clearStatus();
    this.out.write(`${text}\n`);
    this.redraw();
  }
}

/** Steps shorter than this show their wall time only. */
const CPU_NOTE_FROM_MS = 1000;

/**
 * The CPU the process used over a step, as cores kept busy on average (`, CPU 1.9 cores`): about 1 computes on one core,
 * about 2 on both, well under 1 waits (for the disk, for a helper).
 */
function cpuNote(elapsedMs: number, cpuMs: number | undefined): string {
  if (cpuMs === undefined || elapsedMs < CPU_NOTE_FROM_MS) return '';
  return `, CPU ${(cpuMs / elapsedMs).toFixed(1)} cores`;
}
