package org.yarngnn.io.table;

/** What a nodes table holds besides ids: label and split columns, and the feature width. */
public record NodeLayout(boolean hasLabels, boolean hasSplits, int featureWidth) {
  NodeLayout withWidth(int width) {
    return new NodeLayout(hasLabels, hasSplits, width);
  }
}
