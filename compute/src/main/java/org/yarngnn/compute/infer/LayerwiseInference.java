package org.yarngnn.compute.infer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.RowRanges;
import org.yarngnn.compute.layer.Layer;
import org.yarngnn.compute.layer.Layers;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.sample.NeighbourSampler;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.compute.tensor.FloatArrays;

/**
 * All-node inference in one JVM, layer by layer (Deal's order): each layer samples every node's neighbourhood
 * once, transforms every node's row once, and aggregates every node once, all rows in parallel. Nothing is
 * computed twice, unlike per-target K-hop mini-batches.
 */
public final class LayerwiseInference {
  /** Called after each layer with its index and the layer count. */
  @FunctionalInterface
  public interface Progress {
    void layerDone(int layer, int layers);
  }

  private static final int GRAIN = 256;

  private final Model model;
  private final List<Layer> layers;
  private final long seed;
  /** With {@code reuseInput}: the last layer's message and self matrices, for the next layer to take. */
  private final Spare spareMsg = new Spare();
  private final Spare spareSelf = new Spare();

  public LayerwiseInference(Model model, long seed) {
    this.model = model;
    this.seed = seed;
    List<Layer> built = new ArrayList<>();
    List<LayerSpec> specs = model.spec().layers();
    for (int k = 0; k < specs.size(); k++) {
      built.add(Layers.create(specs.get(k), k, model.weights()));
    }
    this.layers = List.copyOf(built);
  }

  public List<Layer> layers() {
    return layers;
  }

  /** The sampler's seed. */
  public long seed() {
    return seed;
  }

  /**
   * Embeddings of every node of {@code g} (row i = local node i). {@code features} is consumed: it is
   * normalised in place and released after the first layer.
   */
  public DenseMatrix run(GraphBlock g, DenseMatrix features, Progress progress) {
    if (g.haloIds().length != 0) {
      throw new IllegalArgumentException("single-JVM inference needs the whole graph (no halo)");
    }
    RowNormalization.applyInput(model.spec().inputNormalize(), features);
    DenseMatrix h = features;
    for (int k = 0; k < layers.size(); k++) {
      h = runLayer(k, g, h);
      if (progress != null) {
        progress.layerDone(k, layers.size());
      }
    }
    releaseScratch();
    RowNormalization.applyOutput(model.spec().outputNormalize(), h);
    return h;
  }

  private DenseMatrix runLayer(int k, GraphBlock g, DenseMatrix h) {
    try {
      return layer(k, g, sampled(k, g), h, false, HaloExchangeHook.NONE, true);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * One layer over a partition, the step single-JVM and distributed inference share: transform every own row of
   * {@code h} once (with {@code fused}, {@code h} holds the first layer's {@link Layer#linear} rows, computed where
   * the features were read), let {@code exchange} fill the halo rows and aggregate every own row once over
   * {@code edges} (the layer's sampled in-edges of {@code g}). {@code h} is not used after the transform.
   */
  public DenseMatrix layer(int k, GraphBlock g, GraphBlock edges, DenseMatrix h, boolean fused,
      HaloExchangeHook exchange) throws Exception {
    return layer(k, g, edges, h, fused, exchange, false);
  }

  /**
   * {@link #layer}, and with {@code reuseInput} the output rows are written over {@code h}'s array when it has
   * their shape (every layer's aggregation sets each output row whole, and reads only the messages): for a caller
   * that keeps no other reference to {@code h}. A layer then touches no fresh output matrix (on 1M rows of 128,
   * 512 MB of first-touch page faults and of resident memory).
   */
  public DenseMatrix layer(int k, GraphBlock g, GraphBlock edges, DenseMatrix h, boolean fused,
      HaloExchangeHook exchange, boolean reuseInput) throws Exception {
    Layer layer = layers.get(k);
    int n = g.numNodes();
    boolean reuse = reuseInput && h.rows() == n && h.cols() == layer.outWidth()
        && h.data().length == (long) n * layer.outWidth();
    // The self rows over the input's rows, which become the output's: no self matrix at all.
    boolean selfOverInput = reuse && !fused && layer.selfWidth() > 0 && layer.selfOverInput();
    DenseMatrix msg = reuseInput ? spareMsg.take(g.numSlots(), layer.messageWidth())
        : new DenseMatrix(g.numSlots(), layer.messageWidth());
    DenseMatrix self = layer.selfWidth() <= 0 ? null : selfOverInput ? h
        : reuseInput ? spareSelf.take(n, layer.selfWidth()) : new DenseMatrix(n, layer.selfWidth());
    if (fused) {
      if (k != 0) {
        throw new IllegalArgumentException("only the first layer takes fused rows");
      }
      RowRanges.parallel(n, GRAIN, (from, to) -> layer.completeTransform(g, h, from, to, msg, self));
    } else {
      RowRanges.parallel(n, GRAIN, (from, to) -> layer.transform(g, h, from, to, msg, self));
    }
    DenseMatrix out = reuse ? h : new DenseMatrix(n, layer.outWidth());
    exchange.exchange(k, edges, msg, new HaloExchangeHook.Aggregation() {
      @Override
      public void range(int from, int to) {
        RowRanges.parallel(to - from, GRAIN,
            (a, b) -> layer.aggregate(edges, msg, self, from + a, from + b, out));
      }

      @Override
      public void rows(int[] rows) {
        forRuns(rows, (from, to) -> layer.aggregate(edges, msg, self, from, to, out));
      }
    });
    if (reuseInput) {
      spareMsg.keep(msg);
      // Not the output's array: the next layer's input, which it may write over itself.
      spareSelf.keep(selfOverInput ? null : self);
    }
    return out;
  }

  /**
   * Starts allocating, on a thread of its own, the first layer's message matrix for {@code slots} rows (own rows
   * and halo slots), for the first {@link #layer} run with {@code reuseInput} to take; a no-op when the count is
   * not a plausible row count, or when the heap's headroom (its maximum less what is in use, garbage included) is
   * not twice the array: the caller's own allocations meanwhile (a partition's build) must not be the ones that
   * run out, where without the reservation the matrix would only have come after them. For a caller that knows
   * the slot count before the layers (its rows and halo, once its partition's sources are known) and has work to
   * overlap the allocation with.
   */
  public void reserveFirstMessages(long slots) {
    long floats = slots * layers.get(0).messageWidth();
    Runtime rt = Runtime.getRuntime();
    long headroom = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
    if (slots > 0 && slots <= Integer.MAX_VALUE && floats <= Integer.MAX_VALUE - 16
        && 2 * floats * Float.BYTES <= headroom) {
      spareMsg.reserve(floats);
    }
  }

  /**
   * Lets go of the message and self matrices a layer run with {@code reuseInput} kept for the next one: after the
   * last layer, so that the write phase does not hold them.
   */
  public void releaseScratch() {
    spareMsg.keep(null);
    spareSelf.keep(null);
  }

  /**
   * A layer's matrix kept for the next layer whose matrix fits in its array. Every row a layer reads is written
   * first (its own rows by the transform, whole; the halo slots its edges reference by the exchange), so the next
   * layer needs no zeroed matrix: on 1M rows of 128 that is 512 MB (sage: twice that) of first-touched memory
   * saved a layer.
   */
  private static final class Spare {
    private float[] kept;
    private CompletableFuture<float[]> reserved;

    /** A matrix of this shape over the kept (or reserved) array when it holds enough values, else a new one. */
    DenseMatrix take(int rows, int cols) {
      float[] a = kept;
      kept = null;
      if (a == null && reserved != null) {
        a = reserved.join();
      }
      reserved = null;
      long need = (long) rows * cols;
      return a != null && a.length >= need ? new DenseMatrix(rows, cols, a) : new DenseMatrix(rows, cols);
    }

    void keep(DenseMatrix m) {
      kept = m == null ? null : m.data();
      reserved = null;
    }

    /**
     * Starts allocating {@code floats} values on a thread of its own ({@link FloatArrays#allocateAhead}): on 512
     * MB about a second of one core, while the other waits when it comes at the start of a layer; started while
     * the reading phases run, it overlaps them instead. A failed allocation (the heap was fuller than foreseen)
     * leaves {@link #take} to allocate.
     */
    void reserve(long floats) {
      reserved = FloatArrays.allocateAhead((int) floats, "reserve-messages");
    }
  }

  /**
   * Targeted inference in one JVM: the embeddings of {@code targets} (rows of {@code g}, any order, duplicates
   * allowed; row r of the result is {@code targets[r]}'s), computing only their {@link ReceptiveField}.
   * {@code features} is consumed as in {@link #run}.
   */
  public DenseMatrix runTargets(GraphBlock g, DenseMatrix features, int[] targets) throws Exception {
    ReceptiveField field = ReceptiveField.of(this, g, targets);
    RowNormalization.applyInput(model.spec().inputNormalize(), features);
    DenseMatrix h = features;
    for (int k = 0; k < layers.size(); k++) {
      h = layerRows(k, g, field.edges(k), h, false, field.inRows(k), field.outRows(k), HaloExchangeHook.NONE);
    }
    DenseMatrix out = new DenseMatrix(targets.length, h.cols());
    for (int r = 0; r < targets.length; r++) {
      System.arraycopy(h.data(), h.offset(targets[r]), out.data(), out.offset(r), h.cols());
    }
    RowNormalization.applyOutput(model.spec().outputNormalize(), out);
    return out;
  }

  /**
   * {@link #layer} restricted to a receptive field: transforms only the own rows {@code inRows} (ascending;
   * the rows whose messages this worker's aggregation and its peers read) and aggregates only {@code outRows}
   * (ascending) over {@code edges} (their sampled in-edges); every other output row stays zero. Row for row the
   * arithmetic is {@link #layer}'s, so each computed row equals the all-node job's.
   */
  public DenseMatrix layerRows(int k, GraphBlock g, GraphBlock edges, DenseMatrix h, boolean fused, int[] inRows,
      int[] outRows, HaloExchangeHook exchange) throws Exception {
    Layer layer = layers.get(k);
    int n = g.numNodes();
    DenseMatrix msg = new DenseMatrix(g.numSlots(), layer.messageWidth());
    DenseMatrix self = layer.selfWidth() > 0 ? new DenseMatrix(n, layer.selfWidth()) : null;
    if (fused && k != 0) {
      throw new IllegalArgumentException("only the first layer takes fused rows");
    }
    if (fused) {
      forRuns(inRows, (from, to) -> layer.completeTransform(g, h, from, to, msg, self));
    } else {
      // Gathered into dense batches: a field's rows come in short runs, and short runs would keep the GEMM in its
      // one-row tiles (slower, and left cold by the kernel warm-up); per row the arithmetic is the same.
      RowRanges.parallel(inRows.length, GRAIN, (a, b) -> {
        DenseMatrix batch = new DenseMatrix(b - a, h.cols());
        for (int i = a; i < b; i++) {
          System.arraycopy(h.data(), h.offset(inRows[i]), batch.data(), batch.offset(i - a), h.cols());
        }
        layer.transformRows(g, batch, java.util.Arrays.copyOfRange(inRows, a, b), b - a, msg, self);
      });
    }
    boolean[] wanted = new boolean[n];
    for (int r : outRows) {
      wanted[r] = true;
    }
    DenseMatrix out = new DenseMatrix(n, layer.outWidth());
    RowRanges.Body aggregate = (from, to) -> layer.aggregate(edges, msg, self, from, to, out);
    exchange.exchange(k, edges, msg, new HaloExchangeHook.Aggregation() {
      @Override
      public void range(int from, int to) {
        forRuns(wantedIn(outRows, wanted, from, to), aggregate);
      }

      @Override
      public void rows(int[] rows) {
        forRuns(wantedIn(rows, wanted, Integer.MIN_VALUE, Integer.MAX_VALUE), aggregate);
      }
    });
    return out;
  }

  /** The rows of {@code sorted} that are {@code wanted} and in {@code [from, to)}. */
  private static int[] wantedIn(int[] sorted, boolean[] wanted, int from, int to) {
    int[] keep = new int[sorted.length];
    int w = 0;
    for (int r : sorted) {
      if (r >= from && r < to && wanted[r]) {
        keep[w++] = r;
      }
    }
    return java.util.Arrays.copyOf(keep, w);
  }

  /** Runs {@code body} over the contiguous runs of {@code sorted} (ascending, distinct), runs in parallel. */
  private static void forRuns(int[] sorted, RowRanges.Body body) {
    RowRanges.parallel(sorted.length, GRAIN / 2, (a, b) -> {
      int p = a;
      while (p < b) {
        int q = p + 1;
        while (q < b && sorted[q] == sorted[q - 1] + 1) {
          q++;
        }
        body.run(sorted[p], sorted[q - 1] + 1);
        p = q;
      }
    });
  }

  /** The in-edges layer {@code k} aggregates over: a per-layer sample when the layer has a fanout. */
  public GraphBlock sampled(int k, GraphBlock g) {
    int fanout = layers.get(k).spec().fanout();
    return fanout < 0 ? g : NeighbourSampler.sample(g, fanout, seed, k);
  }

  /** Predicted class of every row: argmax of the final embedding. */
  public static int[] predictions(DenseMatrix embeddings) {
    int[] p = new int[embeddings.rows()];
    RowRanges.parallel(p.length, 4096, (from, to) -> {
      for (int r = from; r < to; r++) {
        p[r] = RowNormalization.argmax(embeddings.data(), embeddings.offset(r), embeddings.cols());
      }
    });
    return p;
  }
}
