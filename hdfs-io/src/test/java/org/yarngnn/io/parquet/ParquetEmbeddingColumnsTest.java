package org.yarngnn.io.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.yarngnn.io.table.ColumnSpec;
import org.yarngnn.io.table.EmbeddingTable;
import org.yarngnn.io.table.EmbeddingWriter;
import org.yarngnn.io.table.TableWriter;
import org.yarngnn.io.table.TempTables;

/**
 * Embeddings written through the column writers read back value for value with parquet-mr's generic reader
 * (no project code on the read side) and with EmbeddingTable, across several row groups; the file's layout
 * matches the former record-assembly writer's.
 */
class ParquetEmbeddingColumnsTest {
  private static final String SCHEMA_WITH_PREDICTION = "message embeddings {\n"
      + "  required int64 id;\n"
      + "  required group embedding (LIST) {\n"
      + "    repeated group list {\n"
      + "      required float element;\n"
      + "    }\n"
      + "  }\n"
      + "  required int32 prediction;\n"
      + "}\n";
  private static final String SCHEMA_WITHOUT_PREDICTION =
      SCHEMA_WITH_PREDICTION.replace("  required int32 prediction;\n", "");

  @TempDir
  java.nio.file.Path tmp;

  @ParameterizedTest
  @CsvSource({"1, true", "1, false", "130, true", "130, false"})
  void severalRowGroupsReadBackEverywhere(int width, boolean withPrediction) throws IOException {
    int rows = 3000;
    float[] data = randomRows(rows, width, 11 + width);
    Path file = TempTables.path(tmp, "part-00000.parquet");
    long rowBytes = 8 + 4L * width + (withPrediction ? 4 : 0);
    long rowGroupBytes = rows * rowBytes / 6;
    try (EmbeddingWriter w = EmbeddingWriter.parquet(TempTables.CONF, file, width, withPrediction, rowGroupBytes)) {
      for (int i = 0; i < rows; i++) {
        w.write(id(i), data, i * width, i % 7);
      }
    }

    ParquetMetadata footer = footer(file);
    assertEquals(withPrediction ? SCHEMA_WITH_PREDICTION : SCHEMA_WITHOUT_PREDICTION,
        footer.getFileMetaData().getSchema().toString());
    assertTrue(footer.getBlocks().size() >= 3, "row groups: " + footer.getBlocks().size());
    assertEquals(rows, footer.getBlocks().stream().mapToLong(BlockMetaData::getRowCount).sum());

    List<Group> groups = readGroups(file);
    assertEquals(rows, groups.size());
    for (int i = 0; i < rows; i++) {
      Group g = groups.get(i);
      assertEquals(id(i), g.getLong("id", 0));
      assertArrayEquals(bits(data, i * width, width), bits(elements(g)), "row " + i);
      if (withPrediction) {
        assertEquals(i % 7, g.getInteger("prediction", 0));
      } else {
        assertFalse(g.getType().containsField("prediction"));
      }
    }

    EmbeddingTable table = EmbeddingTable.read(TempTables.CONF, file);
    assertEquals(rows, table.size());
    assertEquals(width, table.width());
    assertEquals(withPrediction, table.hasPredictions());
    for (int i = 0; i < rows; i++) {
      assertArrayEquals(bits(data, i * width, width), bits(table.embedding(id(i))), "row " + i);
      if (withPrediction) {
        assertEquals(i % 7, table.predictions().get(id(i)));
      } else {
        assertNull(table.predictions().get(id(i)));
      }
    }
  }

  @Test
  void emptyEmbeddingsAreEmptyLists() throws IOException {
    Path file = TempTables.path(tmp, "empty.parquet");
    try (EmbeddingWriter w = EmbeddingWriter.parquet(TempTables.CONF, file, 0, false, 1024)) {
      for (int i = 0; i < 500; i++) {
        w.write(id(i), new float[0], 0, 0);
      }
    }
    List<Group> groups = readGroups(file);
    assertEquals(500, groups.size());
    for (int i = 0; i < 500; i++) {
      assertEquals(id(i), groups.get(i).getLong("id", 0));
      assertEquals(0, elements(groups.get(i)).length);
    }
  }

  /**
   * The same rows through the former RecordConsumer writer (parquet-mr's record assembly and column writers)
   * read back the same, value for value, and the footers agree: schema, row groups and their row counts, each
   * column chunk's statistics (min, max under parquet-mr's order with NaN and -0.0 in the data, null count) and
   * encodings. The float lists' levels are encoded as runs here, so the bytes differ. Covers a node table's
   * columns too (strings, plain floats), and empty lists.
   */
  /**
   * The float list's min/max pass runs on vectors with Math.min/max semantics: the page statistics must still be
   * parquet-mr's where the extremes sit in any lane or the tail and where zeros of both signs or infinities are
   * the extremes, on rows shorter and longer than a vector, and where a NaN sends the row to the exact pass.
   */
  @Test
  void floatListStatisticsMatchRecordAssemblyForEdgeValues() throws IOException {
    float[][] rowsOf = {
        {1f, 2f, 3f, 4f, 5f, 6f, 7f, -9f, 8f},
        {3f, -5f, 2f, 9f, 1f},
        {0.5f, 0.25f, 0.125f, 0.75f, 0.0625f, 40f, 0.3f},
        {-0.0f, 1f, 2f, 3f, 4f},
        {0.0f, -1f, -2f, -3f, -0.0f, -4f},
        {Float.POSITIVE_INFINITY, 1f, 2f, Float.NEGATIVE_INFINITY, 3f},
        {7f},
        {2f, 2f},
        {-1e30f, 1e30f, -3e38f, 3e38f, 1f, 2f, 3f, 4f, 5f},
        {1f, Float.NaN, -2f, 4f},
    };
    // Each row again, repeated to 37 values (scaled by its repeat), so that the values fill vector lanes too.
    float[][] longer = new float[rowsOf.length * 2][];
    for (int r = 0; r < rowsOf.length; r++) {
      longer[2 * r] = rowsOf[r];
      longer[2 * r + 1] = new float[37];
      for (int k = 0; k < 37; k++) {
        longer[2 * r + 1][k] = rowsOf[r][k % rowsOf[r].length] * (1 + k / rowsOf[r].length);
      }
    }
    rowsOf = longer;
    List<ColumnSpec> cols = List.of(ColumnSpec.floatList("embedding"));
    for (int r = 0; r < rowsOf.length; r++) {
      Path columns = TempTables.path(tmp, "edge-columns-" + r + ".parquet");
      Path records = TempTables.path(tmp, "edge-records-" + r + ".parquet");
      try (TableWriter a = new ParquetTableWriter(TempTables.CONF, columns, "embeddings", cols);
          TableWriter b = new RecordConsumerParquetWriter(TempTables.CONF, records, "embeddings", cols)) {
        for (TableWriter w : List.of(a, b)) {
          w.setFloats(0, rowsOf[r], 0, rowsOf[r].length);
          w.endRow();
        }
      }
      Statistics<?> got = footer(columns).getBlocks().get(0).getColumns().get(0).getStatistics();
      Statistics<?> want = footer(records).getBlocks().get(0).getColumns().get(0).getStatistics();
      assertEquals(want, got, "row " + r);
    }
  }

  @Test
  void sameContentAndStatisticsAsRecordAssembly() throws IOException {
    int rows = 12_000;
    int width = 40; // about 1.9 MB of floats: two data pages
    float[] data = randomRows(rows, width, 5);
    List<ColumnSpec> cols = List.of(ColumnSpec.int64("id"), ColumnSpec.floatList("embedding"),
        ColumnSpec.int32("prediction"), ColumnSpec.floatList("empty"), ColumnSpec.float32("score"),
        ColumnSpec.string("split"));
    Path columns = TempTables.path(tmp, "columns.parquet");
    Path records = TempTables.path(tmp, "records.parquet");
    byte[][] splits = {"train".getBytes(), "val".getBytes(), "test".getBytes()};
    try (TableWriter a = new ParquetTableWriter(TempTables.CONF, columns, "embeddings", cols);
        TableWriter b = new RecordConsumerParquetWriter(TempTables.CONF, records, "embeddings", cols)) {
      for (TableWriter w : List.of(a, b)) {
        for (int i = 0; i < rows; i++) {
          w.setLong(0, id(i));
          w.setFloats(1, data, i * width, width);
          w.setInt(2, i % 3);
          w.setFloats(3, data, 0, i % 2);
          w.setFloat(4, data[i]);
          w.setString(5, splits[i % 3]);
          w.endRow();
        }
      }
    }
    ParquetMetadata a = footer(columns);
    ParquetMetadata b = footer(records);
    assertEquals(b.getFileMetaData().getSchema(), a.getFileMetaData().getSchema());
    assertEquals(b.getBlocks().size(), a.getBlocks().size());
    for (int g = 0; g < a.getBlocks().size(); g++) {
      BlockMetaData ga = a.getBlocks().get(g);
      BlockMetaData gb = b.getBlocks().get(g);
      assertEquals(gb.getRowCount(), ga.getRowCount(), "row group " + g);
      for (int c = 0; c < ga.getColumns().size(); c++) {
        String where = "row group " + g + " column " + ga.getColumns().get(c).getPath();
        assertEquals(gb.getColumns().get(c).getValueCount(), ga.getColumns().get(c).getValueCount(), where);
        assertEquals(gb.getColumns().get(c).getStatistics(), ga.getColumns().get(c).getStatistics(), where);
        assertEquals(gb.getColumns().get(c).getEncodings(), ga.getColumns().get(c).getEncodings(), where);
      }
    }
    List<Group> ra = readGroups(columns);
    List<Group> rb = readGroups(records);
    assertEquals(rows, ra.size());
    for (int i = 0; i < rows; i++) {
      assertEquals(rb.get(i).toString(), ra.get(i).toString(), "row " + i);
    }
  }

  /**
   * Whole row groups written from arrays ({@link EmbeddingWriter#writeRows}, pages straight to the file) make the
   * file the row writer makes: the same schema, values, encodings, value counts and, per row group, statistics
   * equal to those of its rows (NaN and -0.0 in the data); every chunk has its column and offset index, whose
   * pages cover the group's rows; DuckDB reads it. Calls of uneven sizes and single rows mix freely.
   */
  @ParameterizedTest
  @CsvSource({"130, true", "1, false", "0, true", "40, false"})
  void wholeRowGroupsMakeTheRowWritersFile(int width, boolean withPrediction) throws Exception {
    int rows = 9000;
    float[] data = randomRows(rows, width, 3 + width);
    long[] ids = new long[rows];
    int[] predictions = new int[rows];
    for (int i = 0; i < rows; i++) {
      ids[i] = id(i);
      predictions[i] = (i * 7) % 11 - 5;
    }
    long rowBytes = 8 + 4L * width + (withPrediction ? 4 : 0);
    long rowGroupBytes = rows * rowBytes / 5;
    Path byRows = TempTables.path(tmp, "rows.parquet");
    Path byGroups = TempTables.path(tmp, "groups.parquet");
    List<ColumnSpec> cols = ParquetEmbeddingFile.columns(width, withPrediction);
    try (TableWriter w = new ParquetTableWriter(TempTables.CONF, byRows, "embeddings", cols, rowGroupBytes)) {
      for (int i = 0; i < rows; i++) {
        w.setLong(0, ids[i]);
        w.setFloats(1, data, i * width, width);
        if (withPrediction) {
          w.setInt(2, predictions[i]);
        }
        w.endRow();
      }
    }
    try (EmbeddingWriter w = EmbeddingWriter.parquet(TempTables.CONF, byGroups, width, withPrediction,
        rowGroupBytes)) {
      w.writeRows(ids, data, withPrediction ? predictions : null, 0, 1234);
      for (int i = 1234; i < 1300; i++) {
        w.write(ids[i], data, i * width, predictions[i]);
      }
      w.writeRows(ids, data, withPrediction ? predictions : null, 1300, rows);
      assertEquals(rows, w.rowsWritten());
    }

    ParquetMetadata a = footer(byGroups);
    ParquetMetadata b = footer(byRows);
    assertEquals(b.getFileMetaData().getSchema(), a.getFileMetaData().getSchema());
    assertTrue(a.getBlocks().size() >= 5, "row groups: " + a.getBlocks().size());
    int first = 0;
    try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(byGroups, TempTables.CONF))) {
      for (BlockMetaData g : a.getBlocks()) {
        int n = (int) g.getRowCount();
        for (int c = 0; c < g.getColumns().size(); c++) {
          ColumnChunkMetaData chunk = g.getColumns().get(c);
          String where = "rows from " + first + ", column " + chunk.getPath();
          assertEquals(b.getBlocks().get(0).getColumns().get(c).getEncodings(), chunk.getEncodings(), where);
          assertEquals(c == 1 ? (long) n * Math.max(1, width) : n, chunk.getValueCount(), where);
          Statistics<?> expected = Statistics.createStats(chunk.getPrimitiveType());
          boolean nan = false;
          for (int i = first; i < first + n; i++) {
            if (c == 0) {
              expected.updateStats(ids[i]);
            } else if (c == 2) {
              expected.updateStats(predictions[i]);
            } else if (width == 0) {
              expected.incrementNumNulls();
            } else {
              for (int k = 0; k < width; k++) {
                expected.updateStats(data[i * width + k]);
                nan |= Float.isNaN(data[i * width + k]);
              }
            }
          }
          if (nan) {
            // parquet-mr's footer leaves out a float min/max when NaN is among the values, either writer.
            assertFalse(chunk.getStatistics().hasNonNullValue(), where);
          } else {
            assertEquals(expected, chunk.getStatistics(), where);
          }
          ColumnIndex index = reader.readColumnIndex(chunk);
          OffsetIndex offsets = reader.readOffsetIndex(chunk);
          assertNotNull(offsets, where);
          if (!nan) {
            // With a NaN page parquet-mr's column index builder gives up, as its row writer's does.
            assertNotNull(index, where);
            assertEquals(offsets.getPageCount(), index.getMinValues().size(), where);
          }
          assertEquals(0, offsets.getFirstRowIndex(0), where);
          assertEquals(n - 1, offsets.getLastRowIndex(offsets.getPageCount() - 1, n), where);
        }
        first += n;
      }
    }
    assertEquals(rows, first);

    List<Group> ra = readGroups(byGroups);
    List<Group> rb = readGroups(byRows);
    assertEquals(rows, ra.size());
    for (int i = 0; i < rows; i++) {
      assertEquals(rb.get(i).toString(), ra.get(i).toString(), "row " + i);
    }
    try (java.sql.Connection db = java.sql.DriverManager.getConnection("jdbc:duckdb:");
        java.sql.Statement st = db.createStatement();
        java.sql.ResultSet r = st.executeQuery("SELECT count(*), sum(id), sum(len(embedding)) FROM read_parquet('"
            + new java.io.File(byGroups.toUri()).getPath() + "')")) {
      assertTrue(r.next());
      assertEquals(rows, r.getLong(1));
      assertEquals(java.util.stream.LongStream.of(ids).sum(), r.getLong(2));
      assertEquals((long) rows * width, r.getLong(3));
    }
  }

  private static long id(int i) {
    return i * 1_000_003L - 7;
  }

  private static float[] randomRows(int rows, int width, long seed) {
    Random rnd = new Random(seed);
    float[] data = new float[rows * width];
    for (int i = 0; i < data.length; i++) {
      data[i] = (float) rnd.nextGaussian();
    }
    if (data.length > 0) {
      data[data.length / 2] = Float.NaN;
      data[data.length / 3] = -0.0f;
    }
    return data;
  }

  private static ParquetMetadata footer(Path file) throws IOException {
    try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(file, TempTables.CONF))) {
      return r.getFooter();
    }
  }

  private static List<Group> readGroups(Path file) throws IOException {
    List<Group> out = new ArrayList<>();
    try (ParquetReader<Group> r =
        ParquetReader.builder(new GroupReadSupport(), file).withConf(TempTables.CONF).build()) {
      for (Group g = r.read(); g != null; g = r.read()) {
        out.add(g);
      }
    }
    return out;
  }

  private static float[] elements(Group row) {
    Group list = row.getGroup("embedding", 0);
    int n = list.getFieldRepetitionCount("list");
    float[] v = new float[n];
    for (int k = 0; k < n; k++) {
      v[k] = list.getGroup("list", k).getFloat("element", 0);
    }
    return v;
  }

  private static int[] bits(float[] v) {
    return bits(v, 0, v.length);
  }

  private static int[] bits(float[] v, int offset, int length) {
    int[] b = new int[length];
    for (int k = 0; k < length; k++) {
      b[k] = Float.floatToRawIntBits(v[offset + k]);
    }
    return b;
  }
}
