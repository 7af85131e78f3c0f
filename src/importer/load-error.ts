/** A load that cannot start or finish for a reason the user can fix; the message says what to do. */
export class LoadError extends Error {
  override readonly name = 'LoadError';
}

/** The load was interrupted (signal or abort); nothing was published. */
export class LoadInterruptedError extends Error {
  override readonly name = 'LoadInterruptedError';
}

/** Throws the abort reason (or a LoadInterruptedError saying `what` was interrupted) once the signal is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined, what = 'the load'): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new LoadInterruptedError(`${what} was interrupted`);
}
