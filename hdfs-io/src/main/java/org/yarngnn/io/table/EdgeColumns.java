package org.yarngnn.io.table;

/**
 * The optional columns an edges table has, learnt from its first file (a text file: from its first data row):
 * {@code weight}, and {@code split} (train, val, test, none), which only {@code train --task link} uses. Every
 * other file of the table must have the same.
 */
public record EdgeColumns(boolean weighted, boolean split) {
  public static final EdgeColumns PLAIN = new EdgeColumns(false, false);

  /** The refusal of a file whose optional columns differ from the first file's, or null when they agree. */
  public String differenceIn(EdgeColumns file, String weightName, String splitName) {
    if (file.weighted != weighted) {
      return weighted ? "missing column '" + weightName + "' (the table's first file has weights)"
          : "has a weight column but the table's first file has none";
    }
    if (file.split != split) {
      return split ? "missing column '" + splitName + "' (the table's first file has a split column)"
          : "has a split column but the table's first file has none";
    }
    return null;
  }
}
