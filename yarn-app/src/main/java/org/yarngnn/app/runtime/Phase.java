package org.yarngnn.app.runtime;

/**
 * The steps a driver runs on its graph workers, each as one barrier round ({@link PhaseCommand} out,
 * {@link PhaseDone} or {@link WorkerFailure} back). Inference uses them in this order; training's roles add their
 * own steps here, so that a worker can tell a step it does not serve from a corrupt frame.
 */
public enum Phase {
  /** Read the model and connect to every peer. */
  JOB,
  /** Read this worker's share of the node files (answers {@link PhaseResult.NodeCounts}). */
  READ_NODES,
  /** Route node rows to their owners under the command's ownership. */
  ROUTE_NODES,
  /** Route edges to their destinations' owners, check every endpoint, build the partition. */
  BUILD_EDGES,
  /** Load this worker's partition of a pre-partitioned graph. */
  LOAD_PARTITION,
  /** Sample every layer once and agree with each peer which rows it needs. */
  PLAN,
  /** Run one layer (the command's {@code layer}). */
  LAYER,
  /** Write this worker's part files. */
  WRITE,
  /** Report the worker's figures and stop. */
  EXIT;

  private static final Phase[] VALUES = values();

  /** The phase of wire code {@code code}, or null if there is none. */
  static Phase ofCode(int code) {
    return code >= 0 && code < VALUES.length ? VALUES[code] : null;
  }
}
