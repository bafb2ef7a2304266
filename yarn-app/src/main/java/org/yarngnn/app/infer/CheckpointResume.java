package org.yarngnn.app.infer;

import java.io.IOException;
import java.util.Locale;

/**
 * Where a second ApplicationMaster attempt of an inference continues, judged from the first attempt's
 * {@link LayerCheckpoints} alone: the files, never what the dead attempt said. Layer {@code k} (0-based) when
 * layer {@code k - 1}'s rows of every partition are whole checkpoints and, for a graph built from the tables,
 * every partition's checkpoint is whole too (a {@code --graph} job's workers read their partition files again);
 * layer 0 (the plan, then every layer) when only the partitions are whole; otherwise nowhere: the job starts
 * over. The last layer's output is never checkpointed, so {@code k} is at most the last layer. "Whole" is checked
 * from sizes and headers (each file is renamed into place once written, or vouched for by a manifest renamed into
 * place last); the checksums are checked by the workers that read them.
 */
record CheckpointResume(int layer, String reason) {
  /** Start over: no usable checkpoint, for {@code reason}. */
  static CheckpointResume none(String reason) {
    return new CheckpointResume(-1, reason);
  }

  public boolean resumes() {
    return layer >= 0;
  }

  /**
   * The resume point of a job of {@code workers} workers and {@code layers} layers whose partitions were built
   * from the tables ({@code fromTables}) or loaded from {@code --graph}.
   */
  public static CheckpointResume find(LayerCheckpoints cp, int workers, int layers, boolean fromTables)
      throws IOException {
    if (fromTables) {
      for (int p = 0; p < workers; p++) {
        String why = cp.partitionProblem(p, workers);
        if (why != null) {
          return none("partition " + p + " not checkpointed whole (" + why + ")");
        }
      }
    }
    String firstProblem = null;
    for (int k = layers - 1; k >= 1; k--) {
      String why = null;
      for (int p = 0; p < workers && why == null; p++) {
        why = cp.rowsProblem(k - 1, p);
      }
      if (why == null) {
        return new CheckpointResume(k, String.format(Locale.ROOT, "layer %d/%d's rows of every partition", k,
            layers));
      }
      firstProblem = firstProblem == null ? why : firstProblem;
    }
    if (fromTables) {
      return new CheckpointResume(0, "every partition, no finished layer");
    }
    return none(firstProblem == null ? "a one-layer model has no layer checkpoints"
        : "no layer's rows checkpointed whole (" + firstProblem + ")");
  }

  /** The log line of a second attempt: where it continues, or why it starts over. */
  public String describe(int attempt, int layers) {
    String head = "yarn-gnn infer: attempt " + attempt + " after the previous ApplicationMaster died: ";
    if (!resumes()) {
      return head + "running the job again (" + reason + ")";
    }
    return head + String.format(Locale.ROOT, "continuing at layer %d/%d from its checkpoints (%s); construction%s "
        + "not run again", layer + 1, layers, reason, layer == 0 ? "" : layer == 1 ? " and layer 1" : " and layers 1-" + layer);
  }
}
