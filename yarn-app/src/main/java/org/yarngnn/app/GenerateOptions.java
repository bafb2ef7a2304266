package org.yarngnn.app;

import static java.util.Map.entry;

import java.util.List;
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

  /** Sizes beyond these are typing errors, not graphs this command should spend hours and disks on. */
  static final long MAX_NODES = 1L << 40;
  static final long MAX_EDGES = 1L << 44;
  static final int MAX_FEATURES = 1 << 16;
  static final int MAX_FILES = 1 << 16;
  static final double MAX_AVERAGE_DEGREE = 1 << 20;

  static final Option<String> TYPE = Option.choice("type", "rmat|sbm", null,
      "R-MAT power-law graph, or a labelled stochastic block model", entry("rmat", "rmat"), entry("sbm", "sbm"));
  static final Option<Long> NODES = whole("nodes", "N", null, 2, MAX_NODES, "number of nodes");
  static final Option<Long> EDGES = whole("edges", "M", null, 0, MAX_EDGES, "rmat: number of edges (default 16 per node)");
  static final Option<Long> FEATURES = whole("features", "F", 16L, 1, MAX_FEATURES, "feature width (default {default})");
  static final Option<Long> CLASSES = whole("classes", "C", 8L, 2, Long.MAX_VALUE,
      "sbm: number of classes (default {default})");
  static final Option<Double> AVG_DEGREE = Option.number("avg-degree", "D", 10, v -> v > 0 && v <= MAX_AVERAGE_DEGREE
      ? null : "option --avg-degree must be above 0 and at most " + MAX_AVERAGE_DEGREE + ", not " + v,
      "sbm: average degree (default 10)");
  static final Option<Double> HOMOPHILY = Option.number("homophily", "H", 0.8, v -> v >= 0 && v <= 1 ? null
      : "option --homophily is a fraction of edges, from 0 to 1, not " + v,
      "sbm: fraction of edges inside a class (default {default})");
  static final Option<Boolean> SPARSE_IDS = Option.flag("sparse-ids", "scramble node ids into arbitrary int64 values");
  /** {@code --format}: a table format, as the graph jobs' --edges-format reads it. */
  static final Option<TableFormat> FORMAT = GraphJobOptions.tableFormat("format", "parquet (default), orc, tsv or csv")
      .withDefault(TableFormat.PARQUET);
  static final Option<Long> FILES = whole("files", "K", null, 1, MAX_FILES,
      "part files per table, written in parallel (default: cores)");
  static final Option<Long> SEED = whole("seed", "S", 1L, Long.MIN_VALUE, Long.MAX_VALUE,
      "generator seed (default {default})");
  static final Option<String> OUTPUT = GraphJobOptions.OUTPUT.withHelp("output directory: DIR/edges and DIR/nodes");
  static final Option<String> MODEL = Option.text("model", "DIR", null,
      "also write a random 2-layer model for these features to DIR");
  static final Option<String> MODEL_TYPE = Option.choice("model-type", "gcn|sage|gat", "sage",
      "layer type of the random model (default {default})", entry("gcn", "gcn"), entry("sage", "sage"),
      entry("gat", "gat"));
  static final Option<Long> HIDDEN = whole("hidden", "H", 64L, 1, Long.MAX_VALUE,
      "hidden width of the random model (default {default})");
  static final Option<Long> MODEL_OUT = whole("model-out", "W", null, 1, Long.MAX_VALUE,
      "output width of the random model (default: classes, or 16)");
  static final List<Option<?>> DECLARED = List.of(TYPE, NODES, EDGES, FEATURES, CLASSES, AVG_DEGREE, HOMOPHILY,
      SPARSE_IDS, FORMAT, FILES, SEED, OUTPUT, GraphJobOptions.OVERWRITE, MODEL, MODEL_TYPE, HIDDEN, MODEL_OUT);

  /** A whole number of at least {@code min}, refused above {@code most} as a typing error. */
  private static Option<Long> whole(String name, String valueName, Long dflt, long min, long most, String help) {
    return Option.whole(name, valueName, dflt, min, Long.MAX_VALUE, help).checked(v -> v <= most ? null
        : "option --" + name + " must be at most " + most + ", not " + v);
  }

  public boolean rmat() {
    return type.equals("rmat");
  }

  public static GenerateOptions fromCommandLine(CommandLine cl) {
    cl.require("type");
    String type = TYPE.read(cl);
    if (!cl.has("nodes") || NODES.parse(cl.get("nodes")) < 2) {
      throw new UsageException("generate needs --nodes of at least 2");
    }
    long nodes = NODES.read(cl);
    boolean rmat = type.equals("rmat");
    int classes = rmat ? 0 : CLASSES.read(cl).intValue();
    if (!rmat && classes > nodes) {
      throw new UsageException("option --classes must be at most --nodes (" + nodes + "), not " + classes);
    }
    Long edges = rmat ? EDGES.read(cl) : Long.valueOf(0);
    Long files = FILES.read(cl);
    String model = MODEL.read(cl);
    Long modelOut = model == null ? null : MODEL_OUT.read(cl);
    return new GenerateOptions(type, nodes, edges != null ? edges : nodes * 16, FEATURES.read(cl).intValue(),
        classes, rmat ? 0 : AVG_DEGREE.read(cl), rmat ? 0 : HOMOPHILY.read(cl), SPARSE_IDS.read(cl), FORMAT.read(cl),
        files != null ? files.intValue() : Runtime.getRuntime().availableProcessors(), SEED.read(cl),
        cl.require("output"), GraphJobOptions.OVERWRITE.read(cl), model, model == null ? "sage" : MODEL_TYPE.read(cl),
        model == null ? 64 : HIDDEN.read(cl).intValue(),
        modelOut != null ? modelOut.intValue() : classes > 0 ? classes : 16);
  }
}
