package org.yarngnn.partition;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.compute.synth.RmatGenerator;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.EdgeTableWriter;
import org.yarngnn.io.table.NodeSplit;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.NodeTableWriter;
import org.yarngnn.io.table.TableFormat;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.partition.mr.PartitionJob;
import org.yarngnn.partition.mr.PartitionJobOptions;

/**
 * The construction benchmark behind {@code scripts/bench/construction}: generates an R-MAT graph as Parquet
 * (once; reused when present) plus the same edges as raw little-endian int64 pairs for PyTorch, then times the
 * in-memory construction from Parquet to finished CSR (P=1 and P=2, medians of 7 after a reported cold first run, wall-clock and
 * process CPU seconds, with the load average around them), and the partition MapReduce job with the local job
 * runner.
 * Usage: ConstructionBench DIR [nodes edges width files jobParts]
 */
public final class ConstructionBench {
  private ConstructionBench() {}

  public static void main(String[] args) throws Exception {
    java.nio.file.Path dir = java.nio.file.Path.of(args[0]);
    long nodes = args.length > 1 ? Long.parseLong(args[1]) : 1_000_000;
    long edges = args.length > 2 ? Long.parseLong(args[2]) : 20_000_000;
    int width = args.length > 3 ? Integer.parseInt(args[3]) : 16;
    int files = args.length > 4 ? Integer.parseInt(args[4]) : 8;
    int jobParts = args.length > 5 ? Integer.parseInt(args[5]) : 2;
    Configuration conf = new Configuration();
    ensureTables(conf, dir, nodes, edges, width, files);
    Path edgePath = localPath(dir.resolve("edges"));
    Path nodePath = localPath(dir.resolve("nodes"));
    GraphBuildOptions opts = GraphBuildOptions.builder().threads(2).build();

    System.out.printf(Locale.ROOT, "load average before: %s%n", loadAverage());
    Timing nodeRead = Timing.median(RUNS, () -> {
      NodeRows.read(NodeTable.open(conf, nodePath, TableReadOptions.defaults()));
    });
    for (int parts : new int[] {1, 2}) {
      PartitionBuilder.Result[] last = new PartitionBuilder.Result[1];
      Runnable build = () -> last[0] = PartitionBuilder.build(EdgeTable.open(conf, edgePath, TableReadOptions.defaults()),
          NodeTable.open(conf, nodePath, TableReadOptions.defaults()), parts, opts);
      Timing cold = Timing.median(1, build);
      Timing total = Timing.median(RUNS, build);
      PartitionedGraphStats s = last[0].stats();
      Timing edgePhase = total.minus(nodeRead);
      System.out.printf(Locale.ROOT, "in-memory construction P=%d: %s total (nodes table %s; edges read+route+CSR "
          + "%s = %.1f M edges/s, %.1f M edges per CPU-second; last run's CSR build alone %.2fs = %.1f M edges/s), "
          + "CSR %.2f bytes/edge, edge balance %.3f%n", parts, total, nodeRead, edgePhase,
          s.edges() / edgePhase.wall() / 1e6, s.edges() / edgePhase.cpu() / 1e6, s.buildSeconds(),
          s.edges() / s.buildSeconds() / 1e6, s.bytesPerEdge(), s.edgeBalance());
      if (parts == 1) {
        System.out.printf(Locale.ROOT, "  first run of the JVM (JIT cold, heap untouched), nodes table included: %s%n",
            cold);
        System.out.printf(Locale.ROOT, "RESULT construction_seconds=%.3f construction_cpu_seconds=%.3f "
            + "edges_per_second=%.0f bytes_per_edge=%.2f%n", edgePhase.wall(), edgePhase.cpu(),
            s.edges() / edgePhase.wall(), s.bytesPerEdge());
      }
      last[0] = null;
    }
    // The scans run after the builds: their sinks would otherwise make the reader's per-row call site
    // megamorphic before the builds are compiled, which a real run (one sink type) never sees.
    long m = EdgeTable.open(conf, edgePath, TableReadOptions.defaults()).countHint();
    Timing scan = Timing.median(RUNS, () -> EdgeTable.open(conf, edgePath, TableReadOptions.defaults())
        .read((src, dst, w, row) -> { }));
    System.out.printf(Locale.ROOT, "edges table scan alone (hdfs-io Parquet reader, one thread, no-op sink): %s "
        + "= %.1f M edges/s%n", scan, m / scan.wall() / 1e6);
    Timing scan2 = Timing.median(RUNS, () -> ParallelEdgeReader.read(EdgeTable.open(conf, edgePath,
        TableReadOptions.defaults()), 2, f -> new NoOpCollector()));
    System.out.printf(Locale.ROOT, "edges table scan alone, 2 reader threads (files in parallel): %s = %.1f M edges/s"
        + "%n", scan2, m / scan2.wall() / 1e6);
    System.out.printf(Locale.ROOT, "load average after: %s%n", loadAverage());
    java.nio.file.Path out = dir.resolve("partitioned-" + jobParts);
    long t = System.nanoTime();
    Configuration jobConf = new Configuration(conf);
    jobConf.set("mapreduce.cluster.local.dir", dir.resolve("mr-local").toString());
    jobConf.setInt("mapreduce.task.io.sort.mb", 256);
    PartitionedGraphStats js = PartitionJob.run(jobConf, PartitionJobOptions.builder().edges(edgePath).nodes(nodePath)
        .output(localPath(out)).partitions(jobParts).overwrite(true).local(true).build());
    double jobSeconds = (System.nanoTime() - t) / 1e9;
    System.out.printf(Locale.ROOT, "partition job (local job runner, P=%d): %.1fs wall%n%s%n", jobParts, jobSeconds,
        js.summary());
    System.out.printf(Locale.ROOT, "RESULT partition_job_seconds=%.1f%n", jobSeconds);
  }

  private static final int RUNS = 7;

  /** Median wall-clock and process CPU seconds of a few runs (CPU time is robust to other load). */
  private record Timing(double wall, double cpu) {
    private static final com.sun.management.OperatingSystemMXBean OS =
        (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();

    static Timing median(int runs, Runnable r) {
      double[] wall = new double[runs];
      double[] cpu = new double[runs];
      for (int i = 0; i < runs; i++) {
        System.gc();
        long c0 = OS.getProcessCpuTime();
        long t0 = System.nanoTime();
        r.run();
        wall[i] = (System.nanoTime() - t0) / 1e9;
        cpu[i] = (OS.getProcessCpuTime() - c0) / 1e9;
      }
      Arrays.sort(wall);
      Arrays.sort(cpu);
      return new Timing(wall[runs / 2], cpu[runs / 2]);
    }

    Timing minus(Timing t) {
      return new Timing(wall - t.wall, cpu - t.cpu);
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%.2fs wall / %.2f CPU-s", wall, cpu);
    }
  }

  /** Reads and drops every row. */
  private static final class NoOpCollector extends EdgeCollector {
    NoOpCollector() {
      super(null, false, null);
    }

    @Override
    public void edge(long src, long dst, float weight, long row) {
    }

    @Override
    public void edges(long[] src, long[] dst, float[] weight, int count, long firstRow) {
    }

    @Override
    void accept(int d, int s, float weight) {
    }
  }

  /**
   * A local path as a Hadoop path. Not through {@code toUri()}: that ends an existing directory with a slash,
   * and the output commit would then put its work directory inside the output it replaces.
   */
  static Path localPath(java.nio.file.Path p) {
    return new Path("file://" + p.toAbsolutePath());
  }

  static String loadAverage() {
    try {
      return Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
    } catch (java.io.IOException e) {
      return "unknown";
    }
  }

  /**
   * The benchmark's tables under {@code dir}, generated unless {@code dir/_DONE} says they are there: an R-MAT graph
   * (seed 42) as {@code files} Parquet edge files and one node file of {@code width} features, plus the same
   * edges as raw {@code edges.bin} for the PyTorch side. {@link ParquetDecoderBench} reads the same directory.
   */
  static void ensureTables(Configuration conf, java.nio.file.Path dir, long nodes, long edges, int width, int files)
      throws Exception {
    if (Files.exists(dir.resolve("_DONE"))) {
      return;
    }
    long t = System.nanoTime();
    generate(conf, dir, new RmatGenerator(RmatGenerator.builder().nodes(nodes).edges(edges).seed(42).build()), width,
        files);
    Files.writeString(dir.resolve("_DONE"), "");
    System.out.printf(Locale.ROOT, "generated R-MAT %,d nodes, %,d edges, %d features as Parquet in %.1fs%n",
        nodes, edges, width, (System.nanoTime() - t) / 1e9);
  }

  private static void generate(Configuration conf, java.nio.file.Path dir, RmatGenerator gen, int width, int files)
      throws Exception {
    Files.createDirectories(dir.resolve("edges"));
    Files.createDirectories(dir.resolve("nodes"));
    long m = gen.edgeCount();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<Future<?>> done = new ArrayList<>();
    try (OutputStream raw = new BufferedOutputStream(Files.newOutputStream(dir.resolve("edges.bin")), 1 << 20)) {
      for (int f = 0; f < files; f++) {
        int file = f;
        done.add(pool.submit(() -> {
          try (EdgeTableWriter w = EdgeTableWriter.create(conf,
              new Path(dir.resolve(String.format("edges/part-%05d.parquet", file)).toUri()), TableFormat.PARQUET,
              false)) {
            gen.generateEdges(RmatGenerator.chunkStart(m, file, files), RmatGenerator.chunkStart(m, file + 1, files),
                w::write);
          }
          return null;
        }));
      }
      done.add(pool.submit(() -> {
        try (NodeTableWriter w = NodeTableWriter.create(conf,
            new Path(dir.resolve("nodes/part-00000.parquet").toUri()), TableFormat.PARQUET, width, false)) {
          gen.generateNodes(0, gen.nodeCount(), width, (id, label, split, f) -> w.write(id, f, 0, label,
              NodeSplit.NONE));
        }
        return null;
      }));
      // The same edges, as int64 (src, dst) pairs for the PyTorch side of the benchmark.
      ByteBuffer b = ByteBuffer.allocate(16 << 16).order(ByteOrder.LITTLE_ENDIAN);
      DataOutputStream out = new DataOutputStream(raw);
      gen.generateEdges((s, d) -> {
        b.putLong(s).putLong(d);
        if (!b.hasRemaining()) {
          try {
            out.write(b.array(), 0, b.position());
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
          b.clear();
        }
      });
      out.write(b.array(), 0, b.position());
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }
}
