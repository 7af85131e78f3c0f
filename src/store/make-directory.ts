/**
 * Creates a directory and its missing parents with a bounded walk (one mkdir per missing path
 * component), failing at once with the path and the reason; Node's own `mkdir({recursive: true})`
 * spins forever where mkdir answers ENOENT under an existing parent (e.g. /proc/omopterm-data).
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

function errorCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

function isDirectory(path: string): boolean | undefined {
  try {
    return statSync(path).isDirectory();
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new Error(`cannot create directory '${path}': ${(err as Error).message}`);
  }
}

/** mkdir -p `path`: a no-op when it is a directory, otherwise an Error naming the path and why it cannot be created. */
export function makeDirectory(path: string): void {
  const target = resolve(path);
  const missing: string[] = [];
  for (let dir = target; ; dir = dirname(dir)) {
    const existing = isDirectory(dir);
    if (existing === true) break;
    if (existing === false) throw new Error(`cannot create directory '${target}': '${dir}' exists and is not a directory`);
    missing.push(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir);
    } catch (err) {
      const code = errorCode(err);
      if (code === 'EEXIST' && isDirectory(dir)) continue;
      const why =
        code === 'ENOENT'
          ? `mkdir answers ENOENT although '${dirname(dir)}' exists: that file system does not allow creating directories there`
          : (err as Error).message;
      throw new Error(`cannot create directory '${target}': ${why}`);
    }
  }
}
