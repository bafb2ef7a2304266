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
import org.yarngnn.io.EdgeTable;
import org.yarngnn.io.EdgeTableWriter;
import org.yarngnn.io.NodeSplit;
import org.yarngnn.io.NodeTable;
import org.yarngnn.io.NodeTableWriter;
import org.yarngnn.io.TableFormat;
import org.yarngnn.io.TableReadOptions;

/**
 * The construction benchmark behind {@code scripts/bench/construction}: generates an R-MAT graph as Parquet
 * (once; reused when present) plus the same edges as raw little-endian int64 pairs for PyTorch, then times the
 * in-memory construction from Parquet to finished CSR (P=1 and P=2, medians of 3 after a warm-up), and the
 * partition MapReduce job with the local job runner.
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
    RmatGenerator gen = new RmatGenerator(RmatGenerator.builder().nodes(nodes).edges(edges).seed(42).build());
    if (!Files.exists(dir.resolve("_DONE"))) {
      long t = System.nanoTime();
      generate(conf, dir, gen, width, files);
      Files.writeString(dir.resolve("_DONE"), "");
      System.out.printf(Locale.ROOT, "generated R-MAT %,d nodes, %,d edges, %d features as Parquet in %.1fs%n",
          nodes, edges, width, (System.nanoTime() - t) / 1e9);
    }
    Path edgePath = new Path(dir.resolve("edges").toUri());
    Path nodePath = new Path(dir.resolve("nodes").toUri());
    GraphBuildOptions opts = GraphBuildOptions.builder().threads(2).build();

    double nodeRead = median(3, () -> {
      NodeRows.read(NodeTable.open(conf, nodePath, TableReadOptions.defaults()));
    });
    long[] count = new long[1];
    double scan = median(3, () -> EdgeTable.open(conf, edgePath, TableReadOptions.defaults())
        .read((src, dst, w, row) -> count[0]++));
    System.out.printf(Locale.ROOT, "edges table scan alone (hdfs-io Parquet reader, one thread, no-op sink): %.2fs "
        + "= %.1f M edges/s%n", scan, count[0] / 3.0 / scan / 1e6);
    for (int parts : new int[] {1, 2}) {
      PartitionBuilder.Result[] last = new PartitionBuilder.Result[1];
      Runnable build = () -> last[0] = PartitionBuilder.build(EdgeTable.open(conf, edgePath, TableReadOptions.defaults()),
          NodeTable.open(conf, nodePath, TableReadOptions.defaults()), parts, opts);
      build.run();
      double total = median(3, build);
      PartitioningStats s = last[0].stats();
      double edgePhase = total - nodeRead;
      System.out.printf(Locale.ROOT, "in-memory construction P=%d: %.2fs total (nodes table %.2fs, edges read+route+CSR "
          + "%.2fs = %.1f M edges/s; CSR build alone %.2fs = %.1f M edges/s), CSR %.2f bytes/edge, "
          + "edge balance %.3f%n", parts, total, nodeRead, edgePhase, s.edges() / edgePhase / 1e6,
          s.buildSeconds(), s.edges() / s.buildSeconds() / 1e6, s.bytesPerEdge(), s.edgeBalance());
      if (parts == 1) {
        System.out.printf(Locale.ROOT, "RESULT construction_seconds=%.3f edges_per_second=%.0f bytes_per_edge=%.2f%n",
            edgePhase, s.edges() / edgePhase, s.bytesPerEdge());
      }
      last[0] = null;
    }
    java.nio.file.Path out = dir.resolve("partitioned-" + jobParts);
    long t = System.nanoTime();
    Configuration jobConf = new Configuration(conf);
    jobConf.set("mapreduce.cluster.local.dir", dir.resolve("mr-local").toString());
    jobConf.setInt("mapreduce.task.io.sort.mb", 256);
    PartitioningStats js = PartitionJob.run(jobConf, PartitionJobOptions.builder().edges(edgePath).nodes(nodePath)
        .output(new Path(out.toUri())).partitions(jobParts).overwrite(true).local(true).build());
    double jobSeconds = (System.nanoTime() - t) / 1e9;
    System.out.printf(Locale.ROOT, "partition job (local job runner, P=%d): %.1fs wall%n%s%n", jobParts, jobSeconds,
        js.summary());
    System.out.printf(Locale.ROOT, "RESULT partition_job_seconds=%.1f%n", jobSeconds);
  }

  private static double median(int runs, Runnable r) {
    double[] t = new double[runs];
    for (int i = 0; i < runs; i++) {
      System.gc();
      long t0 = System.nanoTime();
      r.run();
      t[i] = (System.nanoTime() - t0) / 1e9;
    }
    Arrays.sort(t);
    return t[runs / 2];
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
