package org.yarngnn.io.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** import: text tables become committed Parquet tables; bad input leaves no output. */
class TableImportTest {
  @TempDir
  java.nio.file.Path tmp;

  @Test
  void importsEdgesAndNodes() {
    Path edges = TempTables.text(tmp, "in/edges.csv", "src,dst,weight\n1,2,0.5\n2,3,2\n");
    Path nodes = TempTables.text(tmp, "in/nodes.csv.gz", "# id,label,split,features\n1,0,train,\"1,2\"\n"
        + "2,-1,none,\"3,4\"\n3,1,test,\" 5 , 6 \"\n");
    Path edgesOut = TempTables.path(tmp, "out/edges");
    Path nodesOut = TempTables.path(tmp, "out/nodes");
    assertEquals(2, TableImport.importText(TempTables.CONF, TableKind.EDGES, edges, TableReadOptions.defaults(),
        edgesOut, false));
    assertEquals(3, TableImport.importText(TempTables.CONF, TableKind.NODES, nodes, TableReadOptions.defaults(),
        nodesOut, false));
    assertTrue(Files.exists(tmp.resolve("out/edges/part-00000.parquet")));
    assertTrue(Files.exists(tmp.resolve("out/nodes/_SUCCESS")));

    EdgeTable e = EdgeTable.open(TempTables.CONF, edgesOut, TableReadOptions.defaults());
    assertTrue(e.weighted());
    assertEquals(List.of(0.5f, 2f), Edges.read(e).weights);
    NodeTable n = NodeTable.open(TempTables.CONF, nodesOut, TableReadOptions.defaults());
    Nodes got = Nodes.read(n);
    assertEquals(List.of(1L, 2L, 3L), got.ids);
    assertEquals(List.of(0, -1, 1), got.labels);
    assertEquals(List.of(NodeSplit.TRAIN, NodeSplit.NONE, NodeSplit.TEST), got.splits);
    assertArrayEquals(new float[] {5, 6}, got.features.get(2));
  }

  @Test
  void badInputLeavesNoOutput() {
    Path nodes = TempTables.text(tmp, "nodes.tsv", "1\t1,2\n2\t1\n");
    Path out = TempTables.path(tmp, "out");
    InputException e = assertThrows(InputException.class, () -> TableImport.importText(TempTables.CONF,
        TableKind.NODES, nodes, TableReadOptions.defaults(), out, false));
    assertTrue(e.getMessage().startsWith(nodes + ":2: "), e.getMessage());
    assertFalse(Files.exists(tmp.resolve("out")));
  }
}
