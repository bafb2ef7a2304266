package org.yarngnn.app.infer;

import org.yarngnn.compute.layer.DegreeException;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.table.InputException;

/**
 * Numbers are finite or the job fails. Bad numbers that come from the input (a gcn degree made non-positive by
 * the edge weights) are bad input naming the edges table; anything else that is not finite by the time a row
 * is written (e.g. an overflow inside a layer) fails the job before a part is written, so nothing is committed.
 */
public final class NumberChecks {
  private NumberChecks() {}

  /**
   * {@code e} as bad input naming {@code edges} (the edges table or partitioned graph the worker read) when a
   * {@link DegreeException} is among its causes; otherwise {@code e} itself.
   */
  public static Exception asBadInput(Exception e, String edges) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof DegreeException d) {
        return new InputException((edges == null ? "" : edges + ": ") + d.getMessage(), d);
      }
    }
    return e;
  }

  /**
   * @throws IllegalStateException {@code "node N: embedding is not finite after layer L"} for the first row
   *     (in row order) holding a NaN or infinite value; {@code L} is the last layer (0-based, as in model.json
   *     messages), or "the last layer" when {@code layers} is 0 (unknown)
   */
  public static void requireFinite(long[] ids, DenseMatrix embeddings, int layers) {
    float[] d = embeddings.data();
    int cols = embeddings.cols();
    for (int r = 0; r < ids.length; r++) {
      int o = embeddings.offset(r);
      for (int c = 0; c < cols; c++) {
        if (!Float.isFinite(d[o + c])) {
          throw new IllegalStateException("node " + ids[r] + ": embedding is not finite after layer "
              + (layers > 0 ? Integer.toString(layers - 1) : "(the last)") + " (column " + c + " is " + d[o + c]
              + "); nothing was written");
        }
      }
    }
  }
}
