package org.yarngnn.io.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Writers then readers give back exactly what was written, in every format. */
class TableRoundTripTest {
  @TempDir
  java.nio.file.Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc", "tsv", "csv", "tsv.gz", "csv.gz", "txt"})
  void weightedEdges(String ext) {
    Path file = TempTables.path(tmp, "edges." + ext);
    Random rnd = new Random(1);
    int n = 5000;
    long[] src = new long[n];
    long[] dst = new long[n];
    float[] w = new float[n];
    try (EdgeTableWriter out = EdgeTableWriter.create(TempTables.CONF, file, fmt(ext), true)) {
      for (int i = 0; i < n; i++) {
        src[i] = i == 0 ? Long.MIN_VALUE : i == 1 ? Long.MAX_VALUE : rnd.nextLong() >> rnd.nextInt(64);
        dst[i] = rnd.nextInt(1000) - 500;
        w[i] = i % 3 == 0 ? rnd.nextInt(5) : (float) (rnd.nextGaussian() * Math.pow(10, rnd.nextInt(20) - 10));
        out.write(src[i], dst[i], w[i]);
      }
    }
    EdgeTable table = EdgeTable.open(TempTables.CONF, file, TableReadOptions.defaults());
    assertTrue(table.weighted());
    Edges got = Edges.read(table);
    assertEquals(n, got.rows.size());
    for (int i = 0; i < n; i++) {
      assertEquals(src[i], got.rows.get(i)[0], "src " + i);
      assertEquals(dst[i], got.rows.get(i)[1], "dst " + i);
      assertEquals(w[i], got.weights.get(i), "weight " + i);
    }
    // Text rows are line numbers after the header line; Parquet/ORC rows are 1-based indexes.
    long firstRow = fmt(ext).isText() ? 2 : 1;
    assertEquals(firstRow, got.rows.get(0)[2]);
    assertEquals(List.of(file.toString()), got.files);
    assertTrue(table.countHint() > 0);
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc", "tsv", "csv.gz"})
  void unweightedEdgesInADirectoryOfParts(String ext) {
    Path dir = TempTables.path(tmp, "edges");
    for (int part = 0; part < 3; part++) {
      Path file = new Path(dir, OutputCommit.partName(part, fmt(ext)) + (ext.endsWith(".gz") ? ".gz" : ""));
      try (EdgeTableWriter out = EdgeTableWriter.create(TempTables.CONF, file, fmt(ext), false)) {
        for (int i = 0; i < 10; i++) {
          out.write(part * 100 + i, i);
        }
      }
    }
    TempTables.text(tmp, "edges/_SUCCESS", "");
    TempTables.text(tmp, "edges/.hidden.tsv", "not an edge\n");
    EdgeTable table = EdgeTable.open(TempTables.CONF, dir, TableReadOptions.defaults());
    assertFalse(table.weighted());
    assertEquals(3, table.files().size());
    Edges got = Edges.read(table);
    assertEquals(30, got.rows.size());
    assertEquals(205, got.rows.get(25)[0]);
    assertEquals(5, got.rows.get(25)[1]);
    assertEquals(1f, got.weights.get(25));
    if (!fmt(ext).isText()) {
      assertEquals(30, table.countHint());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc", "tsv", "csv", "tsv.gz", "csv.gz"})
  void labelledNodes(String ext) {
    Path file = TempTables.path(tmp, "nodes." + ext);
    Random rnd = new Random(2);
    int n = 300;
    int width = 37;
    float[] features = new float[n * width];
    for (int i = 0; i < features.length; i++) {
      features[i] = i % 4 == 0 ? 0f : i % 4 == 1 ? 1f : (float) (rnd.nextGaussian() * Math.pow(10, rnd.nextInt(12) - 6));
    }
    try (NodeTableWriter out = NodeTableWriter.create(TempTables.CONF, file, fmt(ext), width, true)) {
      for (int i = 0; i < n; i++) {
        out.write(1000L * i - 7, features, i * width, i % 7 - 1, (byte) (i % 4));
      }
    }
    NodeTable table = NodeTable.open(TempTables.CONF, file, TableReadOptions.defaults());
    assertEquals(width, table.featureWidth());
    assertTrue(table.hasLabels());
    assertTrue(table.hasSplits());
    Nodes got = Nodes.read(table);
    assertEquals(n, got.ids.size());
    for (int i = 0; i < n; i++) {
      assertEquals(1000L * i - 7, got.ids.get(i));
      assertEquals(i % 7 - 1, got.labels.get(i));
      assertEquals((byte) (i % 4), got.splits.get(i));
      assertArrayEquals(java.util.Arrays.copyOfRange(features, i * width, (i + 1) * width), got.features.get(i), "row " + i);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc", "tsv", "csv"})
  void plainNodes(String ext) {
    Path file = TempTables.path(tmp, "nodes." + ext);
    int width = 3;
    try (NodeTableWriter out = NodeTableWriter.create(TempTables.CONF, file, fmt(ext), width, false)) {
      out.write(5, new float[] {0.5f, -2f, 1e-7f}, 0);
      out.write(9, new float[] {9, 9, 0.1f, 0.2f, 0.3f}, 2);
    }
    NodeTable table = NodeTable.open(TempTables.CONF, file, TableReadOptions.defaults());
    assertFalse(table.hasLabels());
    assertFalse(table.hasSplits());
    assertEquals(3, table.featureWidth());
    Nodes got = Nodes.read(table);
    assertEquals(List.of(5L, 9L), got.ids);
    assertEquals(List.of(-1, -1), got.labels);
    assertEquals(NodeSplit.NONE, got.splits.get(0));
    assertArrayEquals(new float[] {0.1f, 0.2f, 0.3f}, got.features.get(1));
    assertArrayEquals(new float[] {0.5f, -2f, 1e-7f}, got.features.get(0));
  }

  @ParameterizedTest
  @ValueSource(strings = {"tsv", "csv"})
  void forcedFormatReadsFilesWithoutExtensions(String format) {
    String sep = format.equals("csv") ? "," : "\t";
    Path file = TempTables.text(tmp, "dir/000000_0", "1" + sep + "2\n3" + sep + "4\n");
    EdgeTable table = EdgeTable.open(TempTables.CONF, file.getParent(),
        TableReadOptions.builder().format(TableFormat.fromName(format)).build());
    assertEquals(2, Edges.read(table).rows.size());
  }

  private static TableFormat fmt(String ext) {
    return TableFormat.fromFileName("f." + ext);
  }
}
