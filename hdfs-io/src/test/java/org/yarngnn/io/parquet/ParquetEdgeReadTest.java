package org.yarngnn.io.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.yarngnn.io.table.EdgeSink;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.Edges;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.io.table.TempTables;

/**
 * Edges from Parquet files as other writers make them (every codec, data page v1 and v2, dictionary on and off,
 * optional and INT32/DOUBLE columns, many pages and row groups) read through the column-chunk path, row by row
 * and in batches, whole and by row-group splits.
 */
class ParquetEdgeReadTest {
  private static final int ROWS = 10_007;
  private static final MessageType SCHEMA = MessageTypeParser.parseMessageType(
      "message e { optional int64 src; required int32 dst; optional double weight; optional binary note (STRING); }");

  @TempDir
  java.nio.file.Path tmp;

  static Stream<Arguments> writers() {
    List<Arguments> out = new ArrayList<>();
    for (CompressionCodecName codec : new CompressionCodecName[] {CompressionCodecName.UNCOMPRESSED,
        CompressionCodecName.SNAPPY, CompressionCodecName.GZIP, CompressionCodecName.ZSTD}) {
      for (WriterVersion v : WriterVersion.values()) {
        out.add(Arguments.of(codec, v, true));
      }
      out.add(Arguments.of(codec, WriterVersion.PARQUET_1_0, false));
    }
    return out.stream();
  }

  /** Skewed ids over a small range (dictionary pages, then PLAIN once the dictionary is full) and some nulls. */
  private Path write(String name, CompressionCodecName codec, WriterVersion version, boolean dictionary,
      long nullSrcRow) {
    Path p = TempTables.path(tmp, name);
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    Random rnd = new Random(7);
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(p).withType(SCHEMA).withConf(TempTables.CONF)
        .withWriteMode(ParquetFileWriter.Mode.OVERWRITE).withCompressionCodec(codec).withWriterVersion(version)
        .withDictionaryEncoding(dictionary).withDictionaryPageSize(2048).withPageRowCountLimit(700)
        .withRowGroupRowCountLimit(3000).build()) {
      for (int r = 1; r <= ROWS; r++) {
        Group g = groups.newGroup();
        if (r != nullSrcRow) {
          g.add("src", src(r));
        }
        g.add("dst", rnd.nextInt(r % 3 == 0 ? 50 : 1_000_000));
        g.add("weight", r * 0.25);
        if (r % 5 == 0) {
          g.add("note", "row " + r);
        }
        w.write(g);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p;
  }

  private static long src(int r) {
    return r % 2 == 0 ? r / 7 : (long) r * 1_000_003_001L;
  }

  private static EdgeTable open(Path p) {
    return EdgeTable.open(TempTables.CONF, p, TableReadOptions.defaults());
  }

  @ParameterizedTest
  @MethodSource("writers")
  void everyWriterLayoutReadsBackRowByRowAndInBatches(CompressionCodecName codec, WriterVersion version,
      boolean dictionary) {
    Path p = write("e.parquet", codec, version, dictionary, -1);
    EdgeTable t = open(p);
    assertTrue(t.weighted());
    Edges rows = Edges.read(t);
    assertEquals(ROWS, rows.rows.size());
    Random rnd = new Random(7);
    for (int r = 1; r <= ROWS; r++) {
      long[] e = rows.rows.get(r - 1);
      assertArrayEquals(new long[] {src(r), rnd.nextInt(r % 3 == 0 ? 50 : 1_000_000), r}, e, "row " + r);
      assertEquals(r * 0.25f, rows.weights.get(r - 1), "weight of row " + r);
    }
    Batches b = new Batches();
    t.read(b);
    assertEquals(rowsAsStrings(rows), b.rows);
    assertTrue(b.batches > 1 && b.batches < ROWS / 100, "batches: " + b.batches);
  }

  @Test
  void splitsCoverEveryRowGroupOnceWithFileRowNumbers() {
    Path p = write("e.parquet", CompressionCodecName.SNAPPY, WriterVersion.PARQUET_1_0, true, -1);
    EdgeTable t = open(p);
    List<EdgeTable.Split> splits = t.splits(5000);
    // Row groups of 3000 rows: 6000, 4007 rows.
    assertEquals(List.of(new EdgeTable.Split(0, 0, 2, 6000), new EdgeTable.Split(0, 2, 2, ROWS - 6000)), splits);
    assertEquals(4, t.splits(1).size());
    List<String> all = new ArrayList<>();
    List<EdgeTable.Split> reversed = new ArrayList<>(t.splits(1));
    Collections.reverse(reversed);
    for (EdgeTable.Split s : reversed) {
      Edges e = new Edges();
      t.readSplit(s, e);
      assertEquals(s.rows(), e.rows.size());
      all.addAll(0, rowsAsStrings(e));
    }
    assertEquals(rowsAsStrings(Edges.read(t)), all);
  }

  @Test
  void aNullPastTheFirstBatchNamesItsRowAndTheRowsBeforeItArrive() {
    Path p = write("e.parquet", CompressionCodecName.SNAPPY, WriterVersion.PARQUET_2_0, true, 5000);
    Batches b = new Batches();
    InputException e = assertThrows(InputException.class, () -> open(p).read(b));
    assertEquals(p + ":5000: null src", e.getMessage());
    assertEquals(4999, b.rows.size());
    // The same from a split that starts after the first row group: the row is still numbered in the file.
    EdgeTable t = open(p);
    EdgeTable.Split second = t.splits(1).get(1);
    e = assertThrows(InputException.class, () -> t.readSplit(second, new Batches()));
    assertEquals(p + ":5000: null src", e.getMessage());
  }

  private static List<String> rowsAsStrings(Edges e) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < e.rows.size(); i++) {
      long[] r = e.rows.get(i);
      out.add(r[0] + " " + r[1] + " " + e.weights.get(i) + " @" + r[2]);
    }
    return out;
  }

  /** Records rows delivered through the batch call. */
  private static final class Batches implements EdgeSink {
    final List<String> rows = new ArrayList<>();
    int batches;

    @Override
    public void edge(long src, long dst, float weight, long row) {
      throw new AssertionError("a columnar reader delivers batches");
    }

    @Override
    public void edges(long[] src, long[] dst, float[] weight, int count, long firstRow) {
      batches++;
      for (int i = 0; i < count; i++) {
        rows.add(src[i] + " " + dst[i] + " " + weight[i] + " @" + (firstRow + i));
      }
    }
  }
}
