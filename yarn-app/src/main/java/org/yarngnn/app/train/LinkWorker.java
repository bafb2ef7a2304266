package org.yarngnn.app.train;

import java.util.Arrays;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.app.transport.ProtocolException;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.link.LinkMetrics;
import org.yarngnn.compute.link.NegativeSampler;
import org.yarngnn.compute.link.PairScores;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.table.InputException;
import org.yarngnn.partition.NodeIndex;
import org.yarngnn.partition.Ownership;

/**
 * A training graph worker's link prediction: its positives, held-out edges and negatives, and the exchanges with
 * its peers that let pairs whose rows live on different workers be scored exactly.
 *
 * <p><b>Who scores a pair.</b> A positive is a message in-edge (not a {@code none} edge) of a node this worker
 * owns, so the destination's
 * owner scores it, and its negatives (same source, any destination) too; a held-out edge is kept by its
 * destination's owner ({@link HeldOutEdges}) and scored there. The rows it lacks (remote sources, negatives'
 * rows) are fetched <i>by id</i> once per loss and per evaluation: the worker sends each owner the sorted distinct
 * ids it needs, the owner answers the rows (checked: strictly ascending, owned, at most its node count), and after
 * the loss the rows' gradients go back in the same order and are added into the owner's output gradient in worker
 * order (so the sums do not depend on timing). Bytes per training step, per worker: 8 per distinct remote id asked
 * plus 2 x 4 x width per such row (row and gradient), at most {@code min(P * (K + 1), N)} rows; an evaluation
 * moves 8 + 4 x width per distinct remote id among its held-out sources and evaluation negatives. The positives'
 * sources are exactly halo slots of the existing plan, so they could travel on it (the design note's cheaper
 * choice: no id list, one halo exchange of the output width); they go by id here so that one mechanism serves
 * positives, negatives and evaluation alike.
 *
 * <p><b>Exactness.</b> Negatives are pure functions of (seed, epoch, edge) over every node id in ascending order
 * (every worker holds that list, 8 bytes a node, plus 8 for the degree sampler's weights), the loss scale is one
 * over the global positive count, and gradients are summed in a fixed order: the losses are the same for any
 * number of workers up to float rounding.
 *
 * <p><b>Evaluation negatives</b> must not be edges in any split, which only a candidate's owner can tell (it holds
 * the candidate's in-edges: messages and held-out). They are fixed once, in rounds: each undecided negative tries
 * its next candidates (1, then 8, 64, 512, 4096 at a time, in the order {@link
 * NegativeSampler#evaluationCandidate} gives), asks their owners, and takes the first one that is not an edge: the
 * same choice as {@link NegativeSampler#evaluationNegative} one by one. Rounds go on until no worker has an
 * undecided negative.
 */
final class LinkWorker {
  private static final int MAX_WINDOW = 4096;

  private final LinkOptions options;
  private final long seed;
  private final int index;
  private final int workers;
  private final GraphBlock graph;
  private final NodeIndex rows;
  private final Ownership ownership;
  private final LinkExchange exchange;
  private final boolean l2;
  private final int width;
  private final String edgesTable;

  /** Positives: the message in-edges of own rows but the {@code none} ones, source id and destination row. */
  private final long[] positiveSource;
  private final int[] positiveDestination;
  private final HeldOutEdges.Lists heldOut;
  private NegativeSampler sampler;
  private long[] valNegatives;
  private long[] testNegatives;
  private long globalPositives;
  private int round;

  /** The last loss: its sum over this worker's positives, and the gradient of the output rows it gives. */
  private double lossSum;
  private long lossEpoch = -1;

  LinkWorker(LinkOptions options, long seed, int index, int workers, GraphBlock graph, NodeIndex rows,
      Ownership ownership, HeldOutEdges.Lists heldOut, LinkExchange exchange, boolean l2, int width,
      String edgesTable) {
    this.options = options;
    this.seed = seed;
    this.index = index;
    this.workers = workers;
    this.graph = graph;
    this.rows = rows;
    this.ownership = ownership;
    this.heldOut = heldOut;
    this.exchange = exchange;
    this.l2 = l2;
    this.width = width;
    this.edgesTable = edgesTable;
    int n = graph.numNodes();
    int[] ptr = graph.inEdges().rowPtr();
    int[] col = graph.inEdges().colIdx();
    boolean[] none = noneEdges(heldOut.noneSrc(), heldOut.noneDst());
    int p = 0;
    for (boolean b : none) {
      p += b ? 0 : 1;
    }
    positiveSource = new long[p];
    positiveDestination = new int[p];
    p = 0;
    for (int r = 0; r < n; r++) {
      for (int e = ptr[r]; e < ptr[r + 1]; e++) {
        if (!none[e]) {
          positiveSource[p] = graph.slotId(col[e]);
          positiveDestination[p++] = r;
        }
      }
    }
  }

  /**
   * Which in-edges of the graph are {@code none} edges: for each own row, as many of its in-edges from each source
   * as the none list has for that pair. Parallel copies of a pair are the same pair to the loss, so which copy is
   * left out does not matter. The list is bucketed by row and sorted by source within a row (primitive sorts: a
   * none list may be most of the edges).
   */
  private boolean[] noneEdges(long[] noneSrc, long[] noneDst) {
    int[] ptr = graph.inEdges().rowPtr();
    int[] col = graph.inEdges().colIdx();
    int n = graph.numNodes();
    boolean[] none = new boolean[ptr[n]];
    if (noneSrc.length == 0) {
      return none;
    }
    int[] at = new int[n + 1];
    for (long d : noneDst) {
      at[ownRow(d) + 1]++;
    }
    for (int r = 0; r < n; r++) {
      at[r + 1] += at[r];
    }
    long[] src = new long[noneSrc.length];
    int[] fill = Arrays.copyOf(at, n);
    for (int i = 0; i < noneSrc.length; i++) {
      src[fill[ownRow(noneDst[i])]++] = noneSrc[i];
    }
    // Per pair, the copies taken so far, kept at the pair's first index: O(log) per in-edge however many copies.
    int[] taken = new int[src.length];
    for (int r = 0; r < n; r++) {
      int lo = at[r];
      int hi = at[r + 1];
      if (lo == hi) {
        continue;
      }
      Arrays.sort(src, lo, hi);
      for (int e = ptr[r]; e < ptr[r + 1]; e++) {
        long s = graph.slotId(col[e]);
        int f = first(src, lo, hi, s, false);
        if (f < hi && src[f] == s && taken[f] < first(src, f, hi, s, true) - f) {
          taken[f]++;
          none[e] = true;
        }
      }
    }
    return none;
  }

  /** The first index in {@code a[from, to)} (ascending) whose value is at least (above) {@code v}, or {@code to}. */
  private static int first(long[] a, int from, int to, long v, boolean above) {
    while (from < to) {
      int mid = (from + to) >>> 1;
      if (a[mid] < v || above && a[mid] == v) {
        from = mid + 1;
      } else {
        to = mid;
      }
    }
    return from;
  }

  /** This worker's positives, validation and test edges (the driver's counts). */
  PhaseResult.LabelCounts counts() {
    return new PhaseResult.LabelCounts(positiveSource.length, heldOut.valSrc().length, heldOut.testSrc().length);
  }

  void globalPositives(long count) {
    globalPositives = count;
  }

  private boolean owns(long id) {
    return workers == 1 || ownership.owner(id) == index;
  }

  private int ownRow(long id) {
    int r = rows.get(id);
    if (r < 0 || r >= graph.numNodes()) {
      throw new IllegalStateException("worker " + index + " does not hold node " + id);
    }
    return r;
  }

  // ---- LINK_PLAN ---------------------------------------------------------------------------------------------

  /** Learns every node id (and in-degree), then fixes the held-out edges' evaluation negatives. */
  void plan() throws Exception {
    int n = graph.numNodes();
    long[] ownIds = Arrays.copyOf(graph.nodeIds(), n);
    int[] ptr = graph.inEdges().rowPtr();
    long[] ownDegrees = new long[n];
    Integer[] order = new Integer[n];
    for (int r = 0; r < n; r++) {
      order[r] = r;
    }
    Arrays.sort(order, (a, b) -> Long.compare(ownIds[a], ownIds[b]));
    long[] sortedIds = new long[n];
    for (int i = 0; i < n; i++) {
      sortedIds[i] = ownIds[order[i]];
      ownDegrees[i] = ptr[order[i] + 1] - ptr[order[i]];
    }
    boolean degree = options.sampler() == NegativeSampler.Kind.DEGREE;
    int r0 = round++;
    for (int q = 0; q < workers; q++) {
      if (q != index) {
        exchange.sendIds(q, LinkMessage.CANDIDATES, r0, sortedIds, 0, n);
        if (degree) {
          exchange.sendIds(q, LinkMessage.DEGREES, r0, ownDegrees, 0, n);
        }
      }
    }
    long[][] ids = new long[workers][];
    long[][] degrees = new long[workers][];
    long total = 0;
    for (int q = 0; q < workers; q++) {
      ids[q] = q == index ? sortedIds : exchange.ids(LinkMessage.CANDIDATES, r0, q, Integer.MAX_VALUE - 8 - total);
      degrees[q] = !degree ? null : q == index ? ownDegrees
          : exchange.ids(LinkMessage.DEGREES, r0, q, ids[q].length);
      if (degree && degrees[q].length != ids[q].length) {
        throw new ProtocolException("worker " + q + " sent " + degrees[q].length + " degrees for "
            + ids[q].length + " nodes");
      }
      total += ids[q].length;
    }
    long[] all = new long[(int) total];
    long[] allDegrees = degree ? new long[(int) total] : null;
    mergeSorted(ids, degrees, all, allDegrees);
    sampler = NegativeSampler.of(options.sampler(), all, allDegrees);
    int[] memberPtr = new int[n + 1];
    long[] members = memberships(memberPtr);
    valNegatives = new long[heldOut.valSrc().length * options.evalNegatives()];
    testNegatives = new long[heldOut.testSrc().length * options.evalNegatives()];
    evaluationNegatives(memberPtr, members);
    exchange.checkDrained();
  }

  /**
   * {@code --link-pairs}: this worker's part ({@code part-0000W.parquet}) of each table of
   * {@link LinkOptions#PAIR_TABLES} under {@code dir}: the message in-edges of its rows (the positives and the
   * {@code none} edges: the graph the embeddings are computed on), its
   * held-out edges of each set and, row for row, their AUC/AP negative (the first evaluation negative: the pair
   * (src, negative)). A part written before (a worker started again) is replaced.
   */
  void writePairs(org.apache.hadoop.conf.Configuration conf, org.apache.hadoop.fs.Path dir) throws Exception {
    String name = org.yarngnn.io.table.OutputCommit.partName(index, org.yarngnn.io.table.TableFormat.PARQUET);
    float[] weights = graph.inEdges().weights();
    int r = options.evalNegatives();
    for (String table : LinkOptions.PAIR_TABLES) {
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(new org.apache.hadoop.fs.Path(dir, table), name);
      org.apache.hadoop.fs.FileSystem fs = file.getFileSystem(conf);
      fs.delete(file, false);
      boolean train = table.equals("train");
      try (org.yarngnn.io.table.EdgeTableWriter w = org.yarngnn.io.table.EdgeTableWriter.create(conf, file,
          org.yarngnn.io.table.TableFormat.PARQUET, train && weights != null)) {
        if (train) {
          int[] ptr = graph.inEdges().rowPtr();
          int[] col = graph.inEdges().colIdx();
          for (int d = 0; d < graph.numNodes(); d++) {
            for (int e = ptr[d]; e < ptr[d + 1]; e++) {
              w.write(graph.slotId(col[e]), graph.nodeIds()[d], weights == null ? 1f : weights[e]);
            }
          }
          continue;
        }
        boolean val = table.startsWith("val");
        long[] src = val ? heldOut.valSrc() : heldOut.testSrc();
        long[] dst = val ? heldOut.valDst() : heldOut.testDst();
        long[] negatives = val ? valNegatives : testNegatives;
        boolean negative = table.endsWith("-negatives");
        for (int i = 0; i < src.length; i++) {
          w.write(src[i], negative ? negatives[i * r] : dst[i]);
        }
      }
    }
  }

  /** Every worker's ascending ids merged into one ascending list (ids are owned once: a repeat is refused). */
  private static void mergeSorted(long[][] ids, long[][] degrees, long[] all, long[] allDegrees) {
    int[] at = new int[ids.length];
    for (int i = 0; i < all.length; i++) {
      int best = -1;
      for (int q = 0; q < ids.length; q++) {
        if (at[q] < ids[q].length && (best < 0 || ids[q][at[q]] < ids[best][at[best]])) {
          best = q;
        }
      }
      all[i] = ids[best][at[best]];
      if (i > 0 && all[i] <= all[i - 1]) {
        throw new ProtocolException("node " + all[i] + " is owned twice, or a worker's ids are not ascending");
      }
      if (allDegrees != null) {
        allDegrees[i] = degrees[best][at[best]];
      }
      at[best]++;
    }
  }

  /** For every own row, the sorted ids of its in-edges' sources in any split (messages and held-out). */
  private long[] memberships(int[] memberPtr) {
    int n = graph.numNodes();
    int[] ptr = graph.inEdges().rowPtr();
    int[] col = graph.inEdges().colIdx();
    int[] extra = new int[n];
    for (long d : heldOut.valDst()) {
      extra[ownRow(d)]++;
    }
    for (long d : heldOut.testDst()) {
      extra[ownRow(d)]++;
    }
    for (int r = 0; r < n; r++) {
      memberPtr[r + 1] = memberPtr[r] + (ptr[r + 1] - ptr[r]) + extra[r];
    }
    long[] members = new long[memberPtr[n]];
    int[] fill = Arrays.copyOf(memberPtr, n);
    for (int r = 0; r < n; r++) {
      for (int e = ptr[r]; e < ptr[r + 1]; e++) {
        members[fill[r]++] = graph.slotId(col[e]);
      }
    }
    for (int i = 0; i < heldOut.valSrc().length; i++) {
      members[fill[ownRow(heldOut.valDst()[i])]++] = heldOut.valSrc()[i];
    }
    for (int i = 0; i < heldOut.testSrc().length; i++) {
      members[fill[ownRow(heldOut.testDst()[i])]++] = heldOut.testSrc()[i];
    }
    for (int r = 0; r < n; r++) {
      Arrays.sort(members, memberPtr[r], memberPtr[r + 1]);
    }
    return members;
  }

  /** Whether {@code src -> candidate} (candidate an own node) is an edge in any split. */
  private static boolean isEdge(int[] memberPtr, long[] members, int candidateRow, long src) {
    return Arrays.binarySearch(members, memberPtr[candidateRow], memberPtr[candidateRow + 1], src) >= 0;
  }

  /** The evaluation negatives of the validation and test edges, in rounds across the workers (class comment). */
  private void evaluationNegatives(int[] memberPtr, long[] members) throws Exception {
    int r = options.evalNegatives();
    int valItems = valNegatives.length;
    int items = valItems + testNegatives.length;
    long[] next = new long[items];
    boolean[] done = new boolean[items];
    int undecided = items;
    long steps = sampler.evaluationSteps();
    for (int pass = 0; ; pass++) {
      int window = (int) Math.min(MAX_WINDOW, 1L << Math.min(30, 3 * pass));
      int rd = round++;
      // The candidates tried this round, in item and step order: their answers' places.
      int[] queries = new int[workers];
      long[][] asks = new long[workers][];
      for (int q = 0; q < workers; q++) {
        asks[q] = new long[16];
        asks[q][0] = undecided;
        queries[q] = 0;
      }
      int tried = 0;
      long[] answerAt = new long[Math.max(16, undecided)];
      for (int it = 0; it < items; it++) {
        if (done[it]) {
          continue;
        }
        long src = itemSource(it, valItems, r);
        long dst = itemDestination(it, valItems, r);
        int j = it % r;
        for (long s = next[it]; s < Math.min(steps, next[it] + window); s++) {
          long c = sampler.evaluationCandidate(seed, src, dst, j, s);
          long place;
          if (c == src) {
            place = -1; // the source itself: never a negative
          } else if (owns(c)) {
            place = isEdge(memberPtr, members, ownRow(c), src) ? -1 : -2;
          } else {
            int q = ownership.owner(c);
            int at = 1 + 2 * queries[q];
            if (at + 2 > asks[q].length) {
              asks[q] = Arrays.copyOf(asks[q], asks[q].length * 2);
            }
            asks[q][at] = src;
            asks[q][at + 1] = c;
            place = ((long) q << 32) | queries[q]++;
          }
          if (tried == answerAt.length) {
            answerAt = Arrays.copyOf(answerAt, tried * 2);
          }
          answerAt[tried++] = place;
        }
      }
      for (int q = 0; q < workers; q++) {
        if (q != index) {
          exchange.sendIds(q, LinkMessage.MEMBERSHIP, rd, asks[q], 0, 1 + 2 * queries[q]);
        }
      }
      boolean anyUndecided = undecided > 0;
      for (int q = 0; q < workers; q++) {
        if (q == index) {
          continue;
        }
        long[] in = exchange.ids(LinkMessage.MEMBERSHIP, rd, q, Integer.MAX_VALUE - 8);
        if (in.length < 1 || in.length % 2 != 1 || in[0] < 0) {
          throw new ProtocolException("worker " + q + " sent a membership query of " + in.length + " longs");
        }
        anyUndecided |= in[0] > 0;
        int pairs = (in.length - 1) / 2;
        long[] bits = new long[(pairs + 63) / 64];
        for (int k = 0; k < pairs; k++) {
          long src = in[1 + 2 * k];
          long c = in[2 + 2 * k];
          int row = rows.get(c);
          if (!owns(c) || row < 0 || row >= graph.numNodes()) {
            throw new ProtocolException("worker " + q + " asked worker " + index + " about node " + c
                + ", which it does not own");
          }
          if (isEdge(memberPtr, members, row, src)) {
            bits[k >>> 6] |= 1L << (k & 63);
          }
        }
        exchange.sendIds(q, LinkMessage.MEMBERSHIP_ANSWER, rd, bits, 0, bits.length);
      }
      long[][] answers = new long[workers][];
      for (int q = 0; q < workers; q++) {
        if (q != index) {
          answers[q] = exchange.ids(LinkMessage.MEMBERSHIP_ANSWER, rd, q, (queries[q] + 63) / 64);
          if (answers[q].length != (queries[q] + 63) / 64) {
            throw new ProtocolException("worker " + q + " answered " + answers[q].length + " words for "
                + queries[q] + " membership queries");
          }
        }
      }
      if (!anyUndecided) {
        return;
      }
      int k = 0;
      for (int it = 0; it < items; it++) {
        if (done[it]) {
          continue;
        }
        long src = itemSource(it, valItems, r);
        long dst = itemDestination(it, valItems, r);
        int j = it % r;
        long end = Math.min(steps, next[it] + window);
        for (long s = next[it]; s < end; s++) {
          long place = answerAt[k++];
          boolean accepted = place == -2 || place >= 0
              && (answers[(int) (place >>> 32)][(int) place >>> 6] & (1L << ((int) place & 63))) == 0;
          if (accepted && !done[it]) {
            done[it] = true;
            undecided--;
            long c = sampler.evaluationCandidate(seed, src, dst, j, s);
            if (it < valItems) {
              valNegatives[it] = c;
            } else {
              testNegatives[it - valItems] = c;
            }
          }
        }
        if (!done[it]) {
          next[it] = end;
          if (end >= steps) {
            throw new InputException(edgesTable + ": node " + src + " is adjacent to every node: its held-out edge "
                + "to " + dst + " has no evaluation negative (hold out fewer edges, or edges of other nodes)");
          }
        }
      }
    }
  }

  private long itemSource(int it, int valItems, int r) {
    return it < valItems ? heldOut.valSrc()[it / r] : heldOut.testSrc()[(it - valItems) / r];
  }

  private long itemDestination(int it, int valItems, int r) {
    return it < valItems ? heldOut.valDst()[it / r] : heldOut.testDst()[(it - valItems) / r];
  }

  // ---- rows by id ----------------------------------------------------------------------------------------------

  /**
   * Output rows by id for one scoring: this worker's rows first (rows {@code 0..n)}), then the rows fetched from
   * each peer (the ids it was asked, ascending); and which own rows each peer fetched, for the gradients back.
   */
  private final class Fetched {
    final int round;
    final long[][] requested = new long[workers][];
    final int[] offset = new int[workers];
    final int[][] served = new int[workers][];
    final DenseMatrix rowsById;

    /** Fetches the rows of {@code ids} not owned here; {@code scored}: this worker's output rows (n). */
    Fetched(DenseMatrix scored, long[] ids) throws Exception {
      round = LinkWorker.this.round++;
      int n = graph.numNodes();
      long[][] byOwner = new long[workers][];
      int[] counts = new int[workers];
      for (long id : ids) {
        if (!owns(id)) {
          counts[ownership.owner(id)]++;
        }
      }
      for (int q = 0; q < workers; q++) {
        byOwner[q] = new long[counts[q]];
        counts[q] = 0;
      }
      for (long id : ids) {
        if (!owns(id)) {
          int q = ownership.owner(id);
          byOwner[q][counts[q]++] = id;
        }
      }
      int total = n;
      for (int q = 0; q < workers; q++) {
        requested[q] = Arrays.stream(byOwner[q]).sorted().distinct().toArray();
        offset[q] = total;
        total += requested[q].length;
        if (q != index) {
          exchange.sendIds(q, LinkMessage.ROW_REQUEST, round, requested[q], 0, requested[q].length);
        }
      }
      for (int q = 0; q < workers; q++) {
        if (q == index) {
          served[q] = new int[0];
          continue;
        }
        long[] asked = exchange.ids(LinkMessage.ROW_REQUEST, round, q, n);
        served[q] = new int[asked.length];
        float[] answer = new float[asked.length * width];
        for (int i = 0; i < asked.length; i++) {
          int row = rows.get(asked[i]);
          if ((i > 0 && asked[i] <= asked[i - 1]) || !owns(asked[i]) || row < 0 || row >= n) {
            throw new ProtocolException("worker " + q + " asked worker " + index + " for the row of node "
                + asked[i] + ", which it does not own or asked out of order");
          }
          served[q][i] = row;
          System.arraycopy(scored.data(), scored.offset(row), answer, i * width, width);
        }
        exchange.sendValues(q, LinkMessage.ROWS, round, answer, 0, answer.length);
      }
      rowsById = new DenseMatrix(total, width);
      for (int r = 0; r < n; r++) {
        System.arraycopy(scored.data(), scored.offset(r), rowsById.data(), rowsById.offset(r), width);
      }
      for (int q = 0; q < workers; q++) {
        if (q != index) {
          float[] got = exchange.values(LinkMessage.ROWS, round, q, (long) requested[q].length * width);
          System.arraycopy(got, 0, rowsById.data(), rowsById.offset(offset[q]), got.length);
        }
      }
    }

    int row(long id) {
      if (owns(id)) {
        return ownRow(id);
      }
      int q = ownership.owner(id);
      int i = Arrays.binarySearch(requested[q], id);
      if (i < 0) {
        throw new IllegalStateException("node " + id + " was not fetched");
      }
      return offset[q] + i;
    }

    /**
     * Sends the fetched rows' gradients ({@code d}'s rows after n) back to their owners and adds what the peers
     * send for this worker's rows into {@code d}'s first n rows, peer by peer in worker order.
     */
    void returnGradients(DenseMatrix d) throws Exception {
      for (int q = 0; q < workers; q++) {
        if (q != index) {
          int from = d.offset(offset[q]);
          exchange.sendValues(q, LinkMessage.ROW_GRADIENTS, round, d.data(), from,
              from + requested[q].length * width);
        }
      }
      for (int q = 0; q < workers; q++) {
        if (q == index) {
          continue;
        }
        float[] g = exchange.values(LinkMessage.ROW_GRADIENTS, round, q, (long) served[q].length * width);
        for (int i = 0; i < served[q].length; i++) {
          int o = d.offset(served[q][i]);
          for (int c = 0; c < width; c++) {
            d.data()[o + c] += g[i * width + c];
          }
        }
      }
    }
  }

  /** The rows pairs are scored from: the output, or its unit rows for an {@code l2} model. */
  private DenseMatrix scored(DenseMatrix out, DenseMatrix unit, float[] norms) {
    if (!l2) {
      return out;
    }
    PairScores.normalize(out, unit, norms, 0, graph.numNodes());
    return unit;
  }

  // ---- LINK_LOSS -----------------------------------------------------------------------------------------------

  /**
   * Epoch {@code epoch}'s loss of this worker's positives against their negatives on {@code out} (the last layer's
   * training output); the gradient of (loss / global positives) with respect to {@code out} into {@code dOut}.
   */
  void loss(int epoch, DenseMatrix out, DenseMatrix dOut) throws Exception {
    if (globalPositives <= 0 || sampler == null) {
      throw new IllegalStateException("link loss before the plan and the positive count");
    }
    int n = graph.numNodes();
    int p = positiveSource.length;
    int k = options.negatives();
    DenseMatrix unit = l2 ? new DenseMatrix(n, width) : null;
    float[] norms = l2 ? new float[n] : null;
    DenseMatrix scored = scored(out, unit, norms);
    long[] negatives = new long[p * k];
    long[] ids = new long[p + p * k];
    long[] nodeIds = graph.nodeIds();
    for (int i = 0; i < p; i++) {
      sampler.negatives(seed, epoch, positiveSource[i], nodeIds[positiveDestination[i]], k, negatives, i * k);
      ids[i] = positiveSource[i];
    }
    System.arraycopy(negatives, 0, ids, p, negatives.length);
    Fetched f = new Fetched(scored, ids);
    int[] src = new int[p];
    int[] negRow = new int[p * k];
    for (int i = 0; i < p; i++) {
      src[i] = f.row(positiveSource[i]);
    }
    for (int i = 0; i < negatives.length; i++) {
      negRow[i] = f.row(negatives[i]);
    }
    DenseMatrix d = new DenseMatrix(f.rowsById.rows(), width);
    lossSum = PairScores.lossAndGradient(f.rowsById, src, positiveDestination, negRow, k, options.loss(),
        options.temperature(), (float) (1.0 / globalPositives), new float[p], new float[p * k], new float[p],
        new float[p * k], d);
    f.returnGradients(d);
    if (l2) {
      PairScores.normalizeBackward(unit, norms, d, 0, n);
    }
    for (int r = 0; r < n; r++) {
      System.arraycopy(d.data(), d.offset(r), dOut.data(), dOut.offset(r), width);
    }
    lossEpoch = epoch;
    exchange.checkDrained();
  }

  /** The loss sum of epoch {@code epoch} (its {@link #loss} must have run). */
  double lossSum(long epoch) {
    if (lossEpoch != epoch) {
      throw new IllegalStateException("backward of epoch " + epoch + " without its link loss (" + lossEpoch + ")");
    }
    return lossSum;
  }

  // ---- LINK_EVALUATE -------------------------------------------------------------------------------------------

  /** The held-out edges scored on {@code out} (the last layer's evaluation output) against their negatives. */
  PhaseResult.LinkScores evaluate(DenseMatrix out) throws Exception {
    if (valNegatives == null) {
      throw new IllegalStateException("link evaluation before the plan");
    }
    int n = graph.numNodes();
    DenseMatrix scored = scored(out, l2 ? new DenseMatrix(n, width) : null, l2 ? new float[n] : null);
    int vs = heldOut.valSrc().length;
    int ts = heldOut.testSrc().length;
    long[] ids = new long[vs + ts + valNegatives.length + testNegatives.length];
    System.arraycopy(heldOut.valSrc(), 0, ids, 0, vs);
    System.arraycopy(heldOut.testSrc(), 0, ids, vs, ts);
    System.arraycopy(valNegatives, 0, ids, vs + ts, valNegatives.length);
    System.arraycopy(testNegatives, 0, ids, vs + ts + valNegatives.length, testNegatives.length);
    Fetched f = new Fetched(scored, ids);
    Scores val = scores(f, heldOut.valSrc(), heldOut.valDst(), valNegatives);
    Scores test = scores(f, heldOut.testSrc(), heldOut.testDst(), testNegatives);
    exchange.checkDrained();
    return new PhaseResult.LinkScores(val.positive, val.firstNegative, val.ranks, test.positive, test.firstNegative,
        test.ranks);
  }

  private record Scores(float[] positive, float[] firstNegative, LinkMetrics.RankSums ranks) {}

  private Scores scores(Fetched f, long[] src, long[] dst, long[] negatives) {
    int m = src.length;
    int r = options.evalNegatives();
    float[] pos = new float[m];
    float[] first = new float[m];
    float[] all = new float[m * r];
    DenseMatrix z = f.rowsById;
    for (int i = 0; i < m; i++) {
      int s = f.row(src[i]);
      pos[i] = PairScores.dot(z, s, z, ownRow(dst[i]));
      for (int j = 0; j < r; j++) {
        all[i * r + j] = PairScores.dot(z, s, z, f.row(negatives[i * r + j]));
      }
      first[i] = all[i * r];
    }
    return new Scores(pos, first, m == 0 ? LinkMetrics.RankSums.EMPTY : LinkMetrics.rankSums(pos, all, r));
  }
}
