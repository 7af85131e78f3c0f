/** The report of an embedding run (`omopterm embed`, and the vectors line of `omopterm load`). */
import type { EmbedResult } from './embed-release.js';
import { formatBytes, formatCount, formatDuration } from './format.js';

/** One line: what was embedded, by which provider, how long it took, how big the files are. */
export function formatEmbedSummary(result: EmbedResult): string {
  return (
    `${formatCount(result.conceptCount)} concept vectors from ${formatCount(result.entryCount)} names and synonyms ` +
    `(${result.provider}, ${result.dimension} dimensions) in ${formatDuration(result.elapsedMs)}; ` +
    `${result.files.dir} (entries ${formatBytes(result.entriesBytes)}, vectors ${formatBytes(result.vectorsBytes)})`
  );
}
