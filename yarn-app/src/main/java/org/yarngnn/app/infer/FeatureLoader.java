package org.yarngnn.app.infer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.io.model.ModelFiles;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.compute.infer.RowNormalization;
import org.yarngnn.compute.kernel.RowRanges;
import org.yarngnn.compute.layer.Layer;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.table.NodeSink;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.TableReadOptions;

/**
 * Feature loading fused with the first layer (Deal): input normalisation is row-local, so it is done where a row
 * is read; with fusion the first layer's graph-independent products ({@link Layer#linear}) are computed there too,
 * so only those narrow rows travel to the node's owner and raw features are never kept whole. Serves both the
 * raw tables (a block of rows at a time, as read) and a pre-partitioned graph (its feature matrix at once).
 */
public final class FeatureLoader {
  /**
   * A worker's share of the node files, read: the rows to route and what the driver needs to know;
   * {@code labels}: the rows carry their labels and splits.
   */
  public record NodesRead(NodeTable table, List<Rows> blocks, boolean fused, int rowWidth,
      PhaseResult.NodeCounts counts, boolean labels) {}

  /**
   * Up to {@link #ROWS} node rows of one file as read (kept until the driver has chosen the ownership they are
   * routed by): ids, table rows and {@code width} floats each (raw features, or with fusion the first layer's
   * row-local products) from {@code offset} in {@code values} on, and for training their labels and splits (null
   * otherwise: inference does not use them).
   */
  public record Rows(int file, int count, long[] ids, long[] rows, int width, float[] values, int offset,
      int[] labels, byte[] splits) {
    /** Row {@code i}'s label (-1 when not kept). */
    int label(int i) {
      return labels == null ? -1 : labels[i];
    }

    byte split(int i) {
      return splits == null ? org.yarngnn.io.table.NodeSplit.NONE : splits[i];
    }
  }

  private static final int ROWS = 2048;
  /** The most floats one Java array holds, with the VM's header room. */
  private static final long MAX_ARRAY_FLOATS = Integer.MAX_VALUE - 16;

  private final Model model;
  private final Layer first;
  private final boolean fusion;
  private final boolean labels;

  FeatureLoader(Model model, Layer first, boolean fusion) {
    this(model, first, fusion, false);
  }

  /**
   * With {@code labels} (training) every row keeps its label and split through routing; fusion is then off
   * ({@code first} may be null): training transforms the raw normalised rows itself.
   */
  public FeatureLoader(Model model, Layer first, boolean fusion, boolean labels) {
    if (labels && fusion) {
      throw new IllegalArgumentException("training rows are not fused");
    }
    this.model = model;
    this.first = first;
    this.fusion = fusion;
    this.labels = labels;
  }

  /** Whether rows keep their labels and splits. */
  public boolean labels() {
    return labels;
  }

  /**
   * Whether rows of {@code width} features are fused: only when the first layer's products are narrower (a sage
   * layer's {@code [H W_self | H W_neigh]} is twice its output width).
   */
  boolean fuses(int width) {
    return fusion && first.linearWidth() < width;
  }

  /** Which of a table's files a worker reads. */
  @FunctionalInterface
  public interface FileShare {
    boolean mine(int file, int files);
  }

  /**
   * Reads the node files {@code mine} selects, normalising (and with fusion, transforming) rows as they come; on
   * up to {@code spec.threads()} threads, a file each at a time. The blocks come out in file order and the
   * first file (in table order) with bad input is the one reported, as a single reader would.
   */
  public NodesRead read(Configuration conf, InferOptions spec, FileShare mine)
      throws Exception {
    NodeTable table = NodeTable.open(conf, spec.nodes(),
        TableReadOptions.builder().format(spec.nodesFormat()).build());
    int width = table.featureWidth();
    ModelFiles.checkInputWidth(model, spec.model(), width, spec.nodes());
    boolean fused = fuses(width);
    List<Integer> files = new ArrayList<>();
    for (int f = 0; f < table.files().size(); f++) {
      if (mine.mine(f, table.files().size())) {
        files.add(f);
      }
    }
    // Exact row counts (Parquet and ORC footers) let every file's rows be read into their own slice of one array,
    // which the assembler takes as the feature matrix when this worker owns them all: no copy, no second matrix.
    float[] whole = fused ? null : wholeArray(table, files, width);
    int[] base = new int[files.size() + 1];
    for (int i = 0; whole != null && i < files.size(); i++) {
      base[i + 1] = base[i] + (int) table.exactRows(files.get(i)) * width;
    }
    FileRows[] read = new FileRows[files.size()];
    Exception[] failed = new Exception[files.size()];
    AtomicInteger next = new AtomicInteger();
    List<Background> readers = new ArrayList<>();
    for (int t = 0; t < Math.max(1, Math.min(spec.threads(), files.size())); t++) {
      readers.add(new Background("read-nodes-" + t, () -> {
        for (int i = next.getAndIncrement(); i < files.size(); i = next.getAndIncrement()) {
          try {
            read[i] = readFile(table, files.get(i), width, fused, whole, base[i], base[i + 1]);
          } catch (Exception e) {
            failed[i] = e;
          }
        }
      }));
    }
    for (Background r : readers) {
      r.join();
    }
    List<Rows> blocks = new ArrayList<>();
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    long count = 0;
    for (int i = 0; i < read.length; i++) {
      if (failed[i] != null) {
        throw failed[i];
      }
      blocks.addAll(read[i].blocks());
      min = Math.min(min, read[i].min());
      max = Math.max(max, read[i].max());
      count += read[i].count();
    }
    return new NodesRead(table, blocks, fused, fused ? first.linearWidth() : width,
        new PhaseResult.NodeCounts(count, min, max, width), labels);
  }

  /** One node file's blocks and the smallest and largest id in it. */
  private record FileRows(List<Rows> blocks, long min, long max, long count) {}

  /**
   * One array for the rows of all {@code files}, when every file's row count is exact and they fit one array
   * and half the heap; else null (text tables, or more than that).
   */
  private static float[] wholeArray(NodeTable table, List<Integer> files, int width) {
    long floats = 0;
    for (int f : files) {
      long n = table.exactRows(f);
      if (n < 0) {
        return null;
      }
      floats += n * width;
    }
    // Footers are input too: a count this heap could not hold falls back to arrays sized by the rows that come.
    boolean fits = floats > 0 && floats <= MAX_ARRAY_FLOATS
        && floats * Float.BYTES <= Runtime.getRuntime().maxMemory() / 2;
    return fits ? new float[(int) floats] : null;
  }

  /**
   * Reads file {@code file} in blocks of {@link #ROWS} rows: into {@code whole[from, to)} while that slice has
   * room (a footer that understated the rows only costs blocks of their own for the rest), else into arrays of
   * their own.
   */
  private FileRows readFile(NodeTable table, int file, int width, boolean fused, float[] whole, int from, int to) {
    boolean rowNormalize = "row".equals(model.spec().inputNormalize());
    List<Rows> blocks = new ArrayList<>();
    long[] minMax = {Long.MAX_VALUE, Long.MIN_VALUE, 0};
    long[][] ids = {new long[ROWS]};
    long[][] rows = {new long[ROWS]};
    // The block's values array, where its row 0 starts there, where the next block's would start in the slice,
    // and how many rows the block takes.
    int[] at = {0, from, ROWS};
    float[][] values = {null};
    Runnable nextValues = () -> {
      int room = whole == null ? 0 : (to - at[1]) / width;
      if (room > 0) {
        values[0] = whole;
        at[0] = at[1];
        at[2] = Math.min(ROWS, room);
      } else {
        values[0] = new float[ROWS * width];
        at[0] = 0;
        at[2] = ROWS;
      }
    };
    nextValues.run();
    int[][] lab = {labels ? new int[ROWS] : null};
    byte[][] spl = {labels ? new byte[ROWS] : null};
    int[] n = {0};
    boolean[] last = {false};
    Runnable flush = () -> {
      if (n[0] > 0) {
        Rows raw = new Rows(file, n[0], ids[0], rows[0], width, values[0], at[0], lab[0], spl[0]);
        blocks.add(fused ? fuse(raw) : raw);
        if (values[0] == whole) {
          at[1] = at[0] + n[0] * width;
        }
        lab[0] = labels ? new int[ROWS] : null;
        spl[0] = labels ? new byte[ROWS] : null;
        ids[0] = new long[ROWS];
        rows[0] = new long[ROWS];
        n[0] = 0;
        if (!last[0]) {
          nextValues.run();
        }
      }
    };
    table.readFile(file, new NodeSink() {
      @Override
      public void node(long id, int label, byte split, float[] features, long row) {
        minMax[0] = Math.min(minMax[0], id);
        minMax[1] = Math.max(minMax[1], id);
        minMax[2]++;
        int i = n[0]++;
        ids[0][i] = id;
        rows[0][i] = row;
        if (labels) {
          lab[0][i] = label;
          spl[0][i] = split;
        }
        System.arraycopy(features, 0, values[0], at[0] + i * width, width);
        if (rowNormalize) {
          RowNormalization.divideBySum(values[0], at[0] + i * width, width);
        }
        if (n[0] == at[2]) {
          flush.run();
        }
      }
    });
    last[0] = true;
    flush.run();
    return new FileRows(blocks, minMax[0], minMax[1], minMax[2]);
  }

  private Rows fuse(Rows raw) {
    // Fused reading never reads into a shared array (wholeArray is null): the block's values start at 0.
    DenseMatrix lin = linear(new DenseMatrix(raw.count(), raw.width(), raw.values()));
    return new Rows(raw.file(), raw.count(), raw.ids(), raw.rows(), lin.cols(), lin.data(), 0, null, null);
  }

  private DenseMatrix linear(DenseMatrix in) {
    DenseMatrix lin = new DenseMatrix(in.rows(), first.linearWidth());
    RowRanges.parallel(in.rows(), 256, (from, to) -> first.linear(in, from, to, lin));
    return lin;
  }

  /**
   * A partition's whole feature matrix (consumed): normalised, and with fusion transformed by the first layer.
   * Fusion applies whatever the widths here, since the rows are already where they are used.
   */
  public DenseMatrix load(DenseMatrix features) {
    RowNormalization.applyInput(model.spec().inputNormalize(), features);
    return fusion ? linear(features) : features;
  }
}
