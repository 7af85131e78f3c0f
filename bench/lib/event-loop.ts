/**
 * The server's event-loop delay per scenario: the server started with OMOPTERM_EVENT_LOOP_REPORT=DIR writes a window
 * each time it gets SIGUSR2 (src/threads/event-loop-report.ts); the harness closes one window before a scenario (and
 * drops it) and one after, and reads the worst p99 and max over the server's processes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_LOOP_REPORT_SIGNAL, type EventLoopWindow } from '../../src/threads/event-loop-report.js';

export interface EventLoopFigures {
  /** Worst p99 of a window over the processes that reported, ms. */
  p99Ms: number;
  maxMs: number;
  /** Timer samples the figures come from. */
  samples: number;
}

export class EventLoopProbe {
  private windows = 0;

  constructor(
    private readonly dir: string,
    private readonly pid: number,
  ) {}

  /** Closes the current window and answers its figures (null when no process reported within `timeoutMs`). */
  async close(timeoutMs = 10_000): Promise<EventLoopFigures | null> {
    const sequence = ++this.windows;
    process.kill(this.pid, EVENT_LOOP_REPORT_SIGNAL);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const windows = this.read().filter((w) => w.sequence === sequence);
      if (windows.length) {
        return {
          p99Ms: Math.max(...windows.map((w) => w.p99Ms)),
          maxMs: Math.max(...windows.map((w) => w.maxMs)),
          samples: windows.reduce((n, w) => n + w.samples, 0),
        };
      }
      if (Date.now() > deadline) return null;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  private read(): EventLoopWindow[] {
    if (!existsSync(this.dir)) return [];
    const out: EventLoopWindow[] = [];
    for (const name of readdirSync(this.dir)) {
      if (!/^event-loop-\d+\.json$/.test(name)) continue;
      try {
        out.push(JSON.parse(readFileSync(join(this.dir, name), 'utf8')) as EventLoopWindow);
      } catch {
        // being replaced
      }
    }
    return out;
  }
}
