package org.yarngnn.partition;

/** What to do with an edge endpoint that has no row in the nodes table. */
public enum MissingFeatures {
  /** Refuse the input (the contract's default): exit 2 naming the edge's file and row. */
  ERROR,
  /** Add the endpoint as a node with an all-zero feature row. */
  ZERO;

  public static MissingFeatures byName(String name) {
    switch (name) {
      case "error":
        return ERROR;
      case "zero":
        return ZERO;
      default:
        throw new IllegalArgumentException("--missing-features must be error or zero, not '" + name + "'");
    }
  }
}
