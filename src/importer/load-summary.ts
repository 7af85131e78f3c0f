/** The final report of a load: tables, rows, anomalies with examples, store size, time, location. */
import { formatEmbedSummary } from './embed-summary.js';
import { formatBytes, formatCount, formatDuration, formatQuantity } from './format.js';
import type { LoadResult } from './load-release.js';

export function formatLoadSummary(result: LoadResult): string {
  const m = result.manifest;
  const lines: string[] = [];
  lines.push(`Release ${result.label} loaded in ${formatDuration(m.elapsed_ms)}${result.madeDefault ? ' (default release)' : ''}`);
  lines.push(
    `  source:  ${m.source_dir}` +
      (m.source_vocabulary_version ? ` (vocabulary version "${m.source_vocabulary_version}"${m.release_date ? `, released ${m.release_date}` : ''})` : ''),
  );
  lines.push(`  store:   ${result.storePath} (${formatBytes(result.storeSizeBytes)})`);
  lines.push(
    result.embedding
      ? `  vectors: ${formatEmbedSummary(result.embedding)}`
      : `  vectors: none (skipped): semantic search answers 503 until \`omopterm embed --release ${result.label}\``,
  );
  lines.push('  tables:');
  const width = Math.max(...Object.keys(m.tables).map((t) => t.length));
  const rowsWidth = Math.max(...Object.values(m.tables).map((s) => formatQuantity(s.rows_stored, 'row').length));
  for (const [table, stats] of Object.entries(m.tables)) {
    const dropped = stats.rows_read - stats.rows_stored;
    const source = stats.file === null ? '(no file)' : stats.file;
    lines.push(
      `    ${table.padEnd(width)}  ${formatQuantity(stats.rows_stored, 'row').padStart(rowsWidth)}  ${source}` +
        (dropped > 0 ? `  (${formatCount(stats.rows_read)} read, ${formatQuantity(dropped, 'duplicate')} dropped)` : ''),
    );
  }
  if (result.ignoredFiles.length) lines.push(`  ignored (not vocabulary tables): ${result.ignoredFiles.join(', ')}`);
  if (result.removedBuilds.length) lines.push(`  replaced: ${result.removedBuilds.join(', ')}`);
  if (m.anomalies.length === 0) {
    lines.push('  anomalies: none');
  } else {
    lines.push(`  anomalies (${formatQuantity(m.anomalies.length, 'kind')}; first examples as file:line):`);
    for (const anomaly of m.anomalies) {
      lines.push(`    ${anomaly.kind}: ${formatCount(anomaly.count)} — ${anomaly.description}`);
      for (const example of anomaly.examples) lines.push(`      ${example}`);
    }
  }
  return lines.join('\n');
}
