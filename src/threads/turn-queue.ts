/**
 * Runs long synchronous jobs (heavy requests on a server without worker threads, see ./worker-pool.ts) on this thread
 * one per event-loop turn, in queue order, so that responses already being written go on between jobs; each job is
 * told how many wait behind it, and a job whose caller has gone is skipped. The measurements are in docs/internals.md.
 */
/** A job, told how many jobs wait behind it. */
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
