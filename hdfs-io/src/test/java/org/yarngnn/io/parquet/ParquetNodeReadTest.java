package org.yarngnn.io.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.io.table.TempTables;

/**
 * Node feature lists from Parquet files written by another writer (optional list and elements, small pages so rows
 * meet page ends, v1 and v2 pages): rows read in bulk and rows stepped through must give the same features, and a
 * bad row far into a file (after many bulk-read rows) is still named with its problem.
 */
class ParquetNodeReadTest {
  private static final int ROWS = 5_003;
  private static final int WIDTH = 7;
  private static final MessageType SCHEMA = MessageTypeParser.parseMessageType(
      "message n { required int64 id; optional group features (LIST) { repeated group list { "
          + "optional float element; } } }");

  @TempDir
  java.nio.file.Path tmp;

  private Path write(String name, WriterVersion version, int badRow, String bad) {
    Path p = TempTables.path(tmp, name);
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(p).withType(SCHEMA).withConf(TempTables.CONF)
        .withWriteMode(ParquetFileWriter.Mode.OVERWRITE).withCompressionCodec(CompressionCodecName.SNAPPY)
        .withWriterVersion(version).withDictionaryEncoding(false).withPageRowCountLimit(333)
        .withRowGroupRowCountLimit(2000).build()) {
      for (int r = 1; r <= ROWS; r++) {
        Group g = groups.newGroup();
        g.add("id", (long) r * 3);
        if (r == badRow && bad.equals("null list")) {
          w.write(g);
          continue;
        }
        Group list = g.addGroup("features");
        int width = r == badRow && bad.equals("short") ? WIDTH - 1 : WIDTH;
        for (int k = 0; k < width; k++) {
          Group e = list.addGroup("list");
          if (!(r == badRow && bad.equals("null element") && k == 4)) {
            e.add("element", r == badRow && bad.equals("nan") && k == 2 ? Float.NaN : r * 10f + k);
          }
        }
        w.write(g);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p;
  }

  @ParameterizedTest
  @EnumSource(WriterVersion.class)
  void everyRowReadWithItsFeatures(WriterVersion version) {
    Path p = write("good.parquet", version, -1, "");
    // Twice on one thread: the second read's chunks take the first's buffers (stale bytes in them), as do the
    // later row groups' of each read.
    readsEveryRow(p);
    assertTrue(ChunkBuffers.kept() > 0, "the chunks' buffers are kept for the next read");
    readsEveryRow(p);
  }

  private static void readsEveryRow(Path p) {
    List<float[]> rows = new ArrayList<>();
    long[] ids = new long[ROWS];
    NodeTable.open(TempTables.CONF, p, TableReadOptions.defaults()).read((id, label, split, f, row) -> {
      ids[(int) row - 1] = id;
      rows.add(f.clone());
    });
    assertEquals(ROWS, rows.size());
    for (int r = 1; r <= ROWS; r++) {
      assertEquals(r * 3L, ids[r - 1]);
      float[] expected = new float[WIDTH];
      for (int k = 0; k < WIDTH; k++) {
        expected[k] = r * 10f + k;
      }
      assertArrayEquals(expected, rows.get(r - 1), "row " + r);
    }
  }

  @ParameterizedTest
  @EnumSource(WriterVersion.class)
  void aBadRowAfterManyGoodOnesIsNamed(WriterVersion version) {
    String[][] cases = {
        {"nan", "feature 3 is NaN or infinite"},
        {"null element", "feature 5 is null"},
        {"null list", "null features"},
        {"short", "expected 7 features (the width of the first row), found 6"}};
    for (String[] c : cases) {
      Path p = write("bad-" + c[0].replace(' ', '-') + ".parquet", version, 4_321, c[0]);
      InputException e = assertThrows(InputException.class,
          () -> NodeTable.open(TempTables.CONF, p, TableReadOptions.defaults()).read((i, l, s, f, r) -> { }));
      assertTrue(e.getMessage().startsWith(p + ":4321: " + c[1]), e.getMessage());
    }
  }
  @ParameterizedTest
  @EnumSource(WriterVersion.class)
  void idRangeComesFromTheRowGroupsStatistics(WriterVersion version) {
    Path p = write("range-" + version + ".parquet", version, -1, "");
    // Ids 3, 6, ..., 3 * ROWS over three row groups of at most 2000 rows.
    assertArrayEquals(new long[] {3, 3L * ROWS},
        ParquetNodeFile.idRange(TempTables.CONF, p, TableReadOptions.builder().build()));
    NodeTable t = NodeTable.open(TempTables.CONF, p, TableReadOptions.builder().build());
    assertArrayEquals(new long[] {3, 3L * ROWS}, t.idRange(0));
    assertEquals(ROWS, t.exactRows(0));
  }
}
