package org.yarngnn.compute.train;

import java.util.ArrayList;
import java.util.List;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.RowRanges;
import org.yarngnn.compute.model.LayerType;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * One layer of training over one block (a whole graph, or a partition with halo slots), with its buffers
 * allocated once, in steps a caller interleaves with halo exchanges the way
 * {@link org.yarngnn.compute.infer.LayerwiseInference#layer} does:
 * <pre>
 * forwardTransform(h, epoch, training)   // dropout + transform own rows -> messages() rows [0, n)
 *   ... peers' message rows into messages() rows [n, numSlots) ...
 * forwardAggregate()                     // -> output()
 * ...
 * backwardAggregate(dOut, grads, base)   // -> messageGradients() rows of every slot, bias grads
 *   ... halo rows [n, numSlots) of messageGradients() to their owners; rows received for own nodes added
 *       into rows [0, n) (addMessageGradient) ...
 * backwardTransform(grads, base)         // -> inputGradient() (the previous layer's dOut), weight grads
 * </pre>
 * Gradients are added into {@code grads[base .. base + layer.paramCount())} (the caller zeroes them per step).
 */
public final class LayerStep {
  private static final int GRAIN = 256;

  private final TrainLayer layer;
  private final GraphBlock g;
  private final long seed;
  private final boolean needInputGradient;
  private final LayerCache cache;
  private final DenseMatrix msg;
  private final DenseMatrix self;
  private final DenseMatrix out;
  private final DenseMatrix dMsg;
  private final DenseMatrix dSelf;
  private final DenseMatrix dIn;
  /** The work rows of the backward when they cannot go in place (null until needed, or planned). */
  private DenseMatrix ownAux;
  /** In a chain, the next step's input gradient: the output gradient this step may overwrite with its work
   * rows (it is dead once they are computed). */
  private DenseMatrix inPlaceOut;
  /** The out-edges of {@link #block()}, shared by the steps of a chain. */
  private final BlockOutEdges blockOutEdges;
  private final GradPartials partials;
  /** The linear rows of a tensor backend elsewhere, then their gradients (null until used). */
  private DenseMatrix linear;
  private GraphBlock edges;
  private OutEdges outEdges;
  private OutEdges sampleOutEdges;

  /**
   * A step with buffers of its own. {@code needInputGradient}: compute {@link #inputGradient()} (false for the
   * first layer, whose input are the features). {@code seed} keys the dropout masks.
   */
  public LayerStep(TrainLayer layer, GraphBlock g, long seed, boolean needInputGradient) {
    this(layer, g, seed, needInputGradient, Buffers.own(layer, g, needInputGradient), new BlockOutEdges(g));
  }

  private LayerStep(TrainLayer layer, GraphBlock g, long seed, boolean needInputGradient, Buffers b,
      BlockOutEdges blockOutEdges) {
    this.layer = layer;
    this.g = g;
    this.seed = seed;
    this.needInputGradient = needInputGradient;
    this.cache = layer.newCache(g);
    this.msg = b.msg;
    this.self = b.self;
    this.out = b.out;
    this.dMsg = b.dMsg;
    this.dSelf = b.dSelf;
    this.dIn = b.dIn;
    this.ownAux = b.aux;
    this.blockOutEdges = blockOutEdges;
    this.partials = new GradPartials(layer.paramCount());
    cache.msg = msg;
    cache.self = self;
    cache.out = out;
    cache.seed = seed;
    setEdges(g);
  }

  /**
   * The steps of {@code layers} (layer k's input is layer k-1's output) over one block, their buffers shared
   * where lifetimes allow ({@link SharedBuffers}, positions: the forward of layer k at k, its backward at
   * {@code 2L-1-k}). A layer's output lives from its forward to its backward (the next layer reads it as input
   * and, regenerating its dropped-out input, in its backward); gcn and sage message and self rows only during
   * their forward (gat's until its backward); message gradients during the backward; an input gradient from
   * its layer's backward to the previous layer's, which overwrites it in place with its work rows. So the
   * forward's messages, the backward's message gradients and the input gradients of different layers share
   * arrays: a 2-layer gcn or sage of hidden width 128 keeps 3 arrays of 128 floats per node (messages and
   * their gradients; the hidden output; sage's self rows and the hidden layer's input gradient) instead of 7
   * (gcn) or 9 (sage) with a buffer per use, and the dropped-out inputs are not stored ({@link DroppedInput}).
   * The caller drives them as {@link Network} does: forward 0..L-1, backward L-1..0 (layer k's output gradient
   * the {@link #inputGradient()} of step k+1), and evaluation forwards between training passes; the last
   * step's output gradient may be any matrix.
   */
  public static LayerStep[] chain(List<TrainLayer> layers, GraphBlock g, long seed) {
    int depth = layers.size();
    SharedBuffers shared = new SharedBuffers();
    List<Buffers.Planned> planned = new ArrayList<>();
    for (int k = 0; k < depth; k++) {
      planned.add(Buffers.plan(shared, layers.get(k), g, k, depth));
    }
    shared.allocate();
    BlockOutEdges blockOutEdges = new BlockOutEdges(g);
    LayerStep[] steps = new LayerStep[depth];
    for (int k = 0; k < depth; k++) {
      steps[k] = new LayerStep(layers.get(k), g, seed, k > 0, planned.get(k).bind(), blockOutEdges);
    }
    for (int k = 0; k + 1 < depth; k++) {
      steps[k].inPlaceOut = steps[k + 1].dIn;
    }
    return steps;
  }

  /** A step's matrices. */
  private record Buffers(DenseMatrix msg, DenseMatrix self, DenseMatrix out, DenseMatrix dMsg, DenseMatrix dSelf,
      DenseMatrix dIn, DenseMatrix aux) {
    static Buffers own(TrainLayer l, GraphBlock g, boolean needInputGradient) {
      int n = g.numNodes();
      return new Buffers(new DenseMatrix(g.numSlots(), l.messageWidth()),
          l.selfWidth() > 0 ? new DenseMatrix(n, l.selfWidth()) : null, new DenseMatrix(n, l.outWidth()),
          new DenseMatrix(g.numSlots(), l.messageWidth()), new DenseMatrix(n, l.selfGradWidth()),
          needInputGradient ? new DenseMatrix(n, l.inWidth()) : null, new DenseMatrix(n, l.outWidth()));
    }

    /** Layer k of {@code depth}'s requests, lifetimes as {@link #chain} says. */
    static Planned plan(SharedBuffers s, TrainLayer l, GraphBlock g, int k, int depth) {
      int n = g.numNodes();
      int slots = g.numSlots();
      int f = k;
      int b = 2 * depth - 1 - k;
      boolean keepsMessages = l.spec().type() == LayerType.GAT; // its backward reads them
      return new Planned(g, l,
          s.request((long) slots * l.messageWidth(), f, keepsMessages ? b : f),
          l.selfWidth() > 0 ? s.request((long) n * l.selfWidth(), f, f) : null,
          s.request((long) n * l.outWidth(), f, b),
          s.request((long) slots * l.messageWidth(), b, b),
          s.request((long) n * l.selfGradWidth(), b, b),
          k > 0 ? s.request((long) n * l.inWidth(), b, b + 1) : null,
          // the last layer's output gradient is the caller's: its work rows need their own array
          k == depth - 1 ? s.request((long) n * l.outWidth(), b, b) : null);
    }

    record Planned(GraphBlock g, TrainLayer l, SharedBuffers.Request msg, SharedBuffers.Request self,
        SharedBuffers.Request out, SharedBuffers.Request dMsg, SharedBuffers.Request dSelf,
        SharedBuffers.Request dIn, SharedBuffers.Request aux) {
      Buffers bind() {
        int n = g.numNodes();
        return new Buffers(new DenseMatrix(g.numSlots(), l.messageWidth(), msg.data()),
            self == null ? null : new DenseMatrix(n, l.selfWidth(), self.data()),
            new DenseMatrix(n, l.outWidth(), out.data()),
            new DenseMatrix(g.numSlots(), l.messageWidth(), dMsg.data()),
            new DenseMatrix(n, l.selfGradWidth(), dSelf.data()),
            dIn == null ? null : new DenseMatrix(n, l.inWidth(), dIn.data()),
            aux == null ? null : new DenseMatrix(n, l.outWidth(), aux.data()));
      }
    }
  }

  /** The out-edges of a block's own edges, built on first use and shared. */
  private static final class BlockOutEdges {
    private final GraphBlock g;
    private OutEdges value;

    BlockOutEdges(GraphBlock g) {
      this.g = g;
    }

    synchronized OutEdges get() {
      if (value == null) {
        value = OutEdges.of(g.inEdges());
      }
      return value;
    }
  }

  public TrainLayer layer() {
    return layer;
  }

  public GraphBlock block() {
    return g;
  }

  /** The in-edges the layer aggregates over from now on (e.g. this epoch's sample of {@link #block()}). */
  public void setEdges(GraphBlock e) {
    if (e != edges) {
      if (e.numNodes() != g.numNodes() || e.numSlots() != g.numSlots()) {
        throw new IllegalArgumentException("edges of another block");
      }
      edges = e;
      outEdges = null; // built when a backward needs it: an evaluation forward does not
    }
  }

  public GraphBlock edges() {
    return edges;
  }

  /** The transpose of {@link #edges()} (a sample's in reused arrays). */
  public OutEdges outEdges() {
    if (outEdges == null) {
      if (edges == g) {
        outEdges = blockOutEdges.get();
      } else {
        sampleOutEdges = OutEdges.of(edges.inEdges(), sampleOutEdges);
        outEdges = sampleOutEdges;
      }
    }
    return outEdges;
  }

  /**
   * Dropout (when {@code training}) of the own rows of {@code h}, then the transform of every own row; {@code h}
   * must stay unchanged until this step's backward (its dropped-out rows are regenerated there).
   */
  public void forwardTransform(DenseMatrix h, long epoch, boolean training) {
    double p = bindInput(h, epoch, training);
    DroppedInput in = cache.input;
    if (!in.dropped()) {
      RowRanges.parallel(g.numNodes(), GRAIN, (from, to) -> layer.transform(g, h, from, to, msg, self));
      return;
    }
    long[] ids = g.nodeIds();
    int width = layer.inWidth();
    RowRanges.parallel(g.numNodes(), GRAIN, (from, to) -> {
      in.computeMask(ids, seed, epoch, layer.index(), p, from, to);
      float[] rows = GradOps.scratch(1, GradOps.BLOCK * width);
      DenseMatrix block = new DenseMatrix(GradOps.BLOCK, width, rows);
      for (int b = from; b < to; b += GradOps.BLOCK) {
        int m = Math.min(GradOps.BLOCK, to - b);
        in.rows(b, m, rows);
        layer.transformRows(g, block, GradOps.consecutive(b, m), m, msg, self);
      }
    });
  }

  /** Checks and binds the layer input of a pass, records its mode and epoch; returns its dropout rate. */
  private double bindInput(DenseMatrix h, long epoch, boolean training) {
    if (h.rows() < g.numNodes() || h.cols() != layer.inWidth()) {
      throw new IllegalArgumentException("layer " + layer.index() + " input " + h + " for " + g.numNodes()
          + " rows of width " + layer.inWidth());
    }
    cache.training = training;
    cache.epoch = epoch;
    double p = training ? layer.inputDropout() : 0;
    cache.input.bind(h, p, g.numNodes(), needInputGradient);
    return p;
  }

  /**
   * The split form of {@link #forwardTransform} for a tensor backend elsewhere: only the dropout of the own rows
   * of {@code h} (its mask; {@code h} must stay unchanged until this step's backward). The tensor side computes
   * the linear rows of {@link #droppedRows} ({@code Layer.linear}) into {@link #linearRows()}, and
   * {@link #completeTransform} turns them into message and self rows.
   */
  public void forwardDropout(DenseMatrix h, long epoch, boolean training) {
    double p = bindInput(h, epoch, training);
    DroppedInput in = cache.input;
    if (in.dropped()) {
      long[] ids = g.nodeIds();
      RowRanges.parallel(g.numNodes(), GRAIN, (from, to) ->
          in.computeMask(ids, seed, epoch, layer.index(), p, from, to));
    }
  }

  /** Own rows {@code [from, to)} of the layer's input after dropout, as a new matrix (what a tensor task carries). */
  public DenseMatrix droppedRows(int from, int to) {
    DenseMatrix m = new DenseMatrix(to - from, layer.inWidth());
    cache.input.rows(from, to - from, m.data());
    return m;
  }

  /**
   * Own rows of width {@link TrainLayer#linearWidth()}, allocated on first use: in the forward the linear rows
   * of the dropped-out input, in the backward their gradients ({@link #linearGradients}).
   */
  public DenseMatrix linearRows() {
    if (linear == null) {
      linear = new DenseMatrix(g.numNodes(), layer.linearWidth());
    }
    return linear;
  }

  /** Message and self rows of own rows {@code [from, to)} from their {@link #linearRows()}. */
  public void completeTransform(int from, int to) {
    DenseMatrix lin = linearRows();
    RowRanges.parallel(from, to, GRAIN, (a, b) -> layer.layer().completeTransform(g, lin, a, b, msg, self));
  }

  /**
   * The graph side of {@link #backwardTransform} for a tensor backend elsewhere: the gradient of every own row's
   * linear row into {@link #linearRows()} (after the message gradients of peers were added), and the gradients
   * of the weights the graph side applies (gat's attention vectors) into {@code grads}. The tensor side
   * ({@link TrainLayer#linearBackward}) gives the linear weights' gradients and the rows of
   * {@link #inputGradient()}, which {@link #finishInputGradient} completes.
   */
  public void linearGradients(float[] grads, int base) {
    DenseMatrix lin = linearRows();
    int lw = layer.linearWidth();
    partials.run(g.numNodes(), grads, base, (from, to, buf) ->
        layer.linearGradient(g, cache, dMsg, dSelf, from, to, lin.data(), from * lw, buf, 0));
  }

  /** Rows {@code [from, to)} of {@link #inputGradient()}, written as {@code dLin W^T}: the dropout's backward. */
  public void finishInputGradient(int from, int to) {
    if (dIn == null) {
      throw new IllegalStateException("layer " + layer.index() + " keeps no input gradient");
    }
    cache.input.backward(dIn, from, to);
  }

  /** Message rows of every slot: own rows after {@link #forwardTransform}; the caller fills the halo rows. */
  public DenseMatrix messages() {
    return msg;
  }

  /** Aggregates own rows {@code [from, to)} (all their message rows must be present), in parallel. */
  public void forwardAggregate(int from, int to) {
    RowRanges.parallel(from, to, GRAIN, (a, b) -> layer.aggregate(edges, cache, a, b));
  }

  public void forwardAggregate() {
    forwardAggregate(0, g.numNodes());
  }

  /** The output rows (post-activation) of own nodes. */
  public DenseMatrix output() {
    return out;
  }

  /**
   * The per-destination backward of every own row (bias gradients into {@code grads}), then
   * {@link #messageGradients(int, int)} of every slot, halo slots first (so a caller that wants to overlap can
   * instead call the two parts itself: {@link #aggregateBackwardRows} then the slot ranges it likes).
   */
  public void backwardAggregate(DenseMatrix dOut, float[] grads, int base) {
    aggregateBackwardRows(dOut, grads, base);
    computeMessageGradients(g.numNodes(), g.numSlots());
    computeMessageGradients(0, g.numNodes());
  }

  /**
   * The per-destination part of {@link #backwardAggregate}. In a chain, {@code dOut} being the next step's
   * input gradient, the work rows overwrite it.
   */
  public void aggregateBackwardRows(DenseMatrix dOut, float[] grads, int base) {
    if (dOut.rows() < g.numNodes() || dOut.cols() != layer.outWidth()) {
      throw new IllegalArgumentException("layer " + layer.index() + " output gradient " + dOut);
    }
    if (dOut == inPlaceOut) {
      cache.dAux = dOut;
    } else {
      if (ownAux == null) {
        ownAux = new DenseMatrix(g.numNodes(), layer.outWidth());
      }
      cache.dAux = ownAux;
    }
    partials.run(g.numNodes(), grads, base,
        (from, to, buf) -> layer.aggregateBackward(edges, cache, dOut, from, to, dSelf, buf, 0));
  }

  /** Rows {@code [from, to)} of {@link #messageGradients()} (slots), in parallel. */
  public void computeMessageGradients(int from, int to) {
    OutEdges oe = outEdges();
    RowRanges.parallel(from, to, GRAIN, (a, b) -> layer.messageGradients(edges, oe, cache, a, b, dMsg));
  }

  /** Gradients of every slot's message row; rows {@code [n, numSlots)} belong to peers. */
  public DenseMatrix messageGradients() {
    return dMsg;
  }

  /** Adds a peer's gradient of own node {@code row}'s message ({@code values[off .. off + messageWidth)}). */
  public void addMessageGradient(int row, float[] values, int off) {
    if (row < 0 || row >= g.numNodes()) {
      throw new IllegalArgumentException("message gradient for row " + row + " of " + g.numNodes());
    }
    float[] d = dMsg.data();
    int o = dMsg.offset(row);
    for (int c = 0; c < layer.messageWidth(); c++) {
      d[o + c] += values[off + c];
    }
  }

  /** Row-local backward of every own row: weight gradients into {@code grads}, then the input gradient. */
  public void backwardTransform(float[] grads, int base) {
    DroppedInput in = cache.input;
    partials.run(g.numNodes(), grads, base, (from, to, buf) -> {
      layer.transformBackward(g, cache, dMsg, dSelf, from, to, dIn, buf, 0);
      if (dIn != null) {
        in.backward(dIn, from, to);
      }
    });
  }

  /** Gradient of the layer's input rows (before dropout), or null when not asked for. */
  public DenseMatrix inputGradient() {
    return dIn;
  }

  /** What the forward kept (for tests and diagnostics). */
  public LayerCache cache() {
    return cache;
  }
}
