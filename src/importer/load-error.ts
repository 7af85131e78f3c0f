/** A load that cannot start or finish for a reason the user can fix; the message says what to do. */
export class LoadError extends Error {
  override readonly name = 'LoadError';
}

/** The load was interrupted (signal or abort); nothing was published. */
export class LoadInterruptedError extends Error {
  override readonly name = 'LoadInterruptedError';
}
