package org.yarngnn.app.runtime;

/** Why a worker gave up: what the driver makes of a {@link WorkerFailure}. */
public enum FailureKind {
  /** The input is bad (a file and row, or an option, is named): the job exits 2. */
  BAD_INPUT,
  /** A peer was lost or stopped answering: the job exits 1. */
  WORKER_LOST,
  /** Anything else that failed while running: the job exits 1. */
  INTERNAL;

  private static final FailureKind[] VALUES = values();

  static FailureKind ofCode(int code) {
    return code >= 0 && code < VALUES.length ? VALUES[code] : null;
  }
}
