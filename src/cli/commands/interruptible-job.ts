/**
 * How `load` and `embed` run their job: progress on stderr, SIGINT/SIGTERM handed to the job (which stops at its
 * next checkpoint and publishes nothing), the summary on stdout, and exit code 130/143 with the job's message when
 * interrupted; any other error goes to the CLI's error handler.
 */
import { LoadInterruptedError } from '../../importer/load-error.js';
import type { TerminalProgress } from '../../importer/terminal-progress.js';

export async function runInterruptibleJob<T>(
  progress: TerminalProgress,
  onInterrupt: (signal: NodeJS.Signals) => void,
  job: () => Promise<T>,
  summary: (result: T) => string,
): Promise<void> {
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onInterrupt);
  try {
    const result = await job();
    progress.finish();
    process.stdout.write(`${summary(result)}\n`);
  } catch (err) {
    progress.finish();
    if (err instanceof LoadInterruptedError) {
      process.stderr.write(`omopterm: ${err.message}\n`);
      process.exit(err.message.includes('SIGTERM') ? 143 : 130);
    }
    throw err;
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onInterrupt);
  }
}
