/**
 * The primary's watch on a data directory's releases (inotify through fs.watch): a build renamed into releases/, a
 * build removed, or default-release rewritten calls `onChange` once per burst, so that every worker rescans at once
 * instead of on its own 2-second timer (which stays, for file systems without change events).
 */
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { releasesDir } from '../../store/data-dir.js';

/** Events closer together than this are one change (a load publishes with one rename, then removes older builds). */
const SETTLE_MS = 50;
const DEFAULT_RELEASE_FILE = 'default-release';
const RELEASES_DIR_NAME = 'releases';

export class ReleaseWatch {
  private readonly watchers: FSWatcher[] = [];
  private releasesWatched = false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly dataDir: string,
    private readonly onChange: () => void,
  ) {
    this.add(dataDir, (name) => {
      if (name === RELEASES_DIR_NAME) this.watchReleases();
      if (name === DEFAULT_RELEASE_FILE || name === RELEASES_DIR_NAME) this.changed();
    });
    this.watchReleases();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const w of this.watchers) w.close();
  }

  private watchReleases(): void {
    const dir = releasesDir(this.dataDir);
    if (this.releasesWatched || !existsSync(dir)) return;
    this.releasesWatched = this.add(dir, (name) => {
      // A load in progress writes into .tmp-<label>-<build>/; only its final rename matters.
      if (name && !name.startsWith('.')) this.changed();
    });
  }

  /** False when the directory cannot be watched (the workers' own rescans still pick releases up). */
  private add(dir: string, listener: (name: string | null) => void): boolean {
    try {
      const watcher = watch(dir, { persistent: false }, (_event, name) => listener(name === null ? null : String(name)));
      watcher.on('error', () => watcher.close());
      this.watchers.push(watcher);
      return true;
    } catch {
      return false;
    }
  }

  private changed(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(this.onChange, SETTLE_MS);
  }
}
