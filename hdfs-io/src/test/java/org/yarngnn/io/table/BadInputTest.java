package org.yarngnn.io.table;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.fs.Path;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each kind of bad input is refused with an InputException naming the file and, for row errors, the row. */
class BadInputTest {
  @TempDir
  java.nio.file.Path tmp;

  private static void assertRefused(Runnable read, Path file, String rowAndReason) {
    InputException e = assertThrows(InputException.class, read::run);
    assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
    assertTrue(e.getMessage().contains(rowAndReason), "'" + e.getMessage() + "' should contain '" + rowAndReason + "'");
  }

  private static void readEdges(Path p) {
    EdgeTable.open(TempTables.CONF, p, TableReadOptions.defaults()).read((s, d, w, r) -> { });
  }

  private static void readNodes(Path p) {
    NodeTable.open(TempTables.CONF, p, TableReadOptions.defaults()).read((i, l, s, f, r) -> { });
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "non-numeric src|# header\\n1\\t2\\nx1\\t3\\n|3: non-numeric src 'x1'",
      "non-numeric dst|1 2\\n\\n3 4.5\\n|3: non-numeric dst '4.5'",
      "wrong column count|1\\t2\\n3\\t4\\t5\\n|2: expected 2 columns (src, dst), found 3",
      "single column|7\\n|1: expected 2 to 4 columns (src, dst[, weight][, split]), found 1",
      "weight NaN|1\\t2\\t0.5\\n3\\t4\\tNaN\\n|2: weight is NaN or infinite",
      "weight Inf|1\\t2\\t-inf\\n|1: weight is NaN or infinite",
      "weight text|1\\t2\\t0.5\\n3\\t4\\theavy\\n|2: non-numeric weight 'heavy'",
      "overflow|1\\t99999999999999999999\\n|1: dst 99999999999999999999 overflows int64",
  })
  void badEdgeLines(String name, String text, String rowAndReason) {
    Path p = TempTables.text(tmp, "edges.tsv", text.replace("\\n", "\n").replace("\\t", "\t"));
    assertRefused(() -> readEdges(p), p, ":" + rowAndReason);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "short features|1\\t0,1,0\\n2\\t0,1\\n|2: expected 3 features (the width of the first row), found 2",
      "long features|1\\t0,1,0\\n2\\t0,1,1,1\\n|2: expected 3 features (the width of the first row), found 4",
      "NaN feature|1\\t0,1,0\\n2\\t0,nan,1\\n|2: feature 2 is NaN or infinite",
      "Inf feature|1\\t0,1,Infinity\\n|1: feature 3 is NaN or infinite",
      "text feature|1\\t0,1,0\\n#c\\n2\\t0,a,1\\n|3: non-numeric feature 2 'a'",
      "bad split|1\\t0\\ttrain\\t1,2\\n2\\t1\\ttraining\\t1,2\\n|2: bad split 'training'",
      "bad label|1\\t-3\\ttrain\\t1,2\\n|1: bad label -3",
      "non-numeric id|id\\tfeatures\\nabc\\t1,2\\n|2: non-numeric id 'abc'",
      "layout change|1\\t0\\ttrain\\t1,2\\n2\\t1,2\\n|2: expected 4 columns (id, label, split, features), found 2",
      "three columns|1\\t0\\t1,2\\n|1: expected 2 columns (id, features) or 4 columns",
  })
  void badNodeLines(String name, String text, String rowAndReason) {
    Path p = TempTables.text(tmp, "nodes.tsv", text.replace("\\n", "\n").replace("\\t", "\t"));
    assertRefused(() -> readNodes(p), p, ":" + rowAndReason);
  }

  @Test
  void unquotedCsvFeaturesAreAColumnCountError() {
    Path p = TempTables.text(tmp, "nodes.csv", "1,\"0.5,1\"\n2,0.5,1\n");
    assertRefused(() -> readNodes(p), p, ":2: expected 2 columns (id, features), found 3");
  }

  @Test
  void badRowInSecondGzipFileOfADirectory() {
    TempTables.text(tmp, "nodes/part-0.tsv.gz", "1\t1,2\n");
    Path bad = TempTables.text(tmp, "nodes/part-1.tsv.gz", "2\t1,2\n3\t1,2,3\n");
    assertRefused(() -> readNodes(bad.getParent()), bad, ":2: expected 2 features");
  }

  @Test
  void missingPathAndEmptyDirectory() {
    Path missing = TempTables.path(tmp, "nope");
    InputException e = assertThrows(InputException.class,
        () -> EdgeTable.open(TempTables.CONF, missing, TableReadOptions.defaults()));
    assertTrue(e.getMessage().startsWith(missing + ": "), e.getMessage());
    TempTables.text(tmp, "empty/_SUCCESS", "");
    Path empty = TempTables.path(tmp, "empty");
    e = assertThrows(InputException.class, () -> NodeTable.open(TempTables.CONF, empty, TableReadOptions.defaults()));
    assertTrue(e.getMessage().contains("empty") && e.getMessage().contains("no data files"), e.getMessage());
  }

  @Test
  void unknownExtension() {
    Path p = TempTables.text(tmp, "edges.json", "{}");
    InputException e = assertThrows(InputException.class,
        () -> EdgeTable.open(TempTables.CONF, p, TableReadOptions.defaults()));
    assertTrue(e.getMessage().startsWith(p + ": unknown table format"), e.getMessage());
  }

  @Test
  void parquetMissingColumnAndWrongType() {
    Path nodesAsEdges = TempTables.path(tmp, "n.parquet");
    try (NodeTableWriter w = NodeTableWriter.create(TempTables.CONF, nodesAsEdges, TableFormat.PARQUET, 2, false)) {
      w.write(1, new float[] {1, 2}, 0);
    }
    InputException e = assertThrows(InputException.class, () -> readEdges(nodesAsEdges));
    assertTrue(e.getMessage().startsWith(nodesAsEdges + ": missing column 'src'"), e.getMessage());

    // An edges file whose 'weight' column is read as the features list: wrong type, named.
    Path edges = TempTables.path(tmp, "e.parquet");
    try (EdgeTableWriter w = EdgeTableWriter.create(TempTables.CONF, edges, TableFormat.PARQUET, true)) {
      w.write(1, 2, 0.5f);
    }
    TableReadOptions opts = TableReadOptions.builder().idColumn("src").featuresColumn("weight").build();
    e = assertThrows(InputException.class, () -> NodeTable.open(TempTables.CONF, edges, opts));
    assertTrue(e.getMessage().startsWith(edges + ": column 'weight' has type"), e.getMessage());
    assertTrue(e.getMessage().contains("expected LIST<FLOAT>"), e.getMessage());
    TableReadOptions floatIds = TableReadOptions.builder().srcColumn("weight").build();
    e = assertThrows(InputException.class, () -> EdgeTable.open(TempTables.CONF, edges, floatIds).read((s, d, w, r) -> { }));
    assertTrue(e.getMessage().startsWith(edges + ": column 'weight' has type"), e.getMessage());
  }

  @Test
  void parquetRowErrorsNameTheRow() {
    Path p = TempTables.path(tmp, "nodes.parquet");
    try (NodeTableWriter w = NodeTableWriter.create(TempTables.CONF, p, TableFormat.PARQUET, 2, false)) {
      w.write(1, new float[] {1, 2}, 0);
      w.write(2, new float[] {1, Float.NaN}, 0);
    }
    assertRefused(() -> readNodes(p), p, ":2: feature 2 is NaN or infinite");

    Path dir = TempTables.path(tmp, "nodes");
    try (NodeTableWriter w = NodeTableWriter.create(TempTables.CONF, new Path(dir, "a.parquet"), TableFormat.PARQUET, 2, false)) {
      w.write(1, new float[] {1, 2}, 0);
    }
    Path wide = new Path(dir, "b.parquet");
    try (NodeTableWriter w = NodeTableWriter.create(TempTables.CONF, wide, TableFormat.PARQUET, 3, false)) {
      w.write(2, new float[] {1, 2, 3}, 0);
    }
    assertRefused(() -> readNodes(dir), wide, ":1: expected 2 features (the width of the first row), found 3");

    Path edges = TempTables.path(tmp, "edges.parquet");
    try (EdgeTableWriter w = EdgeTableWriter.create(TempTables.CONF, edges, TableFormat.PARQUET, true)) {
      w.write(1, 2, 1f);
      w.write(1, 2, 1f);
      w.write(1, 2, Float.POSITIVE_INFINITY);
    }
    assertRefused(() -> readEdges(edges), edges, ":3: weight is NaN or infinite");
  }

  @Test
  void orcWrongTypeAndBadSplit() throws Exception {
    Path p = TempTables.path(tmp, "nodes.orc");
    TypeDescription schema = TypeDescription.fromString("struct<id:string,features:array<float>>");
    try (Writer w = OrcFile.createWriter(p, OrcFile.writerOptions(TempTables.CONF).setSchema(schema))) {
      w.addRowBatch(schema.createRowBatch());
    }
    InputException e = assertThrows(InputException.class, () -> readNodes(p));
    assertTrue(e.getMessage().startsWith(p + ": column 'id' has type string, expected an integer (tinyint, smallint, int, bigint"), e.getMessage());

    Path labelled = TempTables.path(tmp, "labelled.orc");
    try (NodeTableWriter w = NodeTableWriter.create(TempTables.CONF, labelled, TableFormat.ORC, 1, true)) {
      w.write(1, new float[] {1}, 0, 0, NodeSplit.TRAIN);
      w.write(2, new float[] {1}, 0, 5, NodeSplit.TEST);
      w.write(3, new float[] {Float.NaN}, 0, 5, NodeSplit.TEST);
    }
    assertRefused(() -> readNodes(labelled), labelled, ":3: feature 1 is NaN or infinite");
  }
}
