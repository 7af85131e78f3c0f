/**
 * Runs long synchronous jobs (a bulk search: milliseconds to tens of milliseconds of CPU) on this
 * thread one per event-loop turn, in the order they were queued.
 *
 * Why: a job run straight from its request's callback holds the event loop, and every request read
 * in the same turn ran its job in that turn too. Meanwhile no response was written on: a bulk
 * response (90–125 kB in the benchmark) does not fit a loopback socket in one write, so finishing it
 * took several turns, each as long as all the jobs read with it. Measured at scale 0.1 with 32
 * concurrent bulk requests (onSend → onResponse, i.e. the response being written): p50 66 ms,
 * p99 384 ms (search-bulk) and p50 270–610 ms, p99 1.5–2.7 s (search-unseen-bulk); some connections
 * got 2× the answers of others, and in 8 s of search-unseen-bulk 19 of 32 connections got none.
 * Here every job waits for its own turn (setImmediate: after the turn's I/O, so pending writes go
 * on and new requests are read and queued behind it): writing took p50 1 ms, p99 39 ms and
 * p50 6–8 ms, p99 62–194 ms, and every connection got the same number of answers (±1).
 *
 * A job is told how many jobs wait behind it: work that could use other cores (a bulk search split
 * with helper threads) should not when others wait. A job whose caller has gone by its turn (the
 * client closed the connection) is skipped: after a burst, abandoned requests would otherwise delay
 * every request queued behind them (measured: the first answers of a benchmark run waited up to 1 s
 * for the jobs its previous run left behind).
 */
export type TurnJob<T> = (waiting: number) => T;

export class TurnQueue {
  private readonly jobs: Array<() => void> = [];
  private scheduled = false;

  /** Jobs queued and not started. */
  get waiting(): number {
    return this.jobs.length;
  }

  /**
   * Runs `job` in its own event-loop turn, after the jobs queued before it; resolves to undefined
   * without running it when `abandoned()` says, at its turn, that nobody waits for the answer.
   */
  run<T>(job: TurnJob<T>, abandoned: () => boolean = () => false): Promise<T | undefined> {
    return new Promise<T | undefined>((resolve, reject) => {
      this.jobs.push(() => {
        try {
          resolve(abandoned() ? undefined : job(this.jobs.length));
        } catch (err) {
          reject(err);
        }
      });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.jobs.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.jobs.shift()?.();
      this.schedule();
    });
  }
}
