package org.yarngnn.io.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tables as Hadoop users write them (directories, partitions, globs, lists) and text files' edge cases. */
class TableInputTest {
  @TempDir
  java.nio.file.Path tmp;

  private List<String> edges(String table) {
    List<String> out = new ArrayList<>();
    EdgeTable.open(TempTables.CONF, table, TableReadOptions.defaults())
        .read((s, d, w, r) -> out.add(s + ">" + d));
    return out;
  }

  private List<Long> nodes(String table) {
    List<Long> out = new ArrayList<>();
    NodeTable.open(TempTables.CONF, table, TableReadOptions.defaults()).read((i, l, s, f, r) -> out.add(i));
    return out;
  }

  private String dir(String name) {
    return TempTables.path(tmp, name).toString();
  }

  private static InputException refused(Runnable r, String... parts) {
    InputException e = assertThrows(InputException.class, r::run);
    for (String p : parts) {
      assertTrue(e.getMessage().contains(p), "'" + e.getMessage() + "' should contain '" + p + "'");
    }
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
    return e;
  }

  @Test
  void directoriesAreReadRecursivelySkippingHiddenNamesAtEveryLevel() {
    TempTables.text(tmp, "t/b.tsv", "2\t2\n");
    TempTables.text(tmp, "t/a/x.tsv", "1\t1\n");
    TempTables.text(tmp, "t/a/deeper/y.tsv.gz", "3\t3\n");
    TempTables.text(tmp, "t/_temporary/0/z.tsv", "9\t9\n");
    TempTables.text(tmp, "t/.hidden/z.tsv", "9\t9\n");
    TempTables.text(tmp, "t/a/_SUCCESS", "");
    TempTables.text(tmp, "t/a/.part.tsv.swp", "junk");
    // Sorted by path: t/a/deeper/y, t/a/x, t/b.
    assertEquals(List.of("3>3", "1>1", "2>2"), edges(dir("t")));
  }

  @Test
  void hivePartitionDirectoriesAreRead() {
    TempTables.text(tmp, "n/split=train/part-0.tsv", "1\t0.5,1\n2\t0.5,1\n");
    TempTables.text(tmp, "n/split=test/part-0.tsv", "3\t0.5,1\n");
    TempTables.text(tmp, "n/_SUCCESS", "");
    assertEquals(List.of(3L, 1L, 2L), nodes(dir("n")));
  }

  @Test
  void globsAndCommaListsAsFileInputFormatTakesThem() {
    TempTables.text(tmp, "g/part-0.tsv", "1\t1\n");
    TempTables.text(tmp, "g/part-1.tsv", "2\t2\n");
    TempTables.text(tmp, "g/_part-2.tsv", "9\t9\n");
    TempTables.text(tmp, "h/x.csv", "3,3\n");
    TempTables.text(tmp, "g2/part-5.tsv", "5\t5\n");
    assertEquals(List.of("1>1", "2>2"), edges(dir("g") + "/part-*"));
    assertEquals(List.of("1>1", "2>2"), edges(dir("g") + "/*"), "hidden names skipped among glob matches");
    assertEquals(List.of("1>1", "2>2", "5>5"), edges(dir("{g,g2}") + "/part-*"));
    assertEquals(List.of("1>1", "2>2", "3>3"), edges(dir("h") + "," + dir("g")), "sorted by path, each once");
    assertEquals(List.of("1>1", "2>2", "3>3"), edges(dir("g") + "/part-0.tsv," + dir("g") + "," + dir("h/x.csv")));
    assertEquals(List.of("9>9"), edges(dir("g/_part-2.tsv")), "a file named literally is taken");
    refused(() -> edges(dir("g") + "/nothing-*"), "nothing-*", "matches no files");
    refused(() -> edges(dir("g") + "," + dir("missing")), "missing: no such file or directory");
  }

  @Test
  void missingPathsUnknownSchemesAndEmptyTablesAreNamed() {
    refused(() -> edges("foo://x/y"), "foo://x/y: no file system for this path");
    refused(() -> edges(dir("nope")), dir("nope") + ": no such file or directory");
    TempTables.text(tmp, "e/_SUCCESS", "");
    refused(() -> edges(dir("e")), "no data files");
  }

  @Test
  void anEmptyTextEdgesFileIsAGraphWithoutEdges() {
    TempTables.text(tmp, "empty.tsv", "");
    TempTables.text(tmp, "comments.csv", "# nothing\n\nsrc,dst\n");
    assertEquals(List.of(), edges(dir("empty.tsv")));
    assertEquals(List.of(), edges(dir("comments.csv")));
    // An empty first file says nothing about weights: the next file does.
    TempTables.text(tmp, "w/a.tsv", "");
    TempTables.text(tmp, "w/b.tsv", "1\t2\t0.5\n");
    EdgeTable t = EdgeTable.open(TempTables.CONF, dir("w"), TableReadOptions.defaults());
    assertTrue(t.weighted());
  }

  @Test
  void aByteOrderMarkIsDropped() {
    TempTables.text(tmp, "bom.csv", "\uFEFFsrc,dst\n1,2\n");
    TempTables.text(tmp, "bom2.tsv", "\uFEFF7\t8\n");
    assertEquals(List.of("1>2"), edges(dir("bom.csv")));
    assertEquals(List.of("7>8"), edges(dir("bom2.tsv")));
  }

  @Test
  void theHeaderRule() {
    // The first line that is not empty or a comment is a header when its first field is id or src, any case.
    TempTables.text(tmp, "h1.tsv", "# c\n\nSRC\tDST\tWEIGHT\n1\t2\t0.5\n");
    assertEquals(List.of("1>2"), edges(dir("h1.tsv")));
    TempTables.text(tmp, "h2.csv", "Id,features\n1,\"0.5,1\"\n");
    assertEquals(List.of(1L), nodes(dir("h2.csv")));
    TempTables.text(tmp, "h3.tsv", "id\tfeatures\n1\t0.5\n");
    assertEquals(List.of(1L), nodes(dir("h3.tsv")));
    // Any other first field is data, and refused as data on its line.
    TempTables.text(tmp, "h4.tsv", "source\ttarget\n1\t2\n");
    refused(() -> edges(dir("h4.tsv")), "h4.tsv:1: non-numeric src 'source'");
    // Only the first such line: a later 'src' line is a bad row.
    TempTables.text(tmp, "h5.tsv", "src\tdst\n1\t2\nsrc\tdst\n");
    refused(() -> edges(dir("h5.tsv")), "h5.tsv:3: non-numeric src 'src'");
  }

  @Test
  void problemsOnLineOneAreLineOnesOwn() {
    TempTables.text(tmp, "n1.tsv", "1\t0.5,abc,1\n2\t1,1,1\n");
    refused(() -> NodeTable.open(TempTables.CONF, dir("n1.tsv"), TableReadOptions.defaults()),
        "n1.tsv:1: non-numeric feature 2 'abc'");
    TempTables.text(tmp, "n2.tsv", "x\t0.5,1\n");
    refused(() -> NodeTable.open(TempTables.CONF, dir("n2.tsv"), TableReadOptions.defaults()),
        "n2.tsv:1: non-numeric id 'x'");
    TempTables.text(tmp, "e1.tsv", "1\tz\n");
    refused(() -> EdgeTable.open(TempTables.CONF, dir("e1.tsv"), TableReadOptions.defaults()),
        "e1.tsv:1: non-numeric dst 'z'");
  }

  @Test
  void overflowsAreCalledOverflows() {
    TempTables.text(tmp, "o.tsv", "9223372036854775807\t-9223372036854775808\n9223372036854775808\t1\n");
    refused(() -> edges(dir("o.tsv")), "o.tsv:2: src 9223372036854775808 overflows int64");
    TempTables.text(tmp, "o2.tsv", "-9223372036854775809\t0.5\n");
    refused(() -> nodes(dir("o2.tsv")), "o2.tsv:1: id -9223372036854775809 overflows int64");
    TempTables.text(tmp, "w.tsv", "1\t2\t1e39\n");
    refused(() -> edges(dir("w.tsv")), "w.tsv:1: weight 1e39 is outside float range");
    TempTables.text(tmp, "f.tsv", "1\t0.5,-4e38\n");
    refused(() -> nodes(dir("f.tsv")), "f.tsv:1: feature 2 -4e38 is outside float range");
  }

  @Test
  void brokenGzipFilesAreNamed() throws Exception {
    Path good = TempTables.text(tmp, "g.tsv.gz", "1\t2\n".repeat(20000));
    byte[] bytes = Files.readAllBytes(tmp.resolve("g.tsv.gz"));
    Files.write(tmp.resolve("cut.tsv.gz"), Arrays.copyOf(bytes, bytes.length / 2));
    refused(() -> edges(dir("cut.tsv.gz")), "cut.tsv.gz: truncated file");
    TempTables.text(tmp, "plain.tsv", "1\t2\n");
    Files.copy(tmp.resolve("plain.tsv"), tmp.resolve("notgz.tsv.gz"));
    refused(() -> edges(dir("notgz.tsv.gz")), "notgz.tsv.gz: not valid gzip data");
    assertEquals(20000, edges(good.toString()).size());
  }

  @Test
  void aStaleCrcIsAChecksumErrorNamingTheFile() throws Exception {
    Path p = TempTables.path(tmp, "c.tsv");
    FileSystem fs = p.getFileSystem(TempTables.CONF);
    try (FSDataOutputStream out = fs.create(p)) {
      out.write("1\t2\n3\t4\n".getBytes(StandardCharsets.UTF_8));
    }
    assertTrue(Files.exists(tmp.resolve(".c.tsv.crc")));
    // Rewritten behind Hadoop's back: the .crc is stale.
    Files.write(tmp.resolve("c.tsv"), "5\t6\n7\t8\n".getBytes(StandardCharsets.UTF_8));
    refused(() -> edges(p.toString()), "c.tsv: checksum error");
  }

  @Test
  void aLineLongerThanTheCapIsRefused() throws Exception {
    java.nio.file.Path p = tmp.resolve("long.tsv");
    byte[] chunk = new byte[1 << 20];
    Arrays.fill(chunk, (byte) '7');
    try (OutputStream out = Files.newOutputStream(p)) {
      out.write("1\t2\n".getBytes(StandardCharsets.US_ASCII));
      for (int i = 0; i < 65; i++) {
        out.write(chunk);
      }
    }
    refused(() -> edges(new Path(p.toUri()).toString()), "long.tsv:2: line longer than 64 MiB");
  }
}
