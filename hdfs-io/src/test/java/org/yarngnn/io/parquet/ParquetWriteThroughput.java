package org.yarngnn.io.parquet;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.table.ColumnSpec;
import org.yarngnn.io.table.TableFormat;
import org.yarngnn.io.table.TableWriter;

/**
 * Not a unit test: embeddings output write time, the former record-assembly Parquet writer against the column
 * writer (and ORC for reference), interleaved in one JVM after one full-size warm-up run each; prints each run
 * and the medians.
 * Usage: {@code java -cp <test classpath> org.yarngnn.io.parquet.ParquetWriteThroughput [rows] [width] [runs]
 * [writers...]}.
 */
public final class ParquetWriteThroughput {
  private static final java.lang.management.ThreadMXBean THREADS =
      java.lang.management.ManagementFactory.getThreadMXBean();
  private static final String[] ALL_WRITERS = {"parquet-records", "parquet-columns", "orc"};

  private ParquetWriteThroughput() {
  }

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int width = args.length > 1 ? Integer.parseInt(args[1]) : 128;
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    String[] writers = args.length > 3 ? Arrays.copyOfRange(args, 3, args.length) : ALL_WRITERS;
    Configuration conf = new Configuration();
    java.nio.file.Path dir = Files.createTempDirectory("embeddings-bench");
    Random rnd = new Random(1);
    float[] data = new float[rows * width];
    for (int i = 0; i < data.length; i++) {
      data[i] = (float) rnd.nextGaussian();
    }
    double rawMb = rows * (8.0 + 4.0 * width) / 1e6;
    for (String w : writers) {
      write(conf, dir, w, data, rows, width); // warm-up: full size, so row-group flushes are compiled too
    }
    List<List<double[]>> times = new ArrayList<>();
    for (int i = 0; i < writers.length; i++) {
      times.add(new ArrayList<>());
    }
    for (int r = 0; r < runs; r++) {
      for (int i = 0; i < writers.length; i++) {
        double[] t = write(conf, dir, writers[i], data, rows, width);
        times.get(i).add(t);
        System.out.printf("run %d %-16s wall %.2f s  cpu %.2f s  file %.1f MB%n", r, writers[i], t[0], t[1], t[2]);
      }
    }
    System.out.printf("%d rows x %d floats (%.0f MB of values), median of %d:%n", rows, width, rawMb, runs);
    for (int i = 0; i < writers.length; i++) {
      double wall = median(times.get(i), 0);
      double cpu = median(times.get(i), 1);
      System.out.printf("%-16s wall %.2f s (%.0f MB/s)  cpu %.2f s%n", writers[i], wall, rawMb / wall, cpu);
    }
    try (java.util.stream.Stream<java.nio.file.Path> files = Files.list(dir)) {
      for (java.nio.file.Path f : files.toList()) {
        Files.delete(f); // a run leaves about 1.5 GB behind otherwise
      }
    }
    Files.delete(dir);
  }

  /** Wall seconds, this thread's CPU seconds and the file's MB. */
  private static double[] write(Configuration conf, java.nio.file.Path dir, String writer, float[] data, int rows,
      int width) throws Exception {
    boolean orc = writer.equals("orc");
    java.nio.file.Path local = dir.resolve(writer + (orc ? ".orc" : ".parquet"));
    Path file = new Path(local.toUri());
    Files.deleteIfExists(local);
    List<ColumnSpec> cols = List.of(ColumnSpec.int64("id"), ColumnSpec.floatList("embedding"));
    long c0 = THREADS.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    try (TableWriter w = writer.equals("parquet-records")
        ? new RecordConsumerParquetWriter(conf, file, "embeddings", cols)
        : TableWriter.create(conf, file, orc ? TableFormat.ORC : TableFormat.PARQUET, "embeddings", cols)) {
      for (int i = 0; i < rows; i++) {
        w.setLong(0, i);
        w.setFloats(1, data, i * width, width);
        w.endRow();
      }
    }
    double wall = (System.nanoTime() - t0) / 1e9;
    double cpu = (THREADS.getCurrentThreadCpuTime() - c0) / 1e9;
    return new double[] {wall, cpu, Files.size(local) / 1e6};
  }

  private static double median(List<double[]> runs, int field) {
    double[] v = runs.stream().mapToDouble(t -> t[field]).toArray();
    Arrays.sort(v);
    return v[v.length / 2];
  }
}
