package org.yarngnn.app.graphworker;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.compute.infer.RowNormalization;
import org.yarngnn.compute.kernel.RowRanges;
import org.yarngnn.compute.layer.Layer;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.model.ModelFiles;
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
  /** Where the model came from, named when the nodes' width does not fit it. */
  private final String modelPath;
  private final boolean labels;

  public FeatureLoader(Model model, String modelPath, Layer first, boolean fusion) {
    this(model, modelPath, first, fusion, false);
  }

  /**
   * With {@code labels} (training) every row keeps its label and split through routing; fusion is then off
   * ({@code first} may be null): training transforms the raw normalised rows itself.
   */
  public FeatureLoader(Model model, String modelPath, Layer first, boolean fusion, boolean labels) {
    if (labels && fusion) {
      throw new IllegalArgumentException("training rows are not fused");
    }
    this.model = model;
    this.first = first;
    this.fusion = fusion;
    this.modelPath = modelPath;
    this.labels = labels;
  }

  /** Whether rows keep their labels and splits. */
  /** Whether the first layer's transform is fused with loading (off in training). */
  boolean fusion() {
    return fusion;
  }

  String modelPath() {
    return modelPath;
  }

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
  public NodesRead read(Configuration conf, GraphJobOptions spec, FileShare mine)
      throws Exception {
    NodeTable table = NodeTable.open(conf, spec.get(GraphJobOptions.NODES),
        TableReadOptions.builder().format(spec.get(GraphJobOptions.NODES_FORMAT)).build());
    int width = table.featureWidth();
    ModelFiles.checkInputWidth(model, modelPath, width, spec.get(GraphJobOptions.NODES));
    boolean fused = fuses(width);
    List<Integer> files = new ArrayList<>();
    for (int f = 0; f < table.files().size(); f++) {
      if (mine.mine(f, table.files().size())) {
        files.add(f);
      }
    }
    // Exact row counts (Parquet and ORC footers) let every file's rows be read into their own slice of one array,
    // which the assembler takes as the feature matrix when this worker owns them all: no copy, no second matrix.
    long[] counts = new long[files.size()];
    for (int i = 0; !fused && i < files.size(); i++) {
      counts[i] = table.exactRows(files.get(i)); // a footer read each: once
    }
    float[] whole = fused ? null : wholeArray(counts, width);
    int[] base = new int[files.size() + 1];
    for (int i = 0; whole != null && i < files.size(); i++) {
      base[i + 1] = base[i] + (int) counts[i] * width;
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
   * One array for the rows of files of {@code counts} rows each (-1: not known), when every count is known and
   * they fit one array and half the heap; else null (text tables, or more than that).
   */
  private static float[] wholeArray(long[] counts, int width) {
    long floats = 0;
    for (long n : counts) {
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
    FileBlocks b = new FileBlocks(file, width, fused, whole, from, to);
    table.readFile(file, b);
    b.flush();
    return new FileRows(b.blocks, b.min, b.max, b.count);
  }

  /** One file's rows gathered into {@link Rows} blocks, each started at its first row. */
  private final class FileBlocks implements NodeSink {
    final List<Rows> blocks = new ArrayList<>();
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    long count;
    private final int file;
    private final int width;
    private final boolean fused;
    private final boolean rowNormalize = "row".equals(model.spec().inputNormalize());
    private final float[] whole;
    private final int to;
    /** Where the next block would start in {@code whole}. */
    private int next;
    private long[] ids;
    private long[] rows;
    private int[] lab;
    private byte[] spl;
    private float[] values;
    /** Where the block's row 0 starts in {@code values}, and the rows it takes. */
    private int start;
    private int capacity;
    private int n;

    FileBlocks(int file, int width, boolean fused, float[] whole, int from, int to) {
      this.file = file;
      this.width = width;
      this.fused = fused;
      this.whole = whole;
      this.next = from;
      this.to = to;
    }

    @Override
    public void node(long id, int label, byte split, float[] features, long row) {
      if (n == 0) {
        startBlock();
      }
      min = Math.min(min, id);
      max = Math.max(max, id);
      count++;
      int i = n++;
      ids[i] = id;
      rows[i] = row;
      if (labels) {
        lab[i] = label;
        spl[i] = split;
      }
      int o = start + i * width;
      System.arraycopy(features, 0, values, o, width);
      if (rowNormalize) {
        RowNormalization.divideBySum(values, o, width);
      }
      if (n == capacity) {
        flush();
      }
    }

    private void startBlock() {
      ids = new long[ROWS];
      rows = new long[ROWS];
      lab = labels ? new int[ROWS] : null;
      spl = labels ? new byte[ROWS] : null;
      int room = whole == null ? 0 : (to - next) / width;
      if (room > 0) {
        values = whole;
        start = next;
        capacity = Math.min(ROWS, room);
      } else {
        values = new float[ROWS * width];
        start = 0;
        capacity = ROWS;
      }
    }

    void flush() {
      if (n == 0) {
        return;
      }
      Rows raw = new Rows(file, n, ids, rows, width, values, start, lab, spl);
      blocks.add(fused ? fuse(raw) : raw);
      if (values == whole) {
        next = start + n * width;
      }
      n = 0;
    }
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
