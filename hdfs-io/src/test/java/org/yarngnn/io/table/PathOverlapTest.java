package org.yarngnn.io.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An output that is, contains or lies inside an input is refused; qualified paths, relative and "." included. */
class PathOverlapTest {
  @TempDir
  java.nio.file.Path tmp;

  private static String refusal(Object output, Object... inputs) {
    return assertThrows(InputException.class, () -> PathOverlap.check(TempTables.CONF, "--output", output, inputs))
        .getMessage();
  }

  @Test
  void sameContainsAndInside() {
    String nodes = tmp.resolve("nodes").toString();
    assertEquals("--output " + nodes + " is --nodes " + nodes + " (an output must not be, contain or lie inside"
        + " an input: choose another --output)", refusal(nodes, "--edges", tmp.resolve("e.tsv").toString(),
        "--nodes", nodes));
    assertEquals(true, refusal(tmp.toString(), "--nodes", nodes).startsWith("--output " + tmp + " contains --nodes "
        + nodes));
    assertEquals(true, refusal(nodes + "/out", "--nodes", nodes).startsWith("--output " + nodes
        + "/out lies inside --nodes " + nodes));
    // Trailing slashes, "..", file: URIs: the same directory.
    assertEquals(true, refusal(tmp.resolve("x/../nodes/") + "/", "--nodes", new Path(tmp.resolve("nodes").toUri()))
        .contains(" is --nodes "));
  }

  @Test
  void relativePathsAndDot() {
    // The JVM's working directory holds "pom.xml" when Maven runs the tests: --output . would delete it.
    String dot = refusal(".", "--model", "pom.xml");
    assertTrue(dot.startsWith("--output . contains --model pom.xml"), dot);
    assertEquals(true, refusal("target", "--edges", "target/some/edges").contains("contains --edges"));
    String inside = refusal("target/out", "--graph", "./target/");
    assertEquals(true, inside.contains("lies inside --graph"), inside);
    assertEquals(true, refusal("target/../target", "--graph", new java.io.File("target").getAbsolutePath())
        .contains(" is --graph "));
  }

  @Test
  void disjointPathsPass() {
    PathOverlap.check(TempTables.CONF, "--output", tmp.resolve("out").toString(), "--nodes",
        tmp.resolve("nodes").toString(), "--edges", tmp.resolve("out-edges").toString(), "--graph", null,
        "--model", "");
    // Siblings sharing a prefix are not nested.
    assertNull(PathOverlap.relation(new Path("file:/a/out"), new Path("file:/a/out2")));
    assertNull(PathOverlap.relation(new Path("hdfs://nn:8020/a"), new Path("file:/a")));
    assertNull(PathOverlap.relation(new Path("hdfs://nn1:8020/a"), new Path("hdfs://nn2:8020/a/b")));
    assertEquals("contains", PathOverlap.relation(new Path("hdfs://nn:8020/"), new Path("hdfs://nn:8020/a")));
  }
}
