/**
 * When the primary replaces a worker (src/http/cluster/restart-policy.ts, docs/operations.md "Worker processes"): at
 * once after one that had served a while, after 0.25 s, 0.5 s, 1 s, 2 s … for quick failures in a row, and not after
 * the fifth; a worker that served long enough starts the count again; slots are counted apart.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RESTART_POLICY, RestartPolicy } from '../../src/http/cluster/restart-policy.js';

const quick = { listened: false, uptimeMs: 800 };
const stable = { listened: true, uptimeMs: 60_000 };

describe('RestartPolicy', () => {
  it('restarts at once after a worker that served a while', () => {
    const policy = new RestartPolicy();
    expect(policy.onExit(1, stable)).toEqual({ restart: true, delayMs: 0 });
    expect(policy.onExit(1, stable)).toEqual({ restart: true, delayMs: 0 });
  });

  it('doubles the delay for each quick failure in a row and gives up at the fifth', () => {
    const policy = new RestartPolicy();
    const decisions = Array.from({ length: 5 }, () => policy.onExit(2, quick));
    expect(decisions).toEqual([
      { restart: true, delayMs: 250 },
      { restart: true, delayMs: 500 },
      { restart: true, delayMs: 1000 },
      { restart: true, delayMs: 2000 },
      { restart: false, quickFailures: 5 },
    ]);
  });

  it('counts a worker that served less than 10 s as a quick failure', () => {
    const policy = new RestartPolicy();
    expect(policy.onExit(1, { listened: true, uptimeMs: 9_000 })).toEqual({ restart: true, delayMs: 250 });
    expect(policy.onExit(1, { listened: true, uptimeMs: 11_000 })).toEqual({ restart: true, delayMs: 0 });
  });

  it('starts the count again after a stable run, and counts each slot apart', () => {
    const policy = new RestartPolicy();
    for (let i = 0; i < 4; i++) policy.onExit(1, quick);
    expect(policy.onExit(2, quick)).toEqual({ restart: true, delayMs: 250 });
    expect(policy.onExit(1, stable)).toEqual({ restart: true, delayMs: 0 });
    expect(policy.onExit(1, quick)).toEqual({ restart: true, delayMs: 250 });
  });

  it('caps the delay', () => {
    const policy = new RestartPolicy({ ...DEFAULT_RESTART_POLICY, maxQuickFailures: 20 });
    let last = 0;
    for (let i = 0; i < 10; i++) {
      const d = policy.onExit(1, quick);
      if (d.restart) last = d.delayMs;
    }
    expect(last).toBe(DEFAULT_RESTART_POLICY.maxDelayMs);
  });
});
