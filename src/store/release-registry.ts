/**
 * Every release of a data directory, opened read-only, and the rule that turns a client's release selector into
 * one of them. The directory is rescanned periodically, so a newly loaded or replaced release appears without a
 * restart; a store that fails to open is reported and skipped while the others keep serving.
 */
import { buildDirName, effectiveDefaultLabel, listReleaseBuilds, type ReleaseBuild } from './data-dir.js';
import { DEMO_RELEASE_LABEL } from './release-manifest.js';
import type { ReleaseStore, ReleaseStoreOpener } from './release-store.js';

export const RELEASE_ALIASES = new Set(['latest', 'default', 'current']);

export interface OpenRelease {
  label: string;
  buildId: string;
  store: ReleaseStore;
  /** Where the store lives (so that another thread can open the same build). */
  build: ReleaseBuild;
}

export type ReleaseSelection =
  | { ok: true; release: OpenRelease }
  | { ok: false; reason: 'unknown'; available: string[] }
  | { ok: false; reason: 'none_loaded' };

export interface ReleaseRegistryOptions {
  dataDir: string;
  /** Opens a build (see ./openers/release-store-openers.ts for the implementation the server chooses). */
  openStore: ReleaseStoreOpener;
  /** How often the directory is rescanned; 0 disables rescanning. */
  rescanIntervalMs?: number;
  /** Called when a store cannot be opened (the release is skipped). */
  onError?: (message: string) => void;
  /** Called when the set of releases changes. */
  onChange?: (labels: string[], defaultLabel: string | null) => void;
}

/**
 * The version of a release's OMOP code system on the FHIR surface: the vocabulary release date as
 * YYYYMMDD (as tx.fhir.org and the HL7 OMOP tests write it), else the release label. The demo is `demo`:
 * it carries a real release's date, which a real release loaded beside it must own.
 */
export function codeSystemVersionOf(store: Pick<ReleaseStore, 'manifest'>): string {
  if (store.manifest.label === DEMO_RELEASE_LABEL) return DEMO_RELEASE_LABEL;
  return store.manifest.release_date?.replaceAll('-', '') ?? store.manifest.label;
}

/** The prefix of the OMOP code system's id (`omop-v20250827`), also accepted as a release selector. */
export const OMOP_CODE_SYSTEM_ID_PREFIX = 'omop-v';

/** Normalises the `YYYYvN` alias form (2025v2 → 2025.2). */
export function normaliseReleaseSelector(selector: string): string {
  const s = selector.trim();
  const alias = /^(\d{4})v(\d{1,2})$/i.exec(s);
  return alias ? `${alias[1]}.${alias[2]}` : s.toLowerCase();
}

export class ReleaseRegistry {
  private releases = new Map<string, OpenRelease>();
  private defaultLabel: string | null = null;
  private timer: NodeJS.Timeout | undefined;
  private readonly failed = new Set<string>();

  constructor(private readonly options: ReleaseRegistryOptions) {
    this.rescan();
    const interval = options.rescanIntervalMs ?? 2000;
    if (interval > 0) {
      this.timer = setInterval(() => this.rescan(), interval);
      this.timer.unref();
    }
  }

  /** Re-reads the data directory; opens new builds and closes superseded ones. */
  rescan(): void {
    let builds: ReleaseBuild[];
    try {
      builds = listReleaseBuilds(this.options.dataDir);
    } catch (err) {
      this.options.onError?.(`cannot read releases: ${(err as Error).message}`);
      return;
    }
    const next = new Map<string, OpenRelease>();
    const retired: OpenRelease[] = [];
    let changed = false;
    for (const build of builds) {
      const current = this.releases.get(build.label);
      if (current && current.buildId === build.buildId) {
        next.set(build.label, current);
        continue;
      }
      const key = buildDirName(build.label, build.buildId);
      if (this.failed.has(key)) {
        if (current) next.set(build.label, current);
        continue;
      }
      try {
        const store = this.options.openStore(build);
        next.set(build.label, { label: build.label, buildId: build.buildId, store, build });
        if (current) retired.push(current);
        changed = true;
      } catch (err) {
        this.failed.add(key);
        this.options.onError?.((err as Error).message);
        if (current) next.set(build.label, current);
      }
    }
    for (const [label, release] of this.releases) {
      if (!next.has(label) && !retired.includes(release)) {
        retired.push(release);
        changed = true;
      }
    }
    const visibleBuilds = builds.filter((b) => next.has(b.label));
    const defaultLabel = effectiveDefaultLabel(this.options.dataDir, visibleBuilds);
    if (defaultLabel !== this.defaultLabel) changed = true;
    this.releases = next;
    this.defaultLabel = defaultLabel;
    // Requests already running on a retired store finish first: close it a little later.
    if (retired.length) {
      setTimeout(() => retired.forEach((r) => r.store.close()), 30_000).unref();
    }
    if (changed) this.options.onChange?.(this.labels(), this.defaultLabel);
  }

  labels(): string[] {
    return [...this.releases.keys()];
  }

  getDefaultLabel(): string | null {
    return this.defaultLabel;
  }

  all(): OpenRelease[] {
    return [...this.releases.values()];
  }

  /**
   * The one resolver of a client's release selector, whatever surface or parameter it came from:
   * nothing (the default release), a label (2025.2), its YYYYvN form (2025v2), latest/default/current
   * (the default release), or the FHIR version of a release's OMOP code system (YYYYMMDD, or the code
   * system id omop-vYYYYMMDD; omop-v<label> for a release without a vocabulary date).
   */
  select(selector: string | undefined | null): ReleaseSelection {
    if (this.releases.size === 0) return { ok: false, reason: 'none_loaded' };
    const wanted = selector === undefined || selector === null || selector.trim() === '' ? 'default' : normaliseReleaseSelector(selector);
    const label = RELEASE_ALIASES.has(wanted) ? this.defaultLabel : wanted;
    const release = (label ? this.releases.get(label) : undefined) ?? this.byCodeSystemVersion(wanted);
    if (!release) return { ok: false, reason: 'unknown', available: this.labels() };
    return { ok: true, release };
  }

  /** The loaded release just before this one in vocabulary-date order (the code-system version), or undefined. */
  releaseBefore(label: string): OpenRelease | undefined {
    const ordered = this.all().sort((a, b) => codeSystemVersionOf(a.store).localeCompare(codeSystemVersionOf(b.store)));
    const at = ordered.findIndex((r) => r.label === label);
    return at > 0 ? ordered[at - 1] : undefined;
  }

  /** The release whose OMOP code-system version (or code-system id) this is; the default one first when several share a date. */
  private byCodeSystemVersion(wanted: string): OpenRelease | undefined {
    const version = wanted.startsWith(OMOP_CODE_SYSTEM_ID_PREFIX) ? wanted.slice(OMOP_CODE_SYSTEM_ID_PREFIX.length) : wanted;
    const matching = this.all().filter((r) => codeSystemVersionOf(r.store).toLowerCase() === version);
    return matching.find((r) => r.label === this.defaultLabel) ?? matching[0];
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    for (const r of this.releases.values()) r.store.close();
    this.releases.clear();
  }
}
