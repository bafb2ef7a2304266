package org.yarngnn.io.table;

import java.util.Locale;

/** The file formats a table may come in. {@code .txt} files are read as TSV. */
public enum TableFormat {
  PARQUET, ORC, TSV, CSV;

  /** Parses a command-line format name: parquet, orc, tsv, csv or txt (case-insensitive). */
  public static TableFormat fromName(String option) {
    switch (option == null ? "" : option.trim().toLowerCase(Locale.ROOT)) {
      case "parquet": return PARQUET;
      case "orc": return ORC;
      case "tsv":
      case "txt": return TSV;
      case "csv": return CSV;
      default:
        throw new IllegalArgumentException("unknown table format '" + option + "' (expected parquet, orc, tsv, csv or txt)");
    }
  }

  /** The format implied by a file name's extension (optionally followed by .gz), or null when unknown. */
  public static TableFormat fromFileName(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    if (n.endsWith(".gz")) {
      n = n.substring(0, n.length() - 3);
    }
    if (n.endsWith(".parquet")) return PARQUET;
    if (n.endsWith(".orc")) return ORC;
    if (n.endsWith(".tsv") || n.endsWith(".txt")) return TSV;
    if (n.endsWith(".csv")) return CSV;
    return null;
  }

  /** True for the line-oriented formats. */
  public boolean isText() {
    return this == TSV || this == CSV;
  }

  /** The usual file extension, without the dot. */
  public String extension() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** True when a text file of this name is gzip-compressed. */
  public static boolean isGzip(String fileName) {
    return fileName.toLowerCase(Locale.ROOT).endsWith(".gz");
  }
}
