/**
 * What a load reports while it runs. Plain JSON objects, so they can cross a process boundary
 * (the CLI runs the load in a child process and renders these in the parent).
 */
export type LoadProgressEvent =
  | { type: 'load-start'; label: string; sourceDir: string; storeDir: string; ignoredFiles: string[] }
  | { type: 'table-start'; table: string; file: string; dialect: string }
  | { type: 'table-rows'; table: string; rows: number }
  /** `cpuMs`: CPU time of the loading process (all its threads) over the table, beside its wall time `elapsedMs`. */
  | { type: 'table-done'; table: string; rowsRead: number; rowsStored: number; elapsedMs: number; cpuMs?: number }
  | { type: 'table-missing'; table: string }
  | { type: 'step-start'; step: string }
  /** How far a long step is (`total` null when unknown in advance); `unit` names what is counted. */
  | { type: 'step-progress'; step: string; done: number; total: number | null; unit: string }
  | { type: 'step-done'; step: string; elapsedMs: number; cpuMs?: number }
  | { type: 'note'; message: string };

export type LoadProgressListener = (event: LoadProgressEvent) => void;

/**
 * A stopwatch of the process's CPU time (user + system, every thread), in ms since it was made: beside a step's wall
 * time it says whether the step computes on one core (≈ wall), on both (≈ 2 × wall) or waits for the disk (< wall).
 */
export function cpuStopwatch(): () => number {
  const start = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(start);
    return Math.round((used.user + used.system) / 1000);
  };
}
