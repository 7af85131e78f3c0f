/**
 * The benchmark's event-loop channel (src/threads/event-loop-report.ts): a process writes DIR/event-loop-<pid>.json as
 * it starts reporting, then each SIGUSR2 writes the window since the previous one there, numbered; a loop blocked on purpose shows in that window's max; stopping
 * removes the signal handler.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EVENT_LOOP_REPORT_SIGNAL, eventLoopReportFile, reportEventLoopDelay, type EventLoopWindow } from '../../src/threads/event-loop-report.js';

const dir = mkdtempSync(join(tmpdir(), 'omopterm-loop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends the signal to this process and reads the window it writes. */
async function closeWindow(sequence: number): Promise<EventLoopWindow> {
  process.kill(process.pid, EVENT_LOOP_REPORT_SIGNAL);
  const file = eventLoopReportFile(dir, process.pid);
  for (let i = 0; i < 400; i++) {
    if (existsSync(file)) {
      const window = JSON.parse(readFileSync(file, 'utf8')) as EventLoopWindow;
      if (window.sequence === sequence) return window;
    }
    await sleep(10);
  }
  throw new Error(`window ${sequence} was never written`);
}

describe('event-loop report', () => {
  it('writes one numbered window per signal; a blocked loop shows in its window', async () => {
    const stop = reportEventLoopDelay(dir);
    try {
      // the process says at once that it reports (the harness signals only processes that wrote a file)
      expect(JSON.parse(readFileSync(eventLoopReportFile(dir, process.pid), 'utf8'))).toMatchObject({ pid: process.pid, sequence: 0 });
      await sleep(50);
      const blocked = Date.now();
      while (Date.now() - blocked < 60) {
        // hold the event loop
      }
      await sleep(50);
      const first = await closeWindow(1);
      expect(first.pid).toBe(process.pid);
      expect(first.samples).toBeGreaterThan(0);
      // a 60 ms block is a sample at least that late, less the timer's 1 ms interval
      expect(first.maxMs).toBeGreaterThanOrEqual(59);
      expect(first.p99Ms).toBeLessThanOrEqual(first.maxMs);
      const second = await closeWindow(2);
      expect(second.pid).toBe(process.pid);
    } finally {
      stop();
    }
    expect(process.listenerCount(EVENT_LOOP_REPORT_SIGNAL)).toBe(0);
  });
});
