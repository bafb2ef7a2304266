// The measured limit of each phase of `yarn-gnn infer --local` on this machine, for scripts/bench/inference's
// per-phase table: the least work each phase must do, timed with the same kernels and codec the job uses, on the
// same graph, on all cores (local workers share one JVM's cores, so the slowest worker's phase cannot end before
// the whole graph's work is done on all of them):
//   read-nodes   read the nodes table's column chunks, Snappy-decompress their pages, copy the values out as
//                little-endian ints (a stand-in for decoding plain pages: hdfs-io's decoders do no less)
//   route-nodes  the node rows that cross between workers (8 + 4F bytes each) through a loopback socket: the rows
//                of `generate`'s id chunks (one per node file) that the worker reading the file (a contiguous run
//                of files per worker) does not own (a contiguous range of ids per worker); 0 when each worker's
//                files are its own range, as 8 files over 1, 2 or 4 workers
//   edges        the same reading of the edges table, plus the edges that cross between workers (16 bytes each)
//                through the loopback socket, plus compute's CsrBuilder over all edges
//   plan         one pass over the CSR's sources marking the ones other workers own (the halo); sage also draws
//                every layer's sample (compute's NeighbourSampler)
//   layerK       the layer's GEMM at its shapes (compute's Gemm: [N, in] x [in, out], sage [in, 2 out], gat
//                [in, heads out]) plus its aggregation over the CSR at the layer's message width (compute's SpMM:
//                gcn scaled, over the edges and one self-loop a node; sage mean over its sampled edges at
//                min(in, out); gat the edge scores and softmax (Sddmm, EdgeSoftmax) and the weighted SpMM at
//                heads x out)
//   write        the output's bytes (an id and the last layer's values per row) copied out little-endian,
//                Snappy-compressed in 1 MiB pages and written to files beside the output, on all cores
// Each figure is the median of REPEATS timed runs after one warm-up run.
//   java --add-modules jdk.incubator.vector -Xmx10g -cp yarn-gnn.jar:HADOOP_CLASSPATH \
//     scripts/bench/inference-limits.java GRAPH_DIR SCRATCH_DIR WORKERS REPEATS NAME=MODEL_DIR...
// GRAPH_DIR holds `generate`'s edges/ and nodes/ Parquet tables (node ids 0..N-1); WORKERS is a comma-separated
// list. Prints one line per model, worker count and phase: limit TAB model TAB workers TAB phase TAB seconds.
import java.io.ByteArrayInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.xerial.snappy.Snappy;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.CsrBuilder;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.EdgeSoftmax;
import org.yarngnn.compute.kernel.Gemm;
import org.yarngnn.compute.kernel.PackedMatrix;
import org.yarngnn.compute.kernel.RowRanges;
import org.yarngnn.compute.kernel.Sddmm;
import org.yarngnn.compute.kernel.SpMM;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.LayerType;
import org.yarngnn.compute.model.ModelDirectory;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.sample.NeighbourSampler;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.parquet.ParquetFile;
import org.yarngnn.io.table.EdgeSink;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.TableReadOptions;

public class InferenceLimits {
  static final int THREADS = Runtime.getRuntime().availableProcessors();
  static final int PAGE = 1 << 20;
  static int repeats;

  public static void main(String[] args) throws Exception {
    if (args.length < 5) {
      System.err.println("usage: inference-limits.java GRAPH_DIR SCRATCH_DIR WORKERS REPEATS NAME=MODEL_DIR...");
      System.exit(2);
    }
    java.nio.file.Path graph = java.nio.file.Path.of(args[0]);
    java.nio.file.Path scratch = java.nio.file.Path.of(args[1]);
    int[] workers = Arrays.stream(args[2].split(",")).mapToInt(Integer::parseInt).toArray();
    repeats = Integer.parseInt(args[3]);
    Files.createDirectories(scratch);

    List<java.nio.file.Path> nodeFiles = parquetFiles(graph.resolve("nodes"));
    List<java.nio.file.Path> edgeFiles = parquetFiles(graph.resolve("edges"));
    double readNodes = time(() -> readPages(nodeFiles));
    double readEdges = time(() -> readPages(edgeFiles));
    long nodes = 0;
    for (java.nio.file.Path f : nodeFiles) {
      nodes += ParquetFile.footer(new Configuration(), new Path(f.toUri())).getBlocks().stream()
          .mapToLong(BlockMetaData::getRowCount).sum();
    }
    int n = Math.toIntExact(nodes);
    Edges e = Edges.read(graph.resolve("edges"), n);
    double loopback = loopbackBytesPerSecond();
    double csrBuild = time(() -> CsrBuilder.build(n, n, e.dst, e.src, null, e.count, null));
    Csr csr = CsrBuilder.build(n, n, e.dst, e.src, null, e.count, null);
    int features = -1;
    for (int a = 4; a < args.length; a++) {
      String name = args[a].substring(0, args[a].indexOf('='));
      ModelSpec spec = ModelDirectory.read(java.nio.file.Path.of(args[a].substring(name.length() + 1))).spec();
      features = spec.inputWidth();
      DenseMatrix x = random(n, features, 7);
      double[] layers = new double[spec.layers().size()];
      DenseMatrix h = x;
      List<GraphBlock> samples = new ArrayList<>();
      for (int k = 0; k < layers.length; k++) {
        LayerSpec l = spec.layers().get(k);
        if (l.type() == LayerType.SAGE) {
          samples.add(NeighbourSampler.sample(block(csr), l.fanout(), 0, k));
        }
        LayerKernels kernels = new LayerKernels(l, csr, samples.isEmpty() ? null : samples.get(samples.size() - 1), h);
        layers[k] = time(kernels::run);
        h = kernels.output();
      }
      DenseMatrix out = h;
      double write = time(() -> writePages(out, scratch));
      for (int w : workers) {
        double crossing = (w - 1) / (double) w;
        print(name, w, "read-nodes", readNodes);
        print(name, w, "route-nodes", crossingNodes(n, nodeFiles.size(), w) * (8.0 + 4.0 * features) / loopback);
        print(name, w, "edges", readEdges + crossing * e.count * 16.0 / loopback + csrBuild);
        print(name, w, "plan", time(() -> plan(csr, w, spec)));
        for (int k = 0; k < layers.length; k++) {
          print(name, w, "layer" + k, layers[k]);
        }
        print(name, w, "write", write);
      }
    }
  }

  static void print(String model, int workers, String phase, double seconds) {
    System.out.printf("limit\t%s\t%d\t%s\t%.4f%n", model, workers, phase, seconds);
  }

  /** Median seconds of {@link #repeats} runs after one warm-up run. */
  static double time(Task t) throws Exception {
    t.run();
    double[] s = new double[repeats];
    for (int r = 0; r < repeats; r++) {
      long t0 = System.nanoTime();
      t.run();
      s[r] = (System.nanoTime() - t0) / 1e9;
    }
    Arrays.sort(s);
    return repeats % 2 == 1 ? s[repeats / 2] : (s[repeats / 2 - 1] + s[repeats / 2]) / 2;
  }

  interface Task {
    void run() throws Exception;
  }

  /** Runs task(0..count-1) on {@link #THREADS} threads, each pulling the next index. */
  static void onThreads(int count, ThrowingIntConsumer task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      AtomicInteger next = new AtomicInteger();
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        fs.add(pool.submit(() -> {
          for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
            task.accept(i);
          }
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  interface ThrowingIntConsumer {
    void accept(int i) throws Exception;
  }

  static List<java.nio.file.Path> parquetFiles(java.nio.file.Path dir) throws IOException {
    try (var s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".parquet")).sorted().toList();
    }
  }

  /** Every column chunk's bytes read, every page Snappy-decompressed and its values copied out. */
  static void readPages(List<java.nio.file.Path> files) throws Exception {
    onThreads(files.size(), i -> {
      java.nio.file.Path f = files.get(i);
      ParquetMetadata footer = ParquetFile.footer(new Configuration(), new Path(f.toUri()));
      byte[] chunk = new byte[0];
      byte[] page = new byte[0];
      int[] values = new int[0];
      try (RandomAccessFile in = new RandomAccessFile(f.toFile(), "r")) {
        for (BlockMetaData b : footer.getBlocks()) {
          for (ColumnChunkMetaData c : b.getColumns()) {
            int size = Math.toIntExact(c.getTotalSize());
            chunk = chunk.length >= size ? chunk : new byte[size];
            in.seek(c.getStartingPos());
            in.readFully(chunk, 0, size);
            Position pos = new Position(chunk, size);
            while (pos.at() < size) {
              PageHeader h = Util.readPageHeader(pos);
              int at = pos.at();
              int compressed = h.getCompressed_page_size();
              int raw = h.getUncompressed_page_size();
              page = page.length >= raw ? page : new byte[raw];
              if (c.getCodec() == CompressionCodecName.SNAPPY) {
                Snappy.uncompress(chunk, at, compressed, page, 0);
              } else {
                System.arraycopy(chunk, at, page, 0, Math.min(raw, compressed));
              }
              values = values.length >= raw / 4 ? values : new int[raw / 4];
              ByteBuffer.wrap(page, 0, raw).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(values, 0, raw / 4);
              pos.skipTo(at + compressed);
            }
          }
        }
      }
    });
  }

  /** A ByteArrayInputStream whose position can be read and set, for the Thrift page headers. */
  static final class Position extends ByteArrayInputStream {
    Position(byte[] buf, int length) {
      super(buf, 0, length);
    }

    int at() {
      return pos;
    }

    void skipTo(int p) {
      pos = p;
    }
  }

  /** Bytes per second through a loopback TCP connection, one sender and one receiver thread, 1 MiB writes. */
  static double loopbackBytesPerSecond() throws Exception {
    long total = 1L << 29;
    double seconds = time(() -> {
      try (ServerSocketChannel server = ServerSocketChannel.open()) {
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread sender = new Thread(() -> {
          try (SocketChannel s = SocketChannel.open(server.getLocalAddress())) {
            ByteBuffer buf = ByteBuffer.allocateDirect(PAGE);
            for (long sent = 0; sent < total; sent += PAGE) {
              buf.clear();
              while (buf.hasRemaining()) {
                s.write(buf);
              }
            }
          } catch (IOException ex) {
            throw new IllegalStateException(ex);
          }
        });
        sender.start();
        try (SocketChannel r = server.accept()) {
          ByteBuffer buf = ByteBuffer.allocateDirect(PAGE);
          for (long got = 0; got < total; ) {
            buf.clear();
            int k = r.read(buf);
            if (k < 0) {
              throw new IOException("loopback closed after " + got + " bytes");
            }
            got += k;
          }
        }
        sender.join();
      }
    });
    return total / seconds;
  }

  /** The least the plan does: one pass over the sources marking those another worker owns; sage's samples. */
  static void plan(Csr csr, int workers, ModelSpec spec) {
    int n = csr.numRows();
    int per = (n + workers - 1) / workers;
    int[] col = csr.colIdx();
    int[] rowPtr = csr.rowPtr();
    byte[] halo = new byte[n];
    RowRanges.parallel(n, 4096, (from, to) -> {
      for (int i = from; i < to; i++) {
        int owner = i / per;
        for (int p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
          if (col[p] / per != owner) {
            halo[col[p]] = 1;
          }
        }
      }
    });
    for (int k = 0; k < spec.layers().size(); k++) {
      LayerSpec l = spec.layers().get(k);
      if (l.type() == LayerType.SAGE) {
        NeighbourSampler.sample(block(csr), l.fanout(), 0, k);
      }
    }
  }

  static GraphBlock block(Csr csr) {
    long[] ids = new long[csr.numRows()];
    Arrays.setAll(ids, i -> i);
    return new GraphBlock(ids, new long[0], csr);
  }

  /** The least work of one layer: its GEMM and its aggregation, on buffers allocated before timing. */
  static final class LayerKernels {
    private final LayerSpec l;
    private final DenseMatrix h;
    private final PackedMatrix w;
    private final DenseMatrix lin;
    private final DenseMatrix out;
    private final Csr agg;
    private final float[] scale;
    private float[] scores;
    private float[] srcScore;
    private float[] dstScore;

    LayerKernels(LayerSpec l, Csr csr, GraphBlock sample, DenseMatrix h) {
      this.l = l;
      this.h = h;
      int n = h.rows();
      int linWidth;
      switch (l.type()) {
        case GCN:
          linWidth = l.out();
          agg = withSelfLoops(csr);
          scale = new float[n];
          for (int i = 0; i < n; i++) {
            scale[i] = (float) (1 / Math.sqrt(agg.degree(i)));
          }
          out = new DenseMatrix(n, l.out());
          break;
        case SAGE:
          linWidth = 2 * l.out();
          agg = sample.inEdges();
          scale = null;
          out = new DenseMatrix(n, Math.min(l.in(), l.out()));
          break;
        default:
          linWidth = l.heads() * l.out();
          Csr loops = withSelfLoops(csr);
          scores = new float[Math.toIntExact(loops.numEdges() * l.heads())];
          srcScore = new float[n * l.heads()];
          dstScore = new float[n * l.heads()];
          // The aggregation's weights stand for one head's attention (1/degree: a row's weights sum to 1, so the
          // output has the values' spread, which matters to the write limit's compression), so the SpMM is
          // weighted as gat's is.
          float[] attention = new float[Math.toIntExact(loops.numEdges())];
          for (int i = 0; i < n; i++) {
            Arrays.fill(attention, loops.rowPtr()[i], loops.rowPtr()[i + 1], 1f / loops.degree(i));
          }
          agg = new Csr(n, n, loops.rowPtr(), loops.colIdx(), attention);
          scale = null;
          out = new DenseMatrix(n, linWidth);
      }
      w = PackedMatrix.pack(random(l.in(), linWidth, 11));
      lin = new DenseMatrix(n, linWidth);
    }

    void run() {
      Gemm.multiply(h, w, lin);
      switch (l.type()) {
        case GCN:
          SpMM.multiplyScaled(agg, scale, scale, lin, out);
          break;
        case SAGE:
          // Aggregated at the narrower width, as SageLayer does; lin's first columns stand in for the rows.
          SpMM.multiply(agg, lin.cols() == out.cols() ? lin : columns(lin, out.cols()), out, SpMM.Reduce.MEAN);
          break;
        default:
          Sddmm.leakyScores(agg, srcScore, dstScore, l.heads(), l.negativeSlope(), scores);
          EdgeSoftmax.softmax(agg, scores, l.heads());
          SpMM.multiply(agg, lin, out, SpMM.Reduce.SUM);
      }
    }

    /** The layer's output (its width, the next layer's input): the aggregation's, or lin's first columns. */
    DenseMatrix output() {
      int width = l.outputWidth();
      if (out.cols() == width) {
        return out;
      }
      DenseMatrix o = new DenseMatrix(out.rows(), width);
      for (int r = 0; r < o.rows(); r++) {
        System.arraycopy(lin.data(), lin.offset(r), o.data(), o.offset(r), width);
      }
      return o;
    }

    private DenseMatrix narrow;

    /** The first {@code cols} columns of {@code m}, copied once (in the warm-up run, so untimed). */
    private DenseMatrix columns(DenseMatrix m, int cols) {
      if (narrow == null) {
        narrow = new DenseMatrix(m.rows(), cols);
        for (int r = 0; r < m.rows(); r++) {
          System.arraycopy(m.data(), m.offset(r), narrow.data(), narrow.offset(r), cols);
        }
      }
      return narrow;
    }
  }

  static Csr withSelfLoops(Csr c) {
    int n = c.numRows();
    int[] rp = c.rowPtr();
    int[] col = c.colIdx();
    int[] np = new int[n + 1];
    int[] nc = new int[Math.toIntExact(c.numEdges() + n)];
    for (int i = 0; i < n; i++) {
      int d = rp[i + 1] - rp[i];
      System.arraycopy(col, rp[i], nc, np[i], d);
      nc[np[i] + d] = i;
      np[i + 1] = np[i] + d + 1;
    }
    return new Csr(n, c.numCols(), np, nc, null);
  }

  static DenseMatrix random(int rows, int cols, long seed) {
    // Uniform in [-1, 1) from a multiplicative hash: the kernels' cost does not depend on the values.
    float[] v = new float[Math.multiplyExact(rows, cols)];
    RowRanges.parallel(v.length, 1 << 16, (from, to) -> {
      for (int i = from; i < to; i++) {
        v[i] = (((i + seed) * 0x9E3779B97F4A7C15L) >>> 40) / (float) (1 << 23) - 1f;
      }
    });
    return new DenseMatrix(rows, cols, v);
  }

  /** The output's bytes (an id and the row's values), copied out, Snappy-compressed in pages, written. */
  static void writePages(DenseMatrix out, java.nio.file.Path dir) throws Exception {
    int rowBytes = 8 + 4 * out.cols();
    int rowsPerPage = Math.max(1, PAGE / rowBytes);
    int parts = THREADS;
    int n = out.rows();
    onThreads(parts, p -> {
      int from = (int) ((long) n * p / parts);
      int to = (int) ((long) n * (p + 1) / parts);
      java.nio.file.Path f = dir.resolve("limits-part-" + p);
      ByteBuffer page = ByteBuffer.allocate(rowsPerPage * rowBytes).order(ByteOrder.LITTLE_ENDIAN);
      byte[] packed = new byte[Snappy.maxCompressedLength(page.capacity())];
      try (FileOutputStream o = new FileOutputStream(f.toFile())) {
        for (int r = from; r < to; ) {
          page.clear();
          int end = Math.min(to, r + rowsPerPage);
          for (int i = r; i < end; i++) {
            page.putLong(i);
          }
          for (int i = r; i < end; i++) {
            for (int c = 0, at = out.offset(i); c < out.cols(); c++) {
              page.putFloat(out.data()[at + c]);
            }
          }
          int k = Snappy.compress(page.array(), 0, page.position(), packed, 0);
          o.write(packed, 0, k);
          r = end;
        }
      }
      Files.delete(f);
    });
  }

  /** All edges of the table as row indexes (the generator's ids are 0..n-1). */
  static final class Edges implements EdgeSink {
    int[] src = new int[1 << 20];
    int[] dst = new int[1 << 20];
    int count;
    final int n;

    Edges(int n) {
      this.n = n;
    }

    static Edges read(java.nio.file.Path dir, int n) {
      Edges e = new Edges(n);
      EdgeTable.open(new Configuration(), new Path(dir.toUri()), TableReadOptions.defaults()).read(e);
      return e;
    }

    @Override
    public void edge(long s, long d, float weight, long row) {
      if (s < 0 || s >= n || d < 0 || d >= n) {
        throw new IllegalArgumentException("edge row " + row + ": id outside 0.." + (n - 1));
      }
      if (count == src.length) {
        src = Arrays.copyOf(src, count * 2);
        dst = Arrays.copyOf(dst, count * 2);
      }
      src[count] = (int) s;
      dst[count++] = (int) d;
    }
  }

  /**
   * Node rows read by a worker that does not own them: file f holds `generate`'s id chunk f; the share is the cost
   * model's for files read in contiguous runs and ids owned in ranges (CostInputs.contiguousCrossing).
   */
  static long crossingNodes(long n, int files, int w) {
    long[] lo = new long[files];
    long[] hi = new long[files];
    long[] rows = new long[files];
    for (int f = 0; f < files; f++) {
      lo[f] = org.yarngnn.compute.synth.RmatGenerator.chunkStart(n, f, files);
      hi[f] = org.yarngnn.compute.synth.RmatGenerator.chunkStart(n, f + 1, files) - 1;
      rows[f] = hi[f] - lo[f] + 1;
    }
    return Math.round(n * org.yarngnn.compute.cost.CostInputs.contiguousCrossing(n, w, lo, hi, rows));
  }
}
