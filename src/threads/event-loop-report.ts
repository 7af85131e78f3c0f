/**
 * The benchmark's window on a server's event loop: with OMOPTERM_EVENT_LOOP_REPORT=DIR, a serving process writes
 * DIR/event-loop-<pid>.json at once (window 0: it reports) and, at each SIGUSR2, the event-loop delay of the window
 * since the previous one (perf_hooks.monitorEventLoopDelay); without the variable nothing is installed.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** The environment variable naming the directory the windows are written to (bench/run.ts sets it). */
export const EVENT_LOOP_REPORT_ENV = 'OMOPTERM_EVENT_LOOP_REPORT';
/** The signal that closes a window. */
export const EVENT_LOOP_REPORT_SIGNAL = 'SIGUSR2';
/**
 * The monitor's timer interval. A sample is the time between two ticks; its delay is that less the interval. At 1 ms a
 * 50 ms block reads as 50–51 ms (at the default 10 ms it read 41–60 ms, depending on where the block fell).
 */
export const EVENT_LOOP_RESOLUTION_MS = 1;

/** One window of a process's event loop, delays in ms. */
export interface EventLoopWindow {
  pid: number;
  /** 0 when the process starts reporting, 1 for the window closed by the first signal, and so on. */
  sequence: number;
  windowMs: number;
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** The file a process writes its windows to. */
export function eventLoopReportFile(dir: string, pid: number): string {
  return join(dir, `event-loop-${pid}.json`);
}

/** Starts measuring; each signal writes a window. Returns the function that stops (the server's close). */
export function reportEventLoopDelay(dir: string): () => void {
  const histogram = monitorEventLoopDelay({ resolution: EVENT_LOOP_RESOLUTION_MS });
  histogram.enable();
  let sequence = 0;
  let since = performance.now();
  const delayMs = (ns: number) => (histogram.count ? Math.max(0, ns / 1e6 - EVENT_LOOP_RESOLUTION_MS) : 0);
  const write = (closing = true) => {
    const now = performance.now();
    const window: EventLoopWindow = {
      pid: process.pid,
      sequence: closing ? ++sequence : sequence,
      windowMs: now - since,
      samples: histogram.count,
      p50Ms: delayMs(histogram.percentile(50)),
      p99Ms: delayMs(histogram.percentile(99)),
      maxMs: delayMs(histogram.max),
    };
    histogram.reset();
    since = now;
    const file = eventLoopReportFile(dir, process.pid);
    writeFileSync(`${file}.tmp`, JSON.stringify(window));
    renameSync(`${file}.tmp`, file);
  };
  const onSignal = () => write();
  process.on(EVENT_LOOP_REPORT_SIGNAL, onSignal);
  write(false);
  return () => {
    process.off(EVENT_LOOP_REPORT_SIGNAL, onSignal);
    histogram.disable();
  };
}
