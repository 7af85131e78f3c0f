/** Number, duration and size formatting for the load's terminal output. */

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** "1 row", "2 rows", "1,234 duplicates": a count with its noun in the right number. */
export function formatQuantity(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : plural}`;
}

/** 4.2 s, 1:05, 1:02:03 */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

export function formatRate(rows: number, ms: number, unit = 'rows'): string {
  return ms > 0 ? `${formatCount(Math.round((rows * 1000) / ms))} ${unit}/s` : '';
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`;
}
