/**
 * Starts a worker thread on a module beside the caller, from the built JavaScript or, under tsx (tests, benchmarks),
 * from the TypeScript source: the thread then registers the TypeScript loader before it imports the module.
 */
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** `relative` names the module without extension (`./pool-thread`), relative to `callerUrl` (the caller's import.meta.url). */
export function startModuleWorker(callerUrl: string, relative: string, options: WorkerOptions = {}): Worker {
  const source = callerUrl.endsWith('.ts');
  const url = new URL(`${relative}${source ? '.ts' : '.js'}`, callerUrl);
  return source
    ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`, { ...options, eval: true })
    : new Worker(fileURLToPath(url), options);
}
