package org.yarngnn.io.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The edges table's optional {@code split} column (train, val, test, none; any case; null is none) in text,
 * Parquet and ORC files written by their own libraries: the codes a sink that wants it receives, the refusals
 * (a value that is not a split word, with file and row; a column of another type, with column and file; files
 * that disagree), and sinks that do not want it reading the table as if the column were not there.
 */
class EdgeSplitColumnTest {
  @TempDir
  java.nio.file.Path tmp;

  /** Collects (src, dst, weight, split, row) from the split-carrying calls; a plain call is a test failure. */
  private static final class Splits implements EdgeSink {
    final List<String> rows = new ArrayList<>();

    @Override
    public boolean wantsSplit() {
      return true;
    }

    @Override
    public void edge(long src, long dst, float weight, long row) {
      throw new AssertionError("row " + row + " came without its split");
    }

    @Override
    public void edge(long src, long dst, float weight, byte split, long row) {
      rows.add(src + ">" + dst + " " + weight + " " + NodeSplit.name(split) + " @" + row);
    }
  }

  private static EdgeTable open(Path p) {
    return EdgeTable.open(TempTables.CONF, p, TableReadOptions.defaults());
  }

  private static List<String> splits(Path p) {
    Splits s = new Splits();
    open(p).read(s);
    return s.rows;
  }

  private static String refusal(Path p) {
    return assertThrows(InputException.class, () -> open(p).read(new Splits())).getMessage();
  }

  @Test
  void textSplitWordIsTheLastFieldInAnyCase() {
    Path p = TempTables.text(tmp, "e.tsv", "# src dst split\n1\t2\ttrain\n2 3 VAL\n\n3\t4\tTest\n4\t5\tnOnE\n");
    assertTrue(open(p).hasSplit());
    assertFalse(open(p).weighted());
    assertEquals(List.of("1>2 1.0 train @2", "2>3 1.0 val @3", "3>4 1.0 test @5", "4>5 1.0 none @6"), splits(p));
    Path w = TempTables.text(tmp, "w.csv", "1,2,0.5,test\n2,3,2,Train\n");
    assertTrue(open(w).weighted() && open(w).hasSplit());
    assertEquals(List.of("1>2 0.5 test @1", "2>3 2.0 train @2"), splits(w));
    // A number in the third field is a weight, as before the column existed.
    Path plain = TempTables.text(tmp, "p.tsv", "1\t2\t0.25\n");
    assertTrue(open(plain).weighted());
    assertFalse(open(plain).hasSplit());
  }

  @Test
  void textBadSplitWordNamesFileAndRow() {
    Path p = TempTables.text(tmp, "e.tsv", "1\t2\ttrain\n2\t3\tvalid\n");
    String m = refusal(p);
    assertTrue(m.startsWith(p + ":2: bad split 'valid' (expected train, val, test or none)"), m);
    // The first row decides: a weight where every row needs a split word is that row's bad split.
    Path q = TempTables.text(tmp, "q.tsv", "1\t2\tval\n2\t3\t0.5\n");
    assertTrue(refusal(q).startsWith(q + ":2: bad split '0.5'"), refusal(q));
    Path w = TempTables.text(tmp, "w.tsv", "1\t2\t1.5\tTRAINING\n");
    String mw = assertThrows(InputException.class, () -> open(w)).getMessage();
    assertTrue(mw.startsWith(w + ":1: bad split 'TRAINING'"), mw);
    Path five = TempTables.text(tmp, "five.tsv", "1\t2\t1.5\ttrain\tx\n");
    String m5 = assertThrows(InputException.class, () -> open(five)).getMessage();
    assertTrue(m5.contains(five + ":1: expected 2 to 4 columns (src, dst[, weight][, split])"), m5);
    Path missing = TempTables.text(tmp, "m.tsv", "1\t2\ttest\n2\t3\n");
    assertTrue(refusal(missing).startsWith(missing + ":2: expected 3 columns (src, dst, split)"), refusal(missing));
  }

  @Test
  void sinksThatIgnoreTheColumnReadTheEdgesAlone() {
    // No split-carrying call; Parquet's and ORC's values are not even decoded (a bad one included).
    Path p = TempTables.text(tmp, "e.tsv", "1\t2\t0.5\ttrain\n2\t3\t1\tnone\n");
    Edges e = Edges.read(open(p));
    assertEquals(2, e.rows.size());
    assertEquals(List.of(0.5f, 1f), e.weights);
    Path q = parquet("e.parquet", "optional binary split (STRING)", "train", "no such split");
    assertEquals(2, Edges.read(open(q)).rows.size());
    // A text field is a split by its place alone: checked for every sink, so a later file's weight is no split.
    Path dir = TempTables.text(tmp, "t/a.tsv", "1\t2\ttrain\n").getParent();
    Path b = TempTables.text(tmp, "t/b.tsv", "2\t3\t0.5\n");
    InputException x = assertThrows(InputException.class, () -> Edges.read(open(dir)));
    assertEquals(b + ":1: bad split '0.5' (expected train, val, test or none)", x.getMessage());
  }

  /** Parquet edges {@code src = i, dst = i + 1} with the given split values (null: a null), column {@code type}. */
  private Path parquet(String name, String splitType, String... splits) {
    Path p = TempTables.path(tmp, name);
    MessageType schema = MessageTypeParser.parseMessageType(
        "message e { required int64 src; required int64 dst; " + splitType + "; }");
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(p).withType(schema).withConf(TempTables.CONF)
        .withWriteMode(ParquetFileWriter.Mode.OVERWRITE).withPageRowCountLimit(1000).build()) {
      for (int i = 0; i < splits.length; i++) {
        Group g = groups.newGroup().append("src", (long) i).append("dst", (long) i + 1);
        if (splits[i] != null) {
          if (splitType.contains("binary")) {
            g.add("split", splits[i]);
          } else {
            g.add("split", Integer.parseInt(splits[i]));
          }
        }
        w.write(g);
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return p;
  }

  @Test
  void parquetSplitColumnAcrossBatchesWithNullsAsNone() {
    // 10,000 rows: more than one read batch (4,096), so codes and row numbers are checked past a batch's end.
    String[] words = {"train", "VAL", "Test", null, "none"};
    String[] values = new String[10_000];
    for (int i = 0; i < values.length; i++) {
      values[i] = words[i % words.length];
    }
    List<String> got = splits(parquet("e.parquet", "optional binary split (STRING)", values));
    assertEquals(values.length, got.size());
    String[] names = {"train", "val", "test", "none", "none"};
    for (int i = 0; i < values.length; i++) {
      assertEquals(i + ">" + (i + 1) + " 1.0 " + names[i % 5] + " @" + (i + 1), got.get(i));
    }
  }

  @Test
  void parquetBadSplitAfterTheFirstBatchNamesItsRowAndEarlierRowsArrive() {
    String[] values = new String[5000];
    java.util.Arrays.fill(values, "train");
    values[4500] = " test"; // whitespace is part of the value: not a split word
    Path p = parquet("e.parquet", "required binary split (STRING)", values);
    Splits s = new Splits();
    String m = assertThrows(InputException.class, () -> open(p).read(s)).getMessage();
    assertEquals(p + ":4501: bad split ' test' (expected train, val, test or none)", m);
    assertEquals(4500, s.rows.size());
  }

  @Test
  void parquetSplitOfAnotherTypeIsRefusedNamingColumnAndFile() {
    Path p = parquet("e.parquet", "optional int32 split", "1", "2");
    String m = assertThrows(InputException.class, () -> open(p)).getMessage();
    assertTrue(m.startsWith(p + ": column 'split' has type optional int32 split, expected STRING"), m);
  }

  @Test
  void filesOfATableMustAgreeOnTheSplitColumn() throws Exception {
    java.nio.file.Files.createDirectories(tmp.resolve("t"));
    Path first = parquet("t/a.parquet", "optional binary split (STRING)", "train");
    Path second = TempTables.path(tmp, "t/b.orc");
    orc(second, "struct<src:bigint,dst:bigint>", new String[] {null});
    String m = refusal(first.getParent());
    assertTrue(m.startsWith(second + ": missing column 'split' (the table's first file has a split column)"), m);
  }

  /** ORC edges {@code src = i, dst = i + 1}, and {@code split} values when the schema has that column. */
  private static void orc(Path p, String schemaText, String[] splits) throws IOException {
    TypeDescription schema = TypeDescription.fromString(schemaText);
    try (Writer w = OrcFile.createWriter(p, OrcFile.writerOptions(TempTables.CONF).setSchema(schema))) {
      VectorizedRowBatch b = schema.createRowBatch();
      for (int i = 0; i < splits.length; i++) {
        ((LongColumnVector) b.cols[0]).vector[i] = i;
        ((LongColumnVector) b.cols[1]).vector[i] = i + 1;
        if (b.cols.length > 2 && b.cols[2] instanceof BytesColumnVector v) {
          if (splits[i] == null) {
            v.noNulls = false;
            v.isNull[i] = true;
          } else {
            v.setVal(i, splits[i].getBytes(StandardCharsets.UTF_8));
          }
        } else if (b.cols.length > 2) {
          ((LongColumnVector) b.cols[2]).vector[i] = i;
        }
      }
      b.size = splits.length;
      w.addRowBatch(b);
    }
  }

  @Test
  void orcSplitColumn() throws Exception {
    Path p = TempTables.path(tmp, "e.orc");
    orc(p, "struct<src:bigint,dst:bigint,split:string>", new String[] {"train", "VAL", null, "test", "none"});
    assertTrue(open(p).hasSplit());
    assertEquals(List.of("0>1 1.0 train @1", "1>2 1.0 val @2", "2>3 1.0 none @3", "3>4 1.0 test @4",
        "4>5 1.0 none @5"), splits(p));
    Path bad = TempTables.path(tmp, "bad.orc");
    orc(bad, "struct<src:bigint,dst:bigint,split:string>", new String[] {"train", "tset"});
    assertEquals(bad + ":2: bad split 'tset' (expected train, val, test or none)", refusal(bad));
    Path wrong = TempTables.path(tmp, "wrong.orc");
    orc(wrong, "struct<src:bigint,dst:bigint,split:int>", new String[] {"1"});
    String m = assertThrows(InputException.class, () -> open(wrong)).getMessage();
    assertEquals(wrong + ": column 'split' has type int, expected string", m);
  }

  @Test
  void importKeepsTheSplitColumnAndRefusesABadWord() {
    Path in = TempTables.text(tmp, "in.tsv", "1\t2\t0.5\tVAL\n2\t3\t1\tnone\n3\t4\t2\ttrain\n");
    Path out = TempTables.path(tmp, "out");
    assertEquals(3, TableImport.importText(TempTables.CONF, TableKind.EDGES, in, TableReadOptions.defaults(), out,
        false));
    assertTrue(open(out).weighted() && open(out).hasSplit());
    assertEquals(List.of("1>2 0.5 val @1", "2>3 1.0 none @2", "3>4 2.0 train @3"), splits(out));
    Path bad = TempTables.text(tmp, "bad.tsv", "1\t2\ttrain\n2\t3\ttrian\n");
    Path none = TempTables.path(tmp, "none");
    String m = assertThrows(InputException.class, () -> TableImport.importText(TempTables.CONF, TableKind.EDGES,
        bad, TableReadOptions.defaults(), none, false)).getMessage();
    assertEquals(bad + ":2: bad split 'trian' (expected train, val, test or none)", m);
    assertFalse(java.nio.file.Files.exists(tmp.resolve("none")));
  }
}
