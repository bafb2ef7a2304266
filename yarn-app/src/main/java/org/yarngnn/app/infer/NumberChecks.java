package org.yarngnn.app.infer;

import org.yarngnn.compute.layer.DegreeException;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.table.InputException;

/**
 * Numbers are finite or the job fails. Bad numbers that come from the input (a gcn degree made non-positive by
 * the edge weights) are bad input naming the edges table; anything else that is not finite by the time a row
 * is written (e.g. an overflow inside a layer) fails the job before a part is written, so nothing is committed.
 */
final class NumberChecks {
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
    // Rows are scanned in parallel ranges (a whole embeddings matrix is large); the first bad row in row order
    // is the one named, whichever range finds one first.
    java.util.concurrent.atomic.AtomicInteger first = new java.util.concurrent.atomic.AtomicInteger(ids.length);
    org.yarngnn.compute.kernel.RowRanges.parallel(ids.length, 8192, (from, to) -> {
      for (int r = from; r < to && r < first.get(); r++) {
        if (!finite(d, embeddings.offset(r), cols)) {
          first.accumulateAndGet(r, Math::min);
          return;
        }
      }
    });
    int r = first.get();
    if (r < ids.length) {
      int o = embeddings.offset(r);
      int c = 0;
      while (Float.isFinite(d[o + c])) {
        c++;
      }
      throw new IllegalStateException("node " + ids[r] + ": embedding is not finite after layer "
          + (layers > 0 ? Integer.toString(layers - 1) : "(the last)") + " (column " + c + " is " + d[o + c]
          + "); nothing was written");
    }
  }

  /**
   * Whether {@code d[o, o + n)} are all finite: a float is not finite exactly when its exponent bits are all
   * ones, which adding one to the exponent carries into the sign bit; an OR of those sums is branch-free.
   */
  private static boolean finite(float[] d, int o, int n) {
    int bad = 0;
    for (int c = 0; c < n; c++) {
      bad |= (Float.floatToRawIntBits(d[o + c]) & 0x7f800000) + 0x00800000;
    }
    return bad >= 0;
  }
}
