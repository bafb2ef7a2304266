package org.yarngnn.io.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** The real Planetoid Cora files read with the published counts. */
class CoraTablesTest {
  private static final java.nio.file.Path CORA = TempTables.sharedDir().resolve("data/planetoid/cora");

  @Test
  void edges() {
    EdgeTable table = EdgeTable.open(TempTables.CONF, new Path(CORA.resolve("edges.tsv").toUri()),
        TableReadOptions.defaults());
    assertFalse(table.weighted());
    long[] count = new long[1];
    long[] maxId = new long[1];
    table.read((src, dst, w, row) -> {
      count[0]++;
      maxId[0] = Math.max(maxId[0], Math.max(src, dst));
      assertEquals(1f, w);
    });
    assertEquals(10556, count[0]);
    assertEquals(2707, maxId[0]);
  }

  @Test
  void nodes() {
    NodeTable table = NodeTable.open(TempTables.CONF, new Path(CORA.resolve("nodes.tsv.gz").toUri()),
        TableReadOptions.defaults());
    assertEquals(1433, table.featureWidth());
    assertTrue(table.hasLabels());
    assertTrue(table.hasSplits());
    int[] splitCounts = new int[4];
    Set<Long> ids = new HashSet<>();
    Set<Integer> labels = new HashSet<>();
    double[] featureSum = new double[1];
    table.read((id, label, split, features, row) -> {
      ids.add(id);
      labels.add(label);
      splitCounts[split]++;
      for (float f : features) {
        featureSum[0] += f;
      }
    });
    assertEquals(2708, ids.size());
    assertEquals(7, labels.size());
    assertEquals(140, splitCounts[NodeSplit.TRAIN]);
    assertEquals(500, splitCounts[NodeSplit.VAL]);
    assertEquals(1000, splitCounts[NodeSplit.TEST]);
    // Cora's features are 0/1 word indicators, about 18 words per paper.
    assertTrue(featureSum[0] > 2708 * 10 && featureSum[0] < 2708 * 30, "feature sum " + featureSum[0]);
  }
}
