package org.yarngnn.app.topk;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.compute.retrieval.ExactTopK;
import org.yarngnn.compute.retrieval.QueryPairs;
import org.yarngnn.compute.retrieval.RankingMetrics;
import org.yarngnn.io.table.EdgeSink;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.IdTable;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.NodeSink;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.OutputCommit;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.io.table.TableWriter;
import org.yarngnn.partition.Ownership;

/**
 * One worker's share of {@code topk}: the queries whose id it owns (hash ownership over the workers, as the
 * graph jobs partition nodes), scored against every candidate, written as its part file.
 *
 * <p>Candidates are streamed from the embeddings table itself: every worker reads the whole table once more after
 * collecting its queries, in blocks of {@code --candidate-block} rows, so a worker holds its queries, their heaps
 * and one block, not the candidates (streaming the blocks from peers instead, flow-controlled as the halo exchange
 * is, would read the table once in all rather than once per worker; not done yet). Exclusions and true pairs are
 * read by every worker and filtered to its own queries; the id checks (duplicates, ids not in the embeddings) are
 * split by the same ownership, so each id is checked by one worker and the checks hold 8 bytes per owned id.
 */
final class TopkRetrieval {
  private final Configuration conf;
  private final TopkOptions o;
  private final int worker;
  private final Ownership ownership;
  private final Map<String, Double> figures = new LinkedHashMap<>();

  TopkRetrieval(Configuration conf, TopkOptions o, int worker, int workers) {
    this.conf = conf;
    this.o = o;
    this.worker = worker;
    this.ownership = Ownership.hash(workers);
  }

  /** Runs this worker's share and writes its part file into the job's work directory; returns its figures. */
  Map<String, Double> run() {
    long t0 = System.nanoTime();
    NodeTable table = NodeTable.open(conf, o.get(TopkOptions.EMBEDDINGS), TopkOptions.embeddingColumns());
    int width = table.featureWidth();
    long[] querySet = o.get(TopkOptions.QUERIES) == null ? null : ownedIds(o.get(TopkOptions.QUERIES), "queries", true);
    long[] candidateSet = o.get(TopkOptions.CANDIDATES) == null ? null : ownedIds(o.get(TopkOptions.CANDIDATES),
        "candidates", false);
    Queries q = collectQueries(table, width, querySet, candidateSet);
    QueryIndex index = new QueryIndex(q.ids, q.count);
    QueryPairs excluded = o.get(TopkOptions.EXCLUDE) == null ? QueryPairs.NONE : readPairs(o.get(TopkOptions.EXCLUDE),
        "--exclude", q, index);
    QueryPairs truth = o.get(TopkOptions.TRUTH) == null ? null : readPairs(o.get(TopkOptions.TRUTH), "--truth", q,
        index);
    figures.put("queries", (double) q.count);
    figures.put("candidates", (double) q.candidates);
    figures.put("excludedPairs", (double) excluded.size());
    figures.put("t.read", seconds(t0));

    long t1 = System.nanoTime();
    int block = o.getInt(TopkOptions.CANDIDATE_BLOCK);
    int threads = Math.max(1, java.util.concurrent.ForkJoinPool.getCommonPoolParallelism() + 1);
    long heapBytes = ExactTopK.heapBytes(q.count, o.getInt(TopkOptions.K));
    long blockBytes = ExactTopK.blockBytes(block, width, threads) + (long) block * (width * 4L + 8);
    long free = Runtime.getRuntime().maxMemory() - usedHeap();
    if (heapBytes + blockBytes > free * 0.8) {
      throw new IllegalStateException(String.format("worker %d: the top-%d heaps of its %,d queries and the "
          + "candidate blocks need %,d MB, more than the %,d MB of heap left: add --workers or --worker-memory",
          worker, o.getInt(TopkOptions.K), q.count, (heapBytes + blockBytes) >> 20, free >> 20));
    }
    figures.put("heapBytesOfLists", (double) heapBytes);
    figures.put("blockBytes", (double) blockBytes);
    ExactTopK topk = new ExactTopK(q.rows, q.ids, q.count, width, o.getInt(TopkOptions.K), excluded, block);
    if (q.count > 0) {
      streamCandidates(table, width, candidateSet, topk);
    }
    figures.put("t.score", seconds(t1));

    long t2 = System.nanoTime();
    RankingMetrics metrics = truth == null ? null : new RankingMetrics(o.getInt(TopkOptions.K));
    long rows = write(topk, q, metrics, truth);
    figures.put("rows", (double) rows);
    if (metrics != null) {
      figures.putAll(metrics.sums());
    }
    figures.put("t.write", seconds(t2));
    figures.put("peakHeapBytes", (double) peakHeap());
    return figures;
  }

  private static double seconds(long since) {
    return (System.nanoTime() - since) / 1e9;
  }

  /** This worker's ids of an id table, sorted and distinct ({@code all}: every id, for the candidate filter). */
  private long[] ownedIds(String path, String what, boolean ownedOnly) {
    IdTable t = IdTable.open(conf, path, TableReadOptions.builder().build(), what);
    long[][] ids = {new long[1024]};
    int[] n = {0};
    t.read((id, file, row) -> {
      if (!ownedOnly || ownership.owner(id) == worker) {
        if (n[0] == ids[0].length) {
          ids[0] = Arrays.copyOf(ids[0], grow(n[0], "--" + what + " " + path));
        }
        ids[0][n[0]++] = id;
      }
    });
    long[] sorted = Arrays.copyOf(ids[0], n[0]);
    Arrays.sort(sorted);
    // A repeated id in an id table names the same query or candidate twice: kept once.
    int out = 0;
    for (int i = 0; i < sorted.length; i++) {
      if (i == 0 || sorted[i] != sorted[i - 1]) {
        sorted[out++] = sorted[i];
      }
    }
    return Arrays.copyOf(sorted, out);
  }

  private static int grow(int n, String what) {
    if (n >= Integer.MAX_VALUE / 2 - 16) {
      throw new IllegalStateException(what + " has more rows than one worker holds: add --workers");
    }
    return Math.max(16, n * 2);
  }

  private static boolean contains(long[] sorted, long id) {
    return Arrays.binarySearch(sorted, id) >= 0;
  }

  /** This worker's queries (ids, rows in table order), its owned embedding ids and the candidate count. */
  private static final class Queries {
    long[] ids = new long[1024];
    float[] rows;
    int count;
    long[] owned = new long[1024];
    int ownedCount;
    long candidates;
  }

  private Queries collectQueries(NodeTable table, int width, long[] querySet, long[] candidateSet) {
    Queries q = new Queries();
    q.rows = new float[1024 * width];
    table.read(new NodeSink() {
      @Override
      public void node(long id, int label, byte split, float[] features, long row) {
        boolean mine = ownership.owner(id) == worker;
        if (candidateSet == null || contains(candidateSet, id)) {
          q.candidates++;
        }
        if (!mine) {
          return;
        }
        if (q.ownedCount == q.owned.length) {
          q.owned = Arrays.copyOf(q.owned, grow(q.ownedCount, "--embeddings " + o.get(TopkOptions.EMBEDDINGS)));
        }
        q.owned[q.ownedCount++] = id;
        if (querySet == null || contains(querySet, id)) {
          if (q.count == q.ids.length) {
            int cap = grow(q.count, "--embeddings " + o.get(TopkOptions.EMBEDDINGS));
            if ((long) cap * width > Integer.MAX_VALUE - 16) {
              throw new IllegalStateException("worker " + worker + " has more query rows than one array holds: "
                  + "add --workers");
            }
            q.ids = Arrays.copyOf(q.ids, cap);
            q.rows = Arrays.copyOf(q.rows, cap * width);
          }
          System.arraycopy(features, 0, q.rows, q.count * width, width);
          q.ids[q.count++] = id;
        }
      }
    });
    q.owned = Arrays.copyOf(q.owned, q.ownedCount);
    Arrays.sort(q.owned);
    for (int i = 1; i < q.owned.length; i++) {
      if (q.owned[i] == q.owned[i - 1]) {
        throw new InputException("--embeddings " + o.get(TopkOptions.EMBEDDINGS) + ": id " + q.owned[i]
            + " appears twice");
      }
    }
    missing(querySet, q.owned, "--queries " + o.get(TopkOptions.QUERIES));
    if (candidateSet != null) {
      long[] mineOnly = Arrays.stream(candidateSet).filter(id -> ownership.owner(id) == worker).toArray();
      missing(mineOnly, q.owned, "--candidates " + o.get(TopkOptions.CANDIDATES));
    }
    if (o.getInt(TopkOptions.K) > q.candidates) {
      throw new InputException("--k " + o.getInt(TopkOptions.K) + " is more than the " + q.candidates + " candidates ("
          + (o.get(TopkOptions.CANDIDATES) == null ? "rows of --embeddings " + o.get(TopkOptions.EMBEDDINGS)
          : "--candidates " + o.get(TopkOptions.CANDIDATES))
          + ")");
    }
    return q;
  }

  /** Refuses the first id of {@code ids} that is not among the embeddings' ids this worker owns. */
  private void missing(long[] ids, long[] owned, String what) {
    if (ids == null) {
      return;
    }
    for (long id : ids) {
      if (!contains(owned, id)) {
        throw new InputException(what + ": id " + id + " is not in --embeddings " + o.get(TopkOptions.EMBEDDINGS));
      }
    }
  }

  /** This worker's query ids sorted, with each one's row: the lookup of a pair's query. */
  private static final class QueryIndex {
    final long[] sortedIds;
    final int[] row;

    QueryIndex(long[] ids, int count) {
      Integer[] order = new Integer[count];
      for (int i = 0; i < count; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (a, b) -> Long.compare(ids[a], ids[b]));
      sortedIds = new long[count];
      row = new int[count];
      for (int i = 0; i < count; i++) {
        sortedIds[i] = ids[order[i]];
        row[i] = order[i];
      }
    }

    int rowOf(long id) {
      int at = Arrays.binarySearch(sortedIds, id);
      return at < 0 ? -1 : row[at];
    }
  }

  /**
   * The (src = query, dst = candidate) pairs of an edge table whose query is this worker's; each endpoint this
   * worker owns must be an id of the embeddings (one worker checks each id), else the file and row are named.
   */
  private QueryPairs readPairs(String path, String option, Queries q, QueryIndex index) {
    EdgeTable t = EdgeTable.open(conf, path, TableReadOptions.builder().build());
    int[][] queries = {new int[1024]};
    long[][] candidates = {new long[1024]};
    int[] n = {0};
    t.read(new EdgeSink() {
      String file = path;

      @Override
      public void beginFile(String f) {
        file = f;
      }

      @Override
      public void edge(long src, long dst, float weight, long row) {
        check(src, row);
        check(dst, row);
        int r = index.rowOf(src);
        if (r < 0) {
          return;
        }
        if (n[0] == queries[0].length) {
          int cap = grow(n[0], option + " " + path);
          queries[0] = Arrays.copyOf(queries[0], cap);
          candidates[0] = Arrays.copyOf(candidates[0], cap);
        }
        queries[0][n[0]] = r;
        candidates[0][n[0]++] = dst;
      }

      private void check(long id, long row) {
        if (ownership.owner(id) == worker && !contains(q.owned, id)) {
          throw new InputException(option + " " + file + ": row " + row + ": id " + id + " is not in --embeddings "
              + o.get(TopkOptions.EMBEDDINGS));
        }
      }
    });
    return QueryPairs.of(q.count, queries[0], candidates[0], n[0]);
  }

  /** Reads the embeddings again, offering the candidates to the kernel a block at a time. */
  private void streamCandidates(NodeTable table, int width, long[] candidateSet, ExactTopK topk) {
    int block = o.getInt(TopkOptions.CANDIDATE_BLOCK);
    float[] rows = new float[block * width];
    long[] ids = new long[block];
    int[] n = {0};
    try {
      table.read((id, label, split, features, row) -> {
        if (candidateSet != null && !contains(candidateSet, id)) {
          return;
        }
        System.arraycopy(features, 0, rows, n[0] * width, width);
        ids[n[0]++] = id;
        if (n[0] == block) {
          topk.offer(rows, ids, block);
          n[0] = 0;
        }
      });
      topk.offer(rows, ids, n[0]);
    } catch (ExactTopK.ScoreOverflowException e) {
      throw new InputException("--embeddings " + o.get(TopkOptions.EMBEDDINGS) + ": " + e.getMessage());
    }
  }

  /** Writes the lists in query id order; returns the rows written. */
  private long write(ExactTopK topk, Queries q, RankingMetrics metrics, QueryPairs truth) {
    if (q.count == 0) {
      return 0;
    }
    QueryIndex order = new QueryIndex(q.ids, q.count);
    long[] ids = new long[o.getInt(TopkOptions.K)];
    float[] scores = new float[o.getInt(TopkOptions.K)];
    long rows = 0;
    Path part = new Path(o.get(GraphJobOptions.WORK_DIR), OutputCommit.partName(worker,
        o.get(GraphJobOptions.OUTPUT_FORMAT)));
    try (TableWriter w = TableWriter.create(conf, part, o.get(GraphJobOptions.OUTPUT_FORMAT), "topk",
        TopkOptions.columns())) {
      for (int i = 0; i < q.count; i++) {
        int r = order.row[i];
        int n = topk.result(r, ids, scores);
        for (int rank = 0; rank < n; rank++) {
          if (!Float.isFinite(scores[rank])) {
            // ExactTopK's bound makes this unreachable; a NaN must never reach the output whatever changes there.
            throw new IllegalStateException("non-finite score " + scores[rank] + " for query " + q.ids[r]);
          }
          w.setLong(0, q.ids[r]);
          w.setInt(1, rank + 1);
          w.setLong(2, ids[rank]);
          w.setFloat(3, scores[rank]);
          w.endRow();
        }
        rows += n;
        if (metrics != null) {
          metrics.add(ids, n, truth.ids(), truth.from(r), truth.to(r));
        }
      }
    }
    return rows;
  }

  private static long usedHeap() {
    Runtime rt = Runtime.getRuntime();
    return rt.totalMemory() - rt.freeMemory();
  }

  /** The JVM's peak heap so far, summed over its heap pools (with --local, the whole client JVM's). */
  static long peakHeap() {
    long peak = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) {
        peak += p.getPeakUsage().getUsed();
      }
    }
    return peak;
  }
}
