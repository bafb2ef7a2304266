package org.yarngnn.app.local;

import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.io.table.TableFormat;
import org.yarngnn.partition.MissingFeatures;

/** Immutable options of an {@code infer} job, read from the command line and configuration. */
public record LocalInferenceOptions(
    String edges,
    String nodes,
    TableFormat edgesFormat,
    TableFormat nodesFormat,
    String model,
    String output,
    TableFormat outputFormat,
    boolean overwrite,
    boolean undirected,
    MissingFeatures missingFeatures,
    long seed,
    int threads,
    int batchSize,
    String graph) {

  public static LocalInferenceOptions fromCommandLine(CommandLine cl) {
    TableFormat outFormat = format(cl, "output-format", TableFormat.PARQUET);
    if (outFormat != TableFormat.PARQUET && outFormat != TableFormat.ORC) {
      throw new UsageException("--output-format must be parquet or orc");
    }
    MissingFeatures missing;
    try {
      missing = MissingFeatures.byName(cl.get("missing-features", "error"));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    String graph = cl.get("graph");
    if (graph != null && (cl.has("edges") || cl.has("nodes"))) {
      throw new UsageException("--graph replaces --edges and --nodes: give one or the other");
    }
    return new LocalInferenceOptions(
        graph == null ? cl.require("edges") : null,
        graph == null ? cl.require("nodes") : null,
        format(cl, "edges-format", null),
        format(cl, "nodes-format", null),
        cl.require("model"),
        cl.require("output"),
        outFormat,
        cl.flag("overwrite"),
        cl.flag("undirected"),
        missing,
        cl.getLong("seed", 0),
        cl.getInt("threads", Runtime.getRuntime().availableProcessors(), 1),
        cl.getInt("batch-size", 1024, 1),
        graph);
  }

  private static TableFormat format(CommandLine cl, String option, TableFormat dflt) {
    String v = cl.get(option);
    if (v == null) {
      return dflt;
    }
    try {
      return TableFormat.fromName(v);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--" + option + ": unknown format '" + v + "' (parquet, orc, tsv, csv)");
    }
  }
}
