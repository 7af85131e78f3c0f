/** What the loader writes next to each release store, and what `releases`/the server read back. */

export interface TableLoadStats {
  /** Data rows read from the file (header excluded). */
  rows_read: number;
  /** Rows stored (after duplicates were dropped). */
  rows_stored: number;
  /** File the rows came from, relative to the source directory; null when the table was absent. */
  file: string | null;
  elapsed_ms: number;
}

export interface AnomalyKindSummary {
  /** Stable machine name, e.g. `duplicate_concept_id`. */
  kind: string;
  /** Human explanation of what was odd and what the loader did about it. */
  description: string;
  count: number;
  /** First few occurrences, as `FILE:LINE: detail`. */
  examples: string[];
}

export interface ReleaseManifest {
  schema_version: number;
  label: string;
  build_id: string;
  source_vocabulary_version: string | null;
  /** YYYY-MM-DD, derived from the source vocabulary version when it carries a date. */
  release_date: string | null;
  loaded_at: string;
  source_dir: string;
  elapsed_ms: number;
  /** Keyed by store table name (concept, concept_relationship, …). */
  tables: Record<string, TableLoadStats>;
  anomalies: AnomalyKindSummary[];
}

/** Release labels look like YYYY.Q (e.g. 2025.2). */
export const RELEASE_LABEL_PATTERN = /^\d{4}\.[1-9]\d?$/;

/**
 * The label of the bundled demo vocabulary (`omopterm demo`). It is not of the form YYYY.Q, so it
 * can never collide with a real release, and `omopterm load` refuses it (importer/release-label.ts).
 */
export const DEMO_RELEASE_LABEL = 'demo';

/** Whether a release directory's label is one a data directory can hold: YYYY.Q or the demo label. */
export function isStoredReleaseLabel(label: string): boolean {
  return label === DEMO_RELEASE_LABEL || RELEASE_LABEL_PATTERN.test(label);
}

/** Orders labels numerically (2025.10 after 2025.9); the demo label sorts before every real release. */
export function compareReleaseLabels(a: string, b: string): number {
  if (a === DEMO_RELEASE_LABEL || b === DEMO_RELEASE_LABEL) return Number(b === DEMO_RELEASE_LABEL) - Number(a === DEMO_RELEASE_LABEL);
  const [ay, aq] = a.split('.').map(Number) as [number, number];
  const [by, bq] = b.split('.').map(Number) as [number, number];
  return ay - by || aq - bq;
}
