package org.yarngnn.io.table;

import java.nio.file.Files;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Not a unit test: measures single-thread edge read throughput per format.
 * Usage: {@code java -cp <test classpath> org.yarngnn.io.table.TableReadThroughput [edges] [formats...]}.
 */
public final class TableReadThroughput {
  /** Thread CPU time, because the build machine is shared and wall time swings with its load. */
  private static final java.lang.management.ThreadMXBean THREADS =
      java.lang.management.ManagementFactory.getThreadMXBean();

  private TableReadThroughput() {
  }

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000_000;
    String[] exts = args.length > 1 ? java.util.Arrays.copyOfRange(args, 1, args.length)
        : new String[] {"parquet", "orc", "tsv"};
    Configuration conf = new Configuration();
    java.nio.file.Path dir = Files.createTempDirectory("edges-bench");
    for (String ext : exts) {
      Path file = new Path(dir.resolve("edges." + ext).toUri());
      TableFormat format = TableFormat.fromFileName(file.getName());
      Random rnd = new Random(5);
      long t0 = System.nanoTime();
      try (EdgeTableWriter w = EdgeTableWriter.create(conf, file, format, false)) {
        for (int i = 0; i < n; i++) {
          // R-MAT-like skew is irrelevant to decoding cost; uniform ids over 1M nodes, sorted by src like real dumps.
          w.write(i / 20, rnd.nextInt(1_000_000));
        }
      }
      double writeS = (System.nanoTime() - t0) / 1e9;
      long bytes = Files.size(dir.resolve("edges." + ext));
      System.out.printf("%-8s write %.2f s (%.1f M edges/s), %.1f MB%n", ext, writeS, n / writeS / 1e6, bytes / 1e6);
      for (int rep = 0; rep < 4; rep++) {
        long[] acc = new long[2];
        long t1 = System.nanoTime();
        long c1 = THREADS.getCurrentThreadCpuTime();
        EdgeTable table = EdgeTable.open(conf, file, TableReadOptions.defaults());
        table.read((src, dst, weight, row) -> {
          acc[0] += src ^ dst;
          acc[1]++;
        });
        double readS = (System.nanoTime() - t1) / 1e9;
        double cpuS = (THREADS.getCurrentThreadCpuTime() - c1) / 1e9;
        System.out.printf("%-8s read  %.2f s wall, %.2f s cpu (%.1f M edges/s per cpu-second) check %d/%d%n",
            ext, readS, cpuS, acc[1] / cpuS / 1e6, acc[1], acc[0]);
      }
      Files.delete(dir.resolve("edges." + ext));
    }
  }
}
