package org.yarngnn.compute.link;

/**
 * Which split an edge belongs to. Codes are those of the nodes table's split column
 * ({@code org.yarngnn.io.table.NodeSplit}): {@link #NONE} 0, {@link #TRAIN} 1, {@link #VAL} 2, {@link #TEST} 3.
 * {@code train} edges carry messages and are the positives; {@code val} and {@code test} edges are held out
 * (never messages, never positives); {@code none} edges only carry messages.
 *
 * <p>Without a split column, {@link #ofPair} holds out fractions of the edges by unordered pair: the draw is keyed
 * by the seed and {min(src, dst), max(src, dst)}, so both directions of an undirected edge (and parallel edges)
 * always share a split and the held-out set does not depend on the order or partitioning of the table.
 */
public final class LinkSplit {
  public static final byte NONE = 0;
  public static final byte TRAIN = 1;
  public static final byte VAL = 2;
  public static final byte TEST = 3;

  private LinkSplit() {}

  /**
   * The reason {@code val, test} are not usable fractions (each at least 0, their sum below 1), or null when they
   * are. A sum of 1 would leave no training edge at all.
   */
  public static String checkFractions(double val, double test) {
    if (!(val >= 0) || !(test >= 0) || !Double.isFinite(val) || !Double.isFinite(test)) {
      return "fractions must be numbers at least 0, not " + val + "," + test;
    }
    if (val + test >= 1) {
      return "fractions must sum to less than 1 (no training edge would be left), not " + val + " + " + test;
    }
    return null;
  }

  /** The split of edge {@code src -> dst} when {@code val} and {@code test} of the pairs are held out. */
  public static byte ofPair(long seed, long src, long dst, double val, double test) {
    double u = LinkKeys.unit(LinkKeys.draw(LinkKeys.key(LinkKeys.SPLIT, seed, 0, Math.min(src, dst),
        Math.max(src, dst)), 0));
    return u < val ? VAL : u < val + test ? TEST : TRAIN;
  }

  /** Whether edges of this split carry messages (are edges of the graph the model trains on). */
  public static boolean carriesMessages(byte split) {
    return split == TRAIN || split == NONE;
  }
}
