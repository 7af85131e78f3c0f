/**
 * What a load reports while it runs. Plain JSON objects, so they can cross a process boundary
 * (the CLI runs the load in a child process and renders these in the parent).
 */
export type LoadProgressEvent =
  | { type: 'load-start'; label: string; sourceDir: string; storeDir: string; ignoredFiles: string[] }
  | { type: 'table-start'; table: string; file: string; dialect: string }
  | { type: 'table-rows'; table: string; rows: number }
  | { type: 'table-done'; table: string; rowsRead: number; rowsStored: number; elapsedMs: number }
  | { type: 'table-missing'; table: string }
  | { type: 'step-start'; step: string }
  /** How far a long step is (`total` null when unknown in advance); `unit` names what is counted. */
  | { type: 'step-progress'; step: string; done: number; total: number | null; unit: string }
  | { type: 'step-done'; step: string; elapsedMs: number }
  | { type: 'note'; message: string };

export type LoadProgressListener = (event: LoadProgressEvent) => void;
