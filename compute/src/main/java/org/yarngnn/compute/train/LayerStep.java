package org.yarngnn.compute.train;

import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.RowRanges;
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
  private final LayerCache cache;
  private final DenseMatrix hDrop;
  private final DenseMatrix msg;
  private final DenseMatrix self;
  private final DenseMatrix out;
  private final DenseMatrix dMsg;
  private final DenseMatrix dSelf;
  private final DenseMatrix dIn;
  private final GradPartials partials;
  private DenseMatrix linear;
  private GraphBlock edges;
  private OutEdges outEdges;

  /**
   * {@code needInputGradient}: compute {@link #inputGradient()} (false for the first layer, whose input are the
   * features). {@code seed} keys the dropout masks.
   */
  public LayerStep(TrainLayer layer, GraphBlock g, long seed, boolean needInputGradient) {
    this.layer = layer;
    this.g = g;
    this.seed = seed;
    int n = g.numNodes();
    this.cache = layer.newCache(g);
    this.hDrop = new DenseMatrix(n, layer.inWidth());
    this.msg = new DenseMatrix(g.numSlots(), layer.messageWidth());
    this.self = layer.selfWidth() > 0 ? new DenseMatrix(n, layer.selfWidth()) : null;
    this.out = new DenseMatrix(n, layer.outWidth());
    this.dMsg = new DenseMatrix(g.numSlots(), layer.messageWidth());
    this.dSelf = new DenseMatrix(n, Math.max(layer.selfGradWidth(), 0));
    this.dIn = needInputGradient ? new DenseMatrix(n, layer.inWidth()) : null;
    this.partials = new GradPartials(layer.paramCount());
    cache.hDrop = hDrop;
    cache.msg = msg;
    cache.self = self;
    cache.out = out;
    cache.seed = seed;
    setEdges(g);
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
      outEdges = OutEdges.of(e.inEdges());
    }
  }

  public GraphBlock edges() {
    return edges;
  }

  public OutEdges outEdges() {
    return outEdges;
  }

  /** Checks the layer input, records the pass's mode and epoch; returns the dropout rate of the pass. */
  private double beginForward(DenseMatrix h, long epoch, boolean training) {
    if (h.rows() < g.numNodes() || h.cols() != layer.inWidth()) {
      throw new IllegalArgumentException("layer " + layer.index() + " input " + h + " for " + g.numNodes()
          + " rows of width " + layer.inWidth());
    }
    cache.training = training;
    cache.epoch = epoch;
    return training ? layer.inputDropout() : 0;
  }

  /** Dropout (when {@code training}) of the own rows of {@code h}, then the transform of every own row. */
  public void forwardTransform(DenseMatrix h, long epoch, boolean training) {
    double p = beginForward(h, epoch, training);
    long[] ids = g.nodeIds();
    RowRanges.parallel(g.numNodes(), GRAIN, (from, to) -> {
      Dropout.apply(h, hDrop, ids, seed, epoch, layer.index(), p, from, to);
      layer.transform(g, hDrop, from, to, msg, self);
    });
  }

  /**
   * The split form of {@link #forwardTransform} for a tensor backend elsewhere: only the dropout of the own rows
   * of {@code h} into {@link #droppedInput()}; the linear rows ({@code Layer.linear} of those rows) come back
   * into {@link #linearRows()} and {@link #completeTransform} turns them into message and self rows.
   */
  public void forwardDropout(DenseMatrix h, long epoch, boolean training) {
    double p = beginForward(h, epoch, training);
    long[] ids = g.nodeIds();
    RowRanges.parallel(g.numNodes(), GRAIN, (from, to) ->
        Dropout.apply(h, hDrop, ids, seed, epoch, layer.index(), p, from, to));
  }

  /** The layer's input after dropout, own rows (what the linear part reads). */
  public DenseMatrix droppedInput() {
    return hDrop;
  }

  /**
   * Own rows of width {@link TrainLayer#linearWidth()}, allocated on first use: in the forward the linear rows
   * of {@link #droppedInput()}, in the backward their gradients ({@link #linearGradients}).
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
   * of the weights the graph side applies into {@code grads}. The tensor side ({@link TrainLayer#linearBackward})
   * gives the weight gradients of the linear part and the rows of {@link #inputGradient()}, which
   * {@link #finishInputGradient} completes.
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
    Dropout.backward(dIn, dIn, g.nodeIds(), seed, cache.epoch, layer.index(),
        cache.training ? layer.inputDropout() : 0, from, to);
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

  /** The per-destination part of {@link #backwardAggregate}. */
  public void aggregateBackwardRows(DenseMatrix dOut, float[] grads, int base) {
    if (dOut.rows() < g.numNodes() || dOut.cols() != layer.outWidth()) {
      throw new IllegalArgumentException("layer " + layer.index() + " output gradient " + dOut);
    }
    partials.run(g.numNodes(), grads, base,
        (from, to, buf) -> layer.aggregateBackward(edges, cache, dOut, from, to, dSelf, buf, 0));
  }

  /** Rows {@code [from, to)} of {@link #messageGradients()} (slots), in parallel. */
  public void computeMessageGradients(int from, int to) {
    RowRanges.parallel(from, to, GRAIN, (a, b) -> layer.messageGradients(edges, outEdges, cache, a, b, dMsg));
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
    long[] ids = g.nodeIds();
    partials.run(g.numNodes(), grads, base, (from, to, buf) -> {
      layer.transformBackward(g, cache, dMsg, dSelf, from, to, dIn, buf, 0);
      if (dIn != null) {
        Dropout.backward(dIn, dIn, ids, seed, cache.epoch, layer.index(), cache.training ? layer.inputDropout() : 0,
            from, to);
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

  /** The gradients of the own self rows (sage) or destination scores (gat). */
  public DenseMatrix selfGradients() {
    return dSelf;
  }
}
