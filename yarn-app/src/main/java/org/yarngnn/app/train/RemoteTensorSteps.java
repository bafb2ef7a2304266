package org.yarngnn.app.train;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.yarngnn.app.tensor.TensorClient;
import org.yarngnn.app.tensor.TensorResult;
import org.yarngnn.app.tensor.TensorTask;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.compute.train.LayerStep;

/**
 * The remote tensor backend of one graph worker (Dorylus's computation separation): the partition's own rows are
 * cut into vertex intervals, and each interval's tensor work (apply-vertex: the linear rows {@code H W}; its
 * backward; the loss) is a {@link TensorTask} for the tensor-worker pool, while gather, scatter, the edge softmax
 * of gat and the halo exchanges stay here. All intervals of a step are sent at once (the pool runs them on as
 * many tensor workers as it has) and their answers are taken in interval order while later ones still run, so
 * this worker's graph work on one interval overlaps the tensor work of the next. Weight gradients of the
 * intervals are added in interval order, so a run does not depend on which tensor worker answered first.
 */
final class RemoteTensorSteps {
  /** Largest task payload: an interval is cut smaller when its rows would exceed it. */
  static final long MAX_TASK_BYTES = 8L << 20;

  private final TensorClient client;
  private final int[] cuts;
  private long tasks;

  /** {@code widest}: the widest row any task of this model carries (input, linear or output rows). */
  RemoteTensorSteps(TensorClient client, int rows, int intervals, int widest) {
    this.client = client;
    this.cuts = cuts(rows, intervals, widest);
  }

  /** Interval boundaries {@code 0 = c_0 < c_1 < ... = rows}: at least {@code wanted} intervals, none too big. */
  static int[] cuts(int rows, int wanted, int widest) {
    if (rows == 0) {
      return new int[] {0}; // no own rows: no tasks
    }
    long maxRows = Math.max(1, MAX_TASK_BYTES / (4L * Math.max(1, widest)));
    int count = (int) Math.max(Math.min(wanted, Math.max(rows, 1)), (rows + maxRows - 1) / maxRows);
    int[] c = new int[count + 1];
    for (int i = 0; i <= count; i++) {
      c[i] = (int) ((long) rows * i / count);
    }
    return c;
  }

  int intervals() {
    return cuts.length - 1;
  }

  long tasks() {
    return tasks;
  }

  /** Apply-vertex of layer {@code k} on version {@code version}: linear rows, then message and self rows. */
  void forward(LayerStep s, int k, long version) throws Exception {
    List<CompletableFuture<TensorResult>> answers = new ArrayList<>();
    for (int i = 0; i + 1 < cuts.length; i++) {
      answers.add(submit(TensorTask.forward(0, k, version, s.droppedRows(cuts[i], cuts[i + 1]))));
    }
    DenseMatrix lin = s.linearRows();
    for (int i = 0; i < answers.size(); i++) {
      TensorResult r = take(answers.get(i));
      try {
        copyInto(r.rows(), lin, cuts[i], cuts[i + 1], "linear rows of layer " + k);
      } finally {
        r.release();
      }
      s.completeTransform(cuts[i], cuts[i + 1]);
    }
  }

  /**
   * The loss over the {@code mask}ed rows of {@code out} (labels {@code labels}, scaled by {@code scale}) into
   * {@code dLogits} (zero elsewhere); returns the loss sum.
   */
  double loss(DenseMatrix out, int[] labels, boolean[] mask, float scale, DenseMatrix dLogits, int k, long version)
      throws Exception {
    dLogits.zero();
    List<int[]> rowsOf = new ArrayList<>();
    List<CompletableFuture<TensorResult>> answers = new ArrayList<>();
    int c = out.cols();
    for (int i = 0; i + 1 < cuts.length; i++) {
      int count = 0;
      for (int r = cuts[i]; r < cuts[i + 1]; r++) {
        count += mask[r] ? 1 : 0;
      }
      int[] rows = new int[count];
      int[] y = new int[count];
      DenseMatrix o = new DenseMatrix(count, c);
      for (int r = cuts[i], j = 0; r < cuts[i + 1]; r++) {
        if (mask[r]) {
          rows[j] = r;
          y[j] = labels[r];
          System.arraycopy(out.data(), out.offset(r), o.data(), j * c, c);
          j++;
        }
      }
      rowsOf.add(rows);
      answers.add(count == 0 ? null : submit(TensorTask.loss(0, k, version, o, y, scale)));
    }
    double loss = 0;
    for (int i = 0; i < answers.size(); i++) {
      if (answers.get(i) == null) {
        continue;
      }
      TensorResult r = take(answers.get(i));
      try {
        int[] rows = rowsOf.get(i);
        if (r.rows().rows() != rows.length || r.rows().cols() != c) {
          throw new IllegalStateException("a tensor worker answered " + r.rows() + " logit gradients for "
              + rows.length + " rows");
        }
        for (int j = 0; j < rows.length; j++) {
          System.arraycopy(r.rows().data(), j * c, dLogits.data(), dLogits.offset(rows[j]), c);
        }
        loss += r.scalar();
      } finally {
        r.release();
      }
    }
    return loss;
  }

  /**
   * The row-local backward of layer {@code k}: the graph side here ({@link LayerStep#linearGradients}), the
   * tensor side per interval; weight gradients into {@code grads[base ..]}, input gradients (unless
   * {@code inputGradient} is false) into the step's {@link LayerStep#inputGradient()}.
   */
  void backward(LayerStep s, int k, long version, boolean inputGradient, float[] grads, int base)
      throws Exception {
    s.linearGradients(grads, base);
    DenseMatrix dLin = s.linearRows();
    List<CompletableFuture<TensorResult>> answers = new ArrayList<>();
    for (int i = 0; i + 1 < cuts.length; i++) {
      answers.add(submit(TensorTask.backward(0, k, version, s.droppedRows(cuts[i], cuts[i + 1]),
          rows(dLin, cuts[i], cuts[i + 1]), inputGradient)));
    }
    int pc = s.layer().paramCount();
    for (int i = 0; i < answers.size(); i++) {
      TensorResult r = take(answers.get(i));
      try {
        if (r.gradients().length != pc) {
          throw new IllegalStateException("a tensor worker answered " + r.gradients().length
              + " weight gradients for layer " + k + " of " + pc);
        }
        float[] g = r.gradients();
        for (int j = 0; j < pc; j++) {
          grads[base + j] += g[j];
        }
        if (inputGradient) {
          copyInto(r.rows(), s.inputGradient(), cuts[i], cuts[i + 1], "input gradients of layer " + k);
          s.finishInputGradient(cuts[i], cuts[i + 1]);
        }
      } finally {
        r.release();
      }
    }
  }

  private CompletableFuture<TensorResult> submit(TensorTask t) {
    tasks++;
    return client.submit(t);
  }

  private static TensorResult take(CompletableFuture<TensorResult> f) throws Exception {
    try {
      return f.get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception x ? x : e;
    }
  }

  /** A copy of rows {@code [from, to)} (a task owns its arrays until it is encoded). */
  private static DenseMatrix rows(DenseMatrix m, int from, int to) {
    float[] v = new float[(to - from) * m.cols()];
    System.arraycopy(m.data(), m.offset(from), v, 0, v.length);
    return new DenseMatrix(to - from, m.cols(), v);
  }

  private static void copyInto(DenseMatrix src, DenseMatrix dst, int from, int to, String what) {
    if (src.rows() != to - from || src.cols() != dst.cols()) {
      throw new IllegalStateException("a tensor worker answered " + src + " " + what + " for rows " + from + ".."
          + to);
    }
    System.arraycopy(src.data(), 0, dst.data(), dst.offset(from), src.rows() * src.cols());
  }
}
