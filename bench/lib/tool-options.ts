/** The number after `name` on a measuring tool's command line (`--sample 300`), or `fallback` when it is not given. */
export function numberOption(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
