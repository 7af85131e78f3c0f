/**
 * How the long-running commands (`load`, `embed`) run their job: progress on stderr, SIGINT and
 * SIGTERM handed to the job (which stops at its next checkpoint and publishes nothing), the summary
 * line on stdout when it succeeds, and exit code 130 (SIGINT) or 143 (SIGTERM) with the job's message
 * when it was interrupted. Any other error propagates to the CLI's error handler.
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
