package org.yarngnn.compute.link;

import java.util.Arrays;

/**
 * Negative destinations of link prediction, each a pure function of the seed, the epoch, the positive edge
 * {@code (src id, dst id)} and its index {@code j} (keys: {@link LinkKeys}), never of the worker that draws it: a
 * job's negatives, hence its losses, are the same for any number of workers.
 *
 * <p>The candidates are every node of the graph, by ascending id (each worker holds this list: 8 bytes a node,
 * plus 8 for the degree sampler's cumulative weights). {@link Kind#UNIFORM} picks candidate
 * {@code floor(u * n)}; {@link Kind#DEGREE} picks candidate i with probability proportional to
 * {@code inDegree_i^0.75} (word2vec's unigram^0.75, PinSage's and GraphSAGE's choice), by binary search of
 * {@code u * total} in the cumulative weights. Training negatives may hit a true edge or the source itself, as
 * PyTorch GAE and DGL's samplers allow: rejection would make a negative depend on edges other workers own.
 * Evaluation negatives ({@link #evaluationNegative}) never do.
 */
public final class NegativeSampler {
  /** How training negatives are drawn. */
  public enum Kind { UNIFORM, DEGREE }

  private final long[] ids;
  /** DEGREE: cumulative weights, {@code cumulative[i]} = sum of the weights of candidates 0..i; else null. */
  private final double[] cumulative;

  private NegativeSampler(long[] ids, double[] cumulative) {
    this.ids = ids;
    this.cumulative = cumulative;
  }

  /**
   * A sampler over {@code ids} (strictly ascending, not copied); {@code inDegree[i]} (candidate i's in-degree in
   * the message graph) is read only for {@link Kind#DEGREE}.
   *
   * @throws IllegalArgumentException when ids are empty or not ascending, or no candidate has an in-edge (DEGREE)
   */
  public static NegativeSampler of(Kind kind, long[] ids, long[] inDegree) {
    if (ids.length == 0) {
      throw new IllegalArgumentException("no candidate nodes for negatives");
    }
    for (int i = 1; i < ids.length; i++) {
      if (ids[i] <= ids[i - 1]) {
        throw new IllegalArgumentException("candidate ids not strictly ascending at " + i);
      }
    }
    if (kind == Kind.UNIFORM) {
      return new NegativeSampler(ids, null);
    }
    if (inDegree.length != ids.length) {
      throw new IllegalArgumentException(inDegree.length + " degrees for " + ids.length + " candidates");
    }
    double[] c = new double[ids.length];
    double sum = 0;
    for (int i = 0; i < ids.length; i++) {
      sum += Math.pow(inDegree[i], 0.75);
      c[i] = sum;
    }
    if (!(sum > 0)) {
      throw new IllegalArgumentException("the degree sampler needs a node with an in-edge");
    }
    return new NegativeSampler(ids, c);
  }

  public int candidates() {
    return ids.length;
  }

  /** The candidate ids, ascending (not a copy). */
  public long[] ids() {
    return ids;
  }

  /** The index of the candidate that uniform {@code u} in [0, 1) selects. */
  private int pick(double u) {
    if (cumulative == null) {
      return (int) Math.min(ids.length - 1, (long) (u * ids.length));
    }
    double target = u * cumulative[cumulative.length - 1];
    int i = Arrays.binarySearch(cumulative, target);
    // An exact hit on cumulative[i] belongs to the next candidate (candidate i covers [c[i-1], c[i])).
    i = i >= 0 ? i + 1 : -i - 1;
    // Skip zero-weight candidates that share the boundary; stay in range when u * total rounds up to the total.
    while (i < ids.length - 1 && cumulative[i] <= target) {
      i++;
    }
    return Math.min(i, ids.length - 1);
  }

  /** The id of training negative {@code j} of positive {@code src -> dst} at {@code epoch}. */
  public long negative(long seed, long epoch, long src, long dst, int j) {
    return ids[pick(LinkKeys.unit(LinkKeys.draw(LinkKeys.key(LinkKeys.NEGATIVE, seed, epoch, src, dst), j)))];
  }

  /** Training negatives {@code 0..k-1} of positive {@code src -> dst} into {@code out[at..at+k)}. */
  public void negatives(long seed, long epoch, long src, long dst, int k, long[] out, int at) {
    long key = LinkKeys.key(LinkKeys.NEGATIVE, seed, epoch, src, dst);
    for (int j = 0; j < k; j++) {
      out[at + j] = ids[pick(LinkKeys.unit(LinkKeys.draw(key, j)))];
    }
  }

  /** Whether {@code src -> candidate} is an edge in any split (held-out ones included). */
  @FunctionalInterface
  public interface EdgeTest {
    boolean isEdge(long src, long candidate);
  }

  /**
   * Evaluation negative {@code j} of held-out edge {@code src -> dst}: a uniform candidate that is neither
   * {@code src} nor an edge of {@code src} in any split, fixed by the seed (the same every epoch). Draws are
   * tried in order; after 64 rejections (a source adjacent to most of the graph) the first acceptable candidate
   * at or after the last draw, cyclically, is taken, so the result always exists when any does and is still a
   * pure function of its keys.
   *
   * @throws IllegalArgumentException when {@code src} is adjacent to every other candidate
   */
  public long evaluationNegative(long seed, long src, long dst, int j, EdgeTest edges) {
    long steps = evaluationSteps();
    for (long step = 0; step < steps; step++) {
      long c = evaluationCandidate(seed, src, dst, j, step);
      if (c != src && !edges.isEdge(src, c)) {
        return c;
      }
    }
    throw new IllegalArgumentException("node " + src + " is adjacent to every node: it has no negative to "
        + "evaluate its held-out edge to " + dst + " against");
  }

  /** Rejection draws of {@link #evaluationNegative} before its cyclic scan. */
  public static final int EVALUATION_DRAWS = 64;

  /** Candidates {@link #evaluationNegative} tries at most: its draws, then one cyclic pass over every candidate. */
  public long evaluationSteps() {
    return EVALUATION_DRAWS + (long) ids.length;
  }

  /**
   * The candidate {@link #evaluationNegative} tries at {@code step} ({@code 0 <= step < evaluationSteps()}): draw
   * {@code step} for the first {@value #EVALUATION_DRAWS}, then the candidates after the last draw's, cyclically.
   * The answer is the first acceptable candidate in step order, so a caller that tries several steps at once (a
   * distributed test of "is an edge", asked of the candidates' owners) takes the same one.
   */
  public long evaluationCandidate(long seed, long src, long dst, int j, long step) {
    long key = LinkKeys.key(LinkKeys.EVAL_NEGATIVE, seed, j, src, dst);
    if (step < EVALUATION_DRAWS) {
      return ids[drawIndex(key, step)];
    }
    int last = drawIndex(key, EVALUATION_DRAWS - 1);
    return ids[(int) ((last + (step - EVALUATION_DRAWS + 1)) % ids.length)];
  }

  private int drawIndex(long key, long attempt) {
    return (int) Math.min(ids.length - 1, (long) (LinkKeys.unit(LinkKeys.draw(key, attempt)) * ids.length));
  }
}
