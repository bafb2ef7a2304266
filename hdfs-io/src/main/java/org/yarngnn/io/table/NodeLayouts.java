package org.yarngnn.io.table;

import org.apache.hadoop.fs.Path;

/** Checks that every file of a nodes table has the columns its first file has. */
public final class NodeLayouts {
  private NodeLayouts() {
  }

  public static void checkSame(Path file, NodeLayout table, boolean hasLabels, boolean hasSplits) {
    if (hasLabels != table.hasLabels() || hasSplits != table.hasSplits()) {
      throw InputException.in(file, "has " + describe(hasLabels, hasSplits)
          + " but the table's first file has " + describe(table.hasLabels(), table.hasSplits()));
    }
  }

  private static String describe(boolean labels, boolean splits) {
    if (labels && splits) {
      return "label and split columns";
    }
    if (labels) {
      return "a label column and no split column";
    }
    return splits ? "a split column and no label column" : "no label or split column";
  }
}
