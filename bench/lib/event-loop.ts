/**
 * The server's event-loop delay per scenario: each process of a server started with OMOPTERM_EVENT_LOOP_REPORT=DIR
 * writes DIR/event-loop-<pid>.json when it starts and a window each time it gets SIGUSR2
 * (src/threads/event-loop-report.ts). The harness signals every process that wrote a file (so a process that serves
 * nothing, or was never told, is never signalled), closes one window before a scenario (and drops it) and one after,
 * and reads the worst p99 and max over them.
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
  /** Processes that reported. */
  processes: number;
}

export class EventLoopProbe {
  constructor(private readonly dir: string) {}

  /** Closes the current window of every reporting process and answers the figures (null when none answered within `timeoutMs`). */
  async close(timeoutMs = 10_000): Promise<EventLoopFigures | null> {
    const before = this.read();
    const signalled = new Map<number, number>();
    for (const w of before.values()) {
      try {
        process.kill(w.pid, EVENT_LOOP_REPORT_SIGNAL);
        signalled.set(w.pid, w.sequence);
      } catch {
        // the process has gone (a restarted worker)
      }
    }
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const now = this.read();
      const windows = [...signalled].map(([pid, sequence]) => now.get(pid)).filter((w): w is EventLoopWindow => w !== undefined && w.sequence > signalled.get(w.pid)!);
      if (windows.length === signalled.size || Date.now() > deadline) {
        if (!windows.length) return null;
        return {
          p99Ms: Math.max(...windows.map((w) => w.p99Ms)),
          maxMs: Math.max(...windows.map((w) => w.maxMs)),
          samples: windows.reduce((n, w) => n + w.samples, 0),
          processes: windows.length,
        };
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** The last window of each process that wrote one, by pid. */
  private read(): Map<number, EventLoopWindow> {
    const out = new Map<number, EventLoopWindow>();
    if (!existsSync(this.dir)) return out;
    for (const name of readdirSync(this.dir)) {
      if (!/^event-loop-\d+\.json$/.test(name)) continue;
      try {
        const w = JSON.parse(readFileSync(join(this.dir, name), 'utf8')) as EventLoopWindow;
        out.set(w.pid, w);
      } catch {
        // being replaced
      }
    }
    return out;
  }
}
