/** How statistics turn counts into percentages (0–100, 2 decimals) and scores (0–1, 4 decimals). */

/** part / whole × 100, 2 decimals; 0 when whole is 0. */
export function percentage(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 10_000) / 100 : 0;
}

/** part / whole, 4 decimals; 0 when whole is 0. */
export function fraction(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0;
}

/** Percentage change from `before` to `after` (2 decimals); null when there is no earlier figure to compare with. */
export function percentageChange(before: number | null, after: number): number | null {
  return before === null || before === 0 ? null : Math.round(((after - before) / before) * 10_000) / 100;
}
