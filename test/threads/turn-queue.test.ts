/**
 * TurnQueue: long synchronous jobs run one per event-loop turn, in the order they were queued, so
 * that the event loop's other work (pending writes, newly read requests) runs between any two.
 */
import { describe, expect, it } from 'vitest';
import { TurnQueue } from '../../src/threads/turn-queue.js';

describe('TurnQueue', () => {
  it('runs jobs in the order they were queued, each told how many wait behind it', async () => {
    const queue = new TurnQueue();
    const seen: Array<[string, number]> = [];
    const results = await Promise.all(['a', 'b', 'c'].map((name) => queue.run((waiting) => (seen.push([name, waiting]), name.toUpperCase()))));
    expect(results).toEqual(['A', 'B', 'C']);
    expect(seen).toEqual([['a', 2], ['b', 1], ['c', 0]]);
    expect(queue.waiting).toBe(0);
  });

  it('lets the event loop turn between two jobs (work the first job started runs before the second)', async () => {
    const queue = new TurnQueue();
    const events: string[] = [];
    const first = queue.run(() => {
      events.push('job 1');
      setImmediate(() => events.push('callback queued by job 1'));
    });
    const second = queue.run(() => events.push('job 2'));
    await Promise.all([first, second]);
    expect(events).toEqual(['job 1', 'callback queued by job 1', 'job 2']);
  });

  it('does not run a job in the caller\'s turn', async () => {
    const queue = new TurnQueue();
    let ran = false;
    const done = queue.run(() => (ran = true));
    expect(ran).toBe(false);
    await done;
    expect(ran).toBe(true);
  });

  it('rejects the promise of a job that throws and runs the jobs after it', async () => {
    const queue = new TurnQueue();
    const failing = queue.run(() => {
      throw new Error('bad job');
    });
    const next = queue.run(() => 'next');
    await expect(failing).rejects.toThrow('bad job');
    await expect(next).resolves.toBe('next');
  });
});

describe('TurnQueue abandoned jobs', () => {
  it('skips a job whose caller has gone by its turn (resolves undefined) and runs the next', async () => {
    const queue = new TurnQueue();
    const ran: string[] = [];
    let callerGone = false;
    const first = queue.run(() => {
      ran.push('first');
      callerGone = true; // e.g. the client closed the connection while the second job waited
    });
    const second = queue.run(() => ran.push('second'), () => callerGone);
    const third = queue.run(() => (ran.push('third'), 'third'), () => false);
    expect(await second).toBeUndefined();
    expect(await third).toBe('third');
    await first;
    expect(ran).toEqual(['first', 'third']);
  });
});
