package org.yarngnn.app.runtime;

/**
 * The steps a driver runs on its graph workers, each as one barrier round ({@link PhaseCommand} out,
 * {@link PhaseDone} or {@link WorkerFailure} back). Inference uses them in this order; training's roles add their
 * own steps here (appended, so earlier codes keep their meaning), so that a worker can tell a step it does not serve from a corrupt frame.
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
  EXIT,
  /** Training: count the partition's labelled rows per split, refusing labels the model cannot predict
   * (answers {@link PhaseResult.LabelCounts}). */
  LABELS,
  /** Training: forward of layer {@code layer} in epoch {@code epoch} (dropout on, the epoch's samples). */
  FORWARD,
  /** Training: backward of layer {@code layer} (the last one starts from the loss); message gradients of halo
   * rows go back to their owners. */
  BACKWARD,
  /** Training: report the epoch's loss sum and weight gradients (answers {@link PhaseResult.TrainStep}). */
  GRADIENTS,
  /** Training: evaluation forward of layer {@code layer} (dropout off, inference's samples); the last layer
   * answers {@link PhaseResult.Accuracy}. */
  EVALUATE,
  /** Training with bounded asynchrony: the workers run the epochs from {@code epoch} on by themselves, reporting
   * every epoch and every evaluated weights version as messages while the round lasts; answers once all are run. */
  TRAIN_ASYNC,
  /**
   * After a lost worker was replaced ({@link WorkerRecovery}): every worker connects to every peer anew at the
   * command's generation (its {@code epoch} field) and gets ready to resume at the point its {@code layer} field
   * names (inference's points: {@code infer.LayerResume}).
   */
  REJOIN,
  /**
   * Retrieval ({@code topk}): score this worker's queries against every candidate, write its part file and
   * report its figures (answers {@link PhaseResult.WorkerReport}).
   */
  RETRIEVE,
  /** Link prediction, after PLAN: every worker learns every node id (the negatives' candidates; with the degree
   * sampler their in-degrees) and fixes its held-out edges' evaluation negatives. */
  LINK_PLAN,
  /** Link prediction, after the last layer's training forward: the loss of this worker's positives and their
   * negatives, output rows fetched from and gradients sent back to their owners. */
  LINK_LOSS,
  /** Link prediction, after the last layer's evaluation forward: the held-out edges' scores (answers {@link
   * PhaseResult.LinkScores}). */
  LINK_EVALUATE;

  private static final Phase[] VALUES = values();

  /** The phase's name in progress lines, figures and test hooks ({@code edges}, {@code load}, {@code read-nodes}). */
  public String label() {
    switch (this) {
      case BUILD_EDGES: return "edges";
      case LOAD_PARTITION: return "load";
      default: return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
  }

  /** The phase of wire code {@code code}, or null if there is none. */
  static Phase ofCode(int code) {
    return code >= 0 && code < VALUES.length ? VALUES[code] : null;
  }
}
