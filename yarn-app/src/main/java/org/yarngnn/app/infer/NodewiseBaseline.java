package org.yarngnn.app.infer;

import java.io.PrintStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.compute.infer.LayerwiseInference;
import org.yarngnn.compute.infer.NodewiseInference;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.model.ModelFiles;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.OutputCommit;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.partition.GraphBuildOptions;
import org.yarngnn.partition.GraphBuilder;
import org.yarngnn.partition.LocalGraph;
import org.yarngnn.partition.format.PartitionedGraph;

/**
 * The nodewise mini-batch baseline of inference ({@code --strategy nodewise}): in one JVM without workers, reads
 * the tables, builds the whole graph, runs {@link NodewiseInference} on all cores, and writes the output table
 * through an {@link OutputCommit} (no part file in the output directory before the job succeeded, {@code _SUCCESS}
 * last).
 */
public final class NodewiseBaseline {
  /** Rows per output part file: parts are written in parallel and stay a comfortable size for readers. */
  static final int ROWS_PER_PART = 1 << 20;

  /** What the job wrote. */
  public record Result(long nodes, int width, int parts, double seconds) {}

  private final Configuration conf;
  private final InferOptions options;
  private final PrintStream log;

  public NodewiseBaseline(Configuration conf, InferOptions options, PrintStream log) {
    this.conf = conf;
    this.options = options;
    this.log = log;
  }

  public Result run() throws Exception {
    long t0 = System.nanoTime();
    // Everything that can be refused is checked before any output exists.
    Model model = ModelFiles.read(conf, new Path(options.get(InferOptions.MODEL)));
    PartitionedGraph partitioned = null;
    EdgeTable edges = null;
    NodeTable nodes = null;
    int width;
    if (options.get(GraphJobOptions.GRAPH) != null) {
      partitioned = PartitionedGraph.open(conf, new Path(options.get(GraphJobOptions.GRAPH)));
      width = partitioned.featureWidth();
    } else {
      edges = EdgeTable.open(conf, options.get(GraphJobOptions.EDGES),
          TableReadOptions.builder().format(options.get(GraphJobOptions.EDGES_FORMAT)).build());
      nodes = NodeTable.open(conf, options.get(GraphJobOptions.NODES),
          TableReadOptions.builder().format(options.get(GraphJobOptions.NODES_FORMAT)).build());
      width = nodes.featureWidth();
    }
    ModelFiles.checkInputWidth(model, options.get(InferOptions.MODEL), width,
        options.get(GraphJobOptions.GRAPH) != null ? options.get(GraphJobOptions.GRAPH)
        : options.get(GraphJobOptions.NODES));
    OutputCommit commit = OutputCommit.begin(conf, new Path(options.get(GraphJobOptions.OUTPUT)),
        options.get(GraphJobOptions.OVERWRITE))
        .abortOnExit();
    try {
      LocalGraph graph = partitioned != null ? partitioned.loadLocalGraph()
          : GraphBuilder.build(edges, nodes, GraphBuildOptions.builder()
              .undirected(options.get(GraphJobOptions.UNDIRECTED))
              .missingFeatures(options.get(GraphJobOptions.MISSING_FEATURES))
              .threads(options.job().threads())
              .build());
      log.println("yarn-gnn infer: graph " + graph.stats().summary());
      long tc = System.nanoTime();
      NodewiseInference nodewise = new NodewiseInference(model, options.get(GraphJobOptions.SEED),
          options.getInt(InferOptions.BATCH_SIZE));
      DenseMatrix embeddings;
      try {
        embeddings = nodewise.run(graph.block(), graph.features());
      } catch (RuntimeException e) {
        throw NumberChecks.asBadInput(e, options.get(GraphJobOptions.EDGES) != null
            ? options.get(GraphJobOptions.EDGES) : options.get(GraphJobOptions.GRAPH));
      }
      log.printf("yarn-gnn infer: nodewise inference computed %,d layer rows in %.1f s%n", nodewise.rowsComputed(),
          (System.nanoTime() - tc) / 1e9);
      int[] predictions = model.spec().predict() ? LayerwiseInference.predictions(embeddings) : null;
      int parts = writeParts(commit, graph.block().nodeIds(), embeddings, predictions,
          model.spec().layers().size());
      commit.commit();
      return new Result(embeddings.rows(), embeddings.cols(), parts, (System.nanoTime() - t0) / 1e9);
    } catch (Throwable t) {
      commit.abort();
      throw t;
    }
  }

  private int writeParts(OutputCommit commit, long[] ids, DenseMatrix embeddings, int[] predictions, int layers)
      throws Exception {
    int parts = Math.max(1, (ids.length + ROWS_PER_PART - 1) / ROWS_PER_PART);
    return new PartWriter(conf, options.get(GraphJobOptions.OUTPUT_FORMAT), layers).write(ids, embeddings, predictions,
        parts,
        options.job().threads(), part -> commit.partFile(part, options.get(GraphJobOptions.OUTPUT_FORMAT)));
  }
}
