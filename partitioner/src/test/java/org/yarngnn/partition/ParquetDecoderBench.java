package org.yarngnn.partition;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.yarngnn.io.table.EdgeSink;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.TableReadOptions;

/**
 * Not a unit test: the measurement behind keeping hdfs-io's hand-written Parquet page decoding
 * ({@code org.yarngnn.io.parquet}): the construction benchmark's tables read (a) by {@link EdgeTable} /
 * {@link NodeTable} into sinks that only sum what they get, and (b) by parquet-mr's own column API
 * ({@link ParquetFileReader} row groups, {@link ColumnReadStoreImpl} with a do-nothing {@link GroupConverter},
 * {@link ColumnReader#getLong()} / {@link ColumnReader#getFloat()} per value, repetition and definition levels
 * honoured for the feature list), interleaved in one JVM after warm-up rounds, one thread, medians reported.
 * Both readers' checksums (sum of ids, sum of features) are compared, so each provably decoded every value.
 * Usage: {@code ParquetDecoderBench DIR [runs [nodes edges width files]]}; when {@code DIR/_DONE} is absent the
 * tables are generated there by {@link ConstructionBench#ensureTables}, as {@code scripts/bench/construction} does
 * (so either reuses the other's).
 */
public final class ParquetDecoderBench {
  private static final java.lang.management.ThreadMXBean THREADS =
      java.lang.management.ManagementFactory.getThreadMXBean();
  private static final int WARMUP = 3;

  private ParquetDecoderBench() {
  }

  public static void main(String[] args) throws Exception {
    java.nio.file.Path dir = java.nio.file.Path.of(args[0]);
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    long nodes = args.length > 2 ? Long.parseLong(args[2]) : 1_000_000;
    long edges = args.length > 3 ? Long.parseLong(args[3]) : 20_000_000;
    int width = args.length > 4 ? Integer.parseInt(args[4]) : 16;
    int files = args.length > 5 ? Integer.parseInt(args[5]) : 8;
    Configuration conf = new Configuration();
    ConstructionBench.ensureTables(conf, dir, nodes, edges, width, files);
    Path edgePath = ConstructionBench.localPath(dir.resolve("edges"));
    Path nodePath = ConstructionBench.localPath(dir.resolve("nodes"));
    List<Path> edgeFiles = EdgeTable.open(conf, edgePath, TableReadOptions.defaults()).files();
    List<Path> nodeFiles = NodeTable.open(conf, nodePath, TableReadOptions.defaults()).files();

    Task[] tasks = {
        new Task("edges", "hdfs-io", () -> readEdges(conf, edgePath)),
        new Task("edges", "parquet-mr", () -> columnApi(conf, edgeFiles, "src", "dst")),
        new Task("nodes", "hdfs-io", () -> readNodes(conf, nodePath)),
        new Task("nodes", "parquet-mr", () -> columnApi(conf, nodeFiles, "id", "features"))};
    System.out.printf(Locale.ROOT, "%s: %d edge files, %d node files; %d warm-up rounds, %d timed, interleaved; "
        + "load average before: %s%n", dir, edgeFiles.size(), nodeFiles.size(), WARMUP, runs,
        ConstructionBench.loadAverage());
    for (int round = 0; round < WARMUP + runs; round++) {
      for (Task t : tasks) {
        t.run(round >= WARMUP);
      }
    }
    System.out.printf(Locale.ROOT, "load average after: %s%n", ConstructionBench.loadAverage());
    for (int i = 0; i < tasks.length; i += 2) {
      Task own = tasks[i];
      Task mr = tasks[i + 1];
      if (own.check.rows != mr.check.rows || own.check.ids != mr.check.ids
          || Double.compare(own.check.features, mr.check.features) != 0 || own.check.values != mr.check.values) {
        throw new IllegalStateException(own.table + ": the readers disagree: " + own.check + " vs " + mr.check);
      }
    }
    System.out.printf(Locale.ROOT, "%-6s %-11s %12s %9s %9s %10s %12s%n", "table", "reader", "rows", "wall s",
        "cpu s", "M rows/s", "M rows/cpu-s");
    for (Task t : tasks) {
      System.out.printf(Locale.ROOT, "%-6s %-11s %,12d %9.3f %9.3f %10.2f %12.2f%n", t.table, t.reader, t.check.rows,
          t.wall(), t.cpu(), t.check.rows / t.wall() / 1e6, t.check.rows / t.cpu() / 1e6);
    }
    for (int i = 0; i < tasks.length; i += 2) {
      System.out.printf(Locale.ROOT, "%-6s parquet-mr / hdfs-io: %.2fx wall, %.2fx cpu (checksums agree: %s)%n",
          tasks[i].table, tasks[i + 1].wall() / tasks[i].wall(), tasks[i + 1].cpu() / tasks[i].cpu(), tasks[i].check);
    }
    System.out.printf(Locale.ROOT, "RESULT edges_hdfsio_s=%.3f edges_parquetmr_s=%.3f nodes_hdfsio_s=%.3f "
        + "nodes_parquetmr_s=%.3f%n", tasks[0].wall(), tasks[1].wall(), tasks[2].wall(), tasks[3].wall());
  }

  /** Rows, ids summed, features summed (in file order), feature values counted: what a reader decoded. */
  private static final class Check {
    long rows;
    long ids;
    double features;
    long values;

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "rows=%d ids=%d features=%.6g values=%d", rows, ids, features, values);
    }
  }

  private interface Read {
    Check run() throws IOException;
  }

  /** One reader of one table: the wall and thread CPU seconds of each timed run. */
  private static final class Task {
    final String table;
    final String reader;
    final Read read;
    final List<double[]> times = new ArrayList<>();
    Check check;

    Task(String table, String reader, Read read) {
      this.table = table;
      this.reader = reader;
      this.read = read;
    }

    void run(boolean timed) throws IOException {
      System.gc();
      long c0 = THREADS.getCurrentThreadCpuTime();
      long t0 = System.nanoTime();
      Check c = read.run();
      double wall = (System.nanoTime() - t0) / 1e9;
      double cpu = (THREADS.getCurrentThreadCpuTime() - c0) / 1e9;
      if (check != null && (c.rows != check.rows || c.ids != check.ids)) {
        throw new IllegalStateException(table + " " + reader + " read differently: " + c + " vs " + check);
      }
      check = c;
      if (timed) {
        times.add(new double[] {wall, cpu});
      }
    }

    double wall() {
      return median(0);
    }

    double cpu() {
      return median(1);
    }

    private double median(int k) {
      double[] v = times.stream().mapToDouble(t -> t[k]).sorted().toArray();
      return v[v.length / 2];
    }
  }

  /** (a) The project's reader, batch by batch as the construction's collectors take it. */
  private static Check readEdges(Configuration conf, Path path) {
    Check c = new Check();
    EdgeTable.open(conf, path, TableReadOptions.defaults()).read(new EdgeSink() {
      @Override
      public void edge(long src, long dst, float weight, long row) {
        c.ids += src + dst;
        c.rows++;
      }

      @Override
      public void edges(long[] src, long[] dst, float[] weight, int count, long firstRow) {
        long s = 0;
        for (int i = 0; i < count; i++) {
          s += src[i] + dst[i];
        }
        c.ids += s;
        c.rows += count;
      }
    });
    c.values = c.rows * 2;
    return c;
  }

  private static Check readNodes(Configuration conf, Path path) {
    Check c = new Check();
    NodeTable.open(conf, path, TableReadOptions.defaults()).read((id, label, split, features, row) -> {
      c.ids += id;
      c.rows++;
      double s = c.features;
      for (float f : features) {
        s += f;
      }
      c.features = s;
      c.values += 1 + features.length;
    });
    return c;
  }

  /**
   * (b) parquet-mr's column API: each row group through {@link ParquetFileReader#readNextRowGroup()}, each column
   * through its {@link ColumnReader}, value by value. The first column is the id-like one (summed into
   * {@code ids}); a second repeated column is the feature list (present values summed into {@code features}),
   * a second scalar one is summed into {@code ids} too (edges: src and dst).
   */
  private static Check columnApi(Configuration conf, List<Path> files, String... columns) throws IOException {
    Check c = new Check();
    for (Path file : files) {
      HadoopInputFile in = HadoopInputFile.fromPath(file, conf);
      try (ParquetFileReader reader = ParquetFileReader.open(in, HadoopReadOptions.builder(conf, file).build())) {
        MessageType schema = reader.getFileMetaData().getSchema();
        List<Type> fields = new ArrayList<>();
        for (String name : columns) {
          fields.add(schema.getType(name));
        }
        MessageType projection = new MessageType(schema.getName(), fields);
        reader.setRequestedSchema(projection);
        String createdBy = reader.getFileMetaData().getCreatedBy();
        GroupConverter root = new NoOpGroup(projection);
        PageReadStore pages;
        while ((pages = reader.readNextRowGroup()) != null) {
          ColumnReadStoreImpl store = new ColumnReadStoreImpl(pages, root, projection, createdBy);
          c.rows += pages.getRowCount();
          for (ColumnDescriptor d : projection.getColumns()) {
            ColumnReader r = store.getColumnReader(d);
            if (d.getMaxRepetitionLevel() > 0) {
              readList(r, d, c);
            } else {
              readScalar(r, d, c);
            }
          }
        }
      }
    }
    return c;
  }

  private static void readScalar(ColumnReader r, ColumnDescriptor d, Check c) {
    int maxDef = d.getMaxDefinitionLevel();
    boolean int32 = d.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.INT32;
    long s = 0;
    long n = 0;
    for (long left = r.getTotalValueCount(); left > 0; left--) {
      if (r.getCurrentDefinitionLevel() == maxDef) {
        s += int32 ? r.getInteger() : r.getLong();
        n++;
      }
      r.consume();
    }
    c.ids += s;
    c.values += n;
  }

  /** A LIST&lt;FLOAT&gt; leaf: a value where the definition level is the maximum; repetition level 0 starts a row. */
  private static void readList(ColumnReader r, ColumnDescriptor d, Check c) {
    int maxDef = d.getMaxDefinitionLevel();
    double s = c.features;
    long n = 0;
    long rows = 0;
    for (long left = r.getTotalValueCount(); left > 0; left--) {
      if (r.getCurrentRepetitionLevel() == 0) {
        rows++;
      }
      if (r.getCurrentDefinitionLevel() == maxDef) {
        s += r.getFloat();
        n++;
      }
      r.consume();
    }
    if (rows == 0 && n > 0) {
      throw new IllegalStateException("list values without rows");
    }
    c.features = s;
    c.values += n;
  }

  /** Converters that drop everything (ColumnReadStoreImpl asks for one per leaf; the column API bypasses them). */
  private static final class NoOpGroup extends GroupConverter {
    private final Converter[] children;

    NoOpGroup(GroupType type) {
      children = new Converter[type.getFieldCount()];
      for (int i = 0; i < children.length; i++) {
        Type t = type.getType(i);
        children[i] = t.isPrimitive() ? new PrimitiveConverter() { } : new NoOpGroup(t.asGroupType());
      }
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return children[fieldIndex];
    }

    @Override
    public void start() {
    }

    @Override
    public void end() {
    }
  }
}
