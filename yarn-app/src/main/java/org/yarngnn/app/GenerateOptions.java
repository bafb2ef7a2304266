package org.yarngnn.app;

import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.options.Option;
import org.yarngnn.io.table.TableFormat;

/**
 * Immutable options of {@code generate}, parsed and checked once by {@link #fromCommandLine}.
 *
 * @param type rmat or sbm
 * @param edges rmat: the number of edges
 * @param classes sbm: the number of classes; 0 for rmat
 * @param model where to write a random model for the features, or null for none
 * @param modelType gcn, sage or gat (checked only with {@code model})
 */
public record GenerateOptions(
    String type,
    long nodes,
    long edges,
    int features,
    int classes,
    double avgDegree,
    double homophily,
    boolean sparseIds,
    TableFormat format,
    int files,
    long seed,
    String output,
    boolean overwrite,
    String model,
    String modelType,
    int hidden,
    int modelOut) {

  /** {@code --format}: a table format, as the graph jobs' --edges-format reads it. */
  static final Option<TableFormat> FORMAT = GraphJobOptions.tableFormat("format", "parquet (default), orc, tsv or csv")
      .withDefault(TableFormat.PARQUET);

  public boolean rmat() {
    return type.equals("rmat");
  }

  /** Sizes beyond these are typing errors, not graphs this command should spend hours and disks on. */
  static final long MAX_NODES = 1L << 40;
  static final long MAX_EDGES = 1L << 44;
  static final int MAX_FEATURES = 1 << 16;
  static final int MAX_FILES = 1 << 16;
  static final double MAX_AVERAGE_DEGREE = 1 << 20;

  private static void atMost(String option, long v, long most) {
    if (v > most) {
      throw new UsageException("option --" + option + " must be at most " + most + ", not " + v);
    }
  }

  public static GenerateOptions fromCommandLine(CommandLine cl) {
    String type = cl.require("type");
    if (!type.equals("rmat") && !type.equals("sbm")) {
      throw new UsageException("--type must be rmat or sbm, not '" + type + "'");
    }
    long nodes = cl.getLong("nodes", -1);
    if (nodes < 2) {
      throw new UsageException("generate needs --nodes of at least 2");
    }
    atMost("nodes", nodes, MAX_NODES);
    int features = cl.getInt("features", 16, 1);
    atMost("features", features, MAX_FEATURES);
    int files = cl.getInt("files", Runtime.getRuntime().availableProcessors(), 1);
    atMost("files", files, MAX_FILES);
    long seed = cl.getLong("seed", 1);
    TableFormat format = FORMAT.read(cl);
    boolean rmat = type.equals("rmat");
    long edges = rmat ? cl.getLong("edges", nodes * 16) : 0;
    int classes = rmat ? 0 : cl.getInt("classes", 8, 2);
    double avgDegree = rmat ? 0 : cl.getDouble("avg-degree", 10);
    double homophily = rmat ? 0 : cl.getDouble("homophily", 0.8);
    if (rmat && edges < 0) {
      throw new UsageException("option --edges must be at least 0, not " + edges);
    }
    atMost("edges", edges, MAX_EDGES);
    if (!rmat && !(avgDegree > 0 && avgDegree <= MAX_AVERAGE_DEGREE)) {
      throw new UsageException("option --avg-degree must be above 0 and at most " + MAX_AVERAGE_DEGREE + ", not "
          + avgDegree);
    }
    if (!rmat && !(homophily >= 0 && homophily <= 1)) {
      throw new UsageException("option --homophily is a fraction of edges, from 0 to 1, not " + homophily);
    }
    if (!rmat && classes > nodes) {
      throw new UsageException("option --classes must be at most --nodes (" + nodes + "), not " + classes);
    }
    boolean sparseIds = cl.flag("sparse-ids");
    String output = cl.require("output");
    boolean overwrite = cl.flag("overwrite");
    String model = cl.get("model");
    String modelType = cl.get("model-type", "sage");
    int hidden = 64;
    int modelOut = classes > 0 ? classes : 16;
    if (model != null) {
      hidden = cl.getInt("hidden", hidden, 1);
      modelOut = cl.getInt("model-out", modelOut, 1);
      if (!modelType.equals("gcn") && !modelType.equals("sage") && !modelType.equals("gat")) {
        throw new UsageException("--model-type must be gcn, sage or gat, not '" + modelType + "'");
      }
    }
    return new GenerateOptions(type, nodes, edges, features, classes, avgDegree, homophily, sparseIds,
        format, files, seed, output, overwrite, model, modelType, hidden,
        modelOut);
  }
}
