package org.yarngnn.app;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ShutdownHookManager;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.options.CommandOptions;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.model.ModelDirectory;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.RandomModels;
import org.yarngnn.compute.synth.EdgeConsumer;
import org.yarngnn.compute.synth.NodeConsumer;
import org.yarngnn.compute.synth.RmatGenerator;
import org.yarngnn.compute.synth.SbmGenerator;
import org.yarngnn.io.table.EdgeTableWriter;
import org.yarngnn.io.table.NodeSplit;
import org.yarngnn.io.table.NodeTableWriter;
import org.yarngnn.io.table.OutputCommit;
import org.yarngnn.io.table.TableFormat;

/**
 * {@code generate}: a synthetic graph as {@code OUT/edges} and {@code OUT/nodes} tables, written as
 * {@code --files} part files in parallel; optionally a random model that fits the features ({@code --model}).
 */
public final class GenerateCommand implements Command {
  @Override
  public OptionSpec options() {
    return CommandOptions.declare(new OptionSpec("generate", "--type rmat|sbm --nodes N --output DIR"),
        GenerateOptions.DECLARED);
  }

  @Override
  public int run(CommandLine cl, PrintStream out) throws Exception {
    GenerateOptions o = GenerateOptions.fromCommandLine(cl);
    long nodes = o.nodes();
    int width = o.features();
    int files = o.files();
    Graph graph = o.rmat() ? rmat(o) : sbm(o);

    Path output = new Path(o.output());
    boolean overwrite = o.overwrite();
    Model model = o.model() != null ? randomModel(o) : null;
    OutputCommit commit = OutputCommit.begin(cl.conf(), output, overwrite);
    Writers writers = new Writers(files);
    // SIGTERM (a scheduler's timeout) or Ctrl-C: the writers stop first, then the commit's own hook (it runs
    // after this one) removes the work directory, so that no writer opening a file recreates it.
    Runnable stopWriters = writers::stop;
    ShutdownHookManager.get().addShutdownHook(stopWriters, FileSystem.SHUTDOWN_HOOK_PRIORITY + 20);
    commit.abortOnExit();
    long t0 = System.nanoTime();
    AtomicLong edgeCount = new AtomicLong();
    try {
      TableFormat fmt = o.format();
      Path edgesDir = new Path(commit.workDir(), "edges");
      Path nodesDir = new Path(commit.workDir(), "nodes");
      List<Runnable> tasks = new ArrayList<>();
      for (int k = 0; k < files; k++) {
        int chunk = k;
        tasks.add(() -> {
          try (EdgeTableWriter w = EdgeTableWriter.create(cl.conf(),
              new Path(edgesDir, OutputCommit.partName(chunk, fmt)), fmt, false)) {
            graph.edges(chunk, files, (src, dst) -> {
              writers.check();
              w.write(src, dst);
            });
            edgeCount.addAndGet(w.rowsWritten());
          }
        });
        tasks.add(() -> {
          try (NodeTableWriter w = NodeTableWriter.create(cl.conf(),
              new Path(nodesDir, OutputCommit.partName(chunk, fmt)), fmt, width, graph.labelled())) {
            graph.nodes(chunk, files, (id, label, split, features) -> {
              writers.check();
              w.write(id, features, 0, label, split == null ? NodeSplit.NONE : NodeSplit.parse(split));
            });
          }
        });
      }
      writers.runAll(tasks);
      commit.commit();
    } catch (Exception | Error e) {
      commit.abort();
      throw e;
    } finally {
      if (!ShutdownHookManager.get().isShutdownInProgress()) {
        ShutdownHookManager.get().removeShutdownHook(stopWriters);
      }
    }
    out.printf("yarn-gnn generate: wrote %,d nodes and %,d edges (%s, %d features%s) under %s in %.1f s%n",
        nodes, edgeCount.get(), o.type(), width, graph.labelled() ? ", " + graph.classes() + " classes" : "",
        output, (System.nanoTime() - t0) / 1e9);
    if (model != null) {
      Path dir = new Path(o.model());
      writeModel(cl, model, dir, overwrite);
      out.printf("yarn-gnn generate: wrote a random %s model (%d -> %d) to %s%n",
          model.spec().layers().get(0).type().jsonName(), width, model.spec().outputWidth(), dir);
    }
    return Main.OK;
  }

  /** One synthetic graph, generated in independent chunks. */
  private interface Graph {
    void edges(int chunk, int chunks, EdgeConsumer out);

    void nodes(int chunk, int chunks, NodeConsumer out);

    boolean labelled();

    int classes();
  }

  private static Graph rmat(GenerateOptions o) {
    long nodes = o.nodes();
    int width = o.features();
    RmatGenerator gen = new RmatGenerator(RmatGenerator.builder().nodes(nodes)
        .edges(o.edges()).seed(o.seed()).scrambleIds(o.sparseIds()).build());
    return new Graph() {
      @Override
      public void edges(int chunk, int chunks, EdgeConsumer out) {
        long total = gen.edgeCount();
        gen.generateEdges(RmatGenerator.chunkStart(total, chunk, chunks),
            RmatGenerator.chunkStart(total, chunk + 1, chunks), out);
      }

      @Override
      public void nodes(int chunk, int chunks, NodeConsumer out) {
        gen.generateNodes(RmatGenerator.chunkStart(nodes, chunk, chunks),
            RmatGenerator.chunkStart(nodes, chunk + 1, chunks), width, out);
      }

      @Override
      public boolean labelled() {
        return false;
      }

      @Override
      public int classes() {
        return 0;
      }
    };
  }

  private static Graph sbm(GenerateOptions o) {
    long nodes = o.nodes();
    int classes = o.classes();
    SbmGenerator gen = new SbmGenerator(SbmGenerator.builder().nodes(nodes).classes(classes)
        .averageDegree(o.avgDegree(), o.homophily()).featureWidth(o.features())
        .seed(o.seed()).scrambleIds(o.sparseIds()).bothDirections(true).build());
    return new Graph() {
      @Override
      public void edges(int chunk, int chunks, EdgeConsumer out) {
        gen.generateEdges(gen.rowChunkStart(chunk, chunks), gen.rowChunkStart(chunk + 1, chunks), out);
      }

      @Override
      public void nodes(int chunk, int chunks, NodeConsumer out) {
        gen.generateNodes(RmatGenerator.chunkStart(nodes, chunk, chunks),
            RmatGenerator.chunkStart(nodes, chunk + 1, chunks), out);
      }

      @Override
      public boolean labelled() {
        return true;
      }

      @Override
      public int classes() {
        return classes;
      }
    };
  }

  private static Model randomModel(GenerateOptions o) {
    int width = o.features();
    int classes = o.classes();
    int hidden = o.hidden();
    int outWidth = o.modelOut();
    List<LayerSpec> layers;
    switch (o.modelType()) {
      case "gcn":
        layers = List.of(LayerSpec.gcn(width, hidden, Activation.RELU, true),
            LayerSpec.gcn(hidden, outWidth, Activation.NONE, true));
        break;
      case "sage":
        layers = List.of(LayerSpec.sage(width, hidden, Activation.RELU, true, 10),
            LayerSpec.sage(hidden, outWidth, Activation.NONE, true, 10));
        break;
      case "gat":
        int heads = 4;
        layers = List.of(LayerSpec.gat(width, Math.max(1, hidden / heads), heads, true, 0.2f, Activation.ELU, true),
            LayerSpec.gat(Math.max(1, hidden / heads) * heads, outWidth, 1, false, 0.2f, Activation.NONE, true));
        break;
      default:
        throw new IllegalStateException("unchecked --model-type " + o.modelType());
    }
    return RandomModels.random(new ModelSpec("none", layers, "none", classes > 0), o.seed());
  }

  private static void writeModel(CommandLine cl, Model model, Path dir, boolean overwrite) throws Exception {
    FileSystem fs = dir.getFileSystem(cl.conf());
    if (fs.exists(dir) && !overwrite) {
      throw new UsageException("--model " + dir + ": exists (use --overwrite)");
    }
    fs.mkdirs(dir);
    try (OutputStream json = fs.create(new Path(dir, ModelDirectory.MODEL_JSON), true);
        OutputStream weights = fs.create(new Path(dir, ModelDirectory.WEIGHTS), true)) {
      ModelDirectory.write(model, json, weights);
    }
  }

  /**
   * The threads writing the part files, which a shutdown hook can stop: queued tasks are dropped, running ones
   * end at their next row.
   */
  private static final class Writers {
    private final ExecutorService pool;
    private volatile boolean stopping;

    Writers(int threads) {
      pool = Executors.newFixedThreadPool(Math.max(1, Math.min(threads, Runtime.getRuntime().availableProcessors())));
    }

    void runAll(List<Runnable> tasks) throws Exception {
      try {
        List<Future<?>> futures = new ArrayList<>();
        for (Runnable t : tasks) {
          futures.add(pool.submit(t));
        }
        for (Future<?> f : futures) {
          try {
            f.get();
          } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof Exception) {
              throw (Exception) e.getCause();
            }
            throw new IllegalStateException(e.getCause());
          }
        }
      } finally {
        pool.shutdownNow();
      }
    }

    /** Called for every row: a stopped run's writers end here. */
    void check() {
      if (stopping) {
        throw new java.util.concurrent.CancellationException("generate stopped");
      }
    }

    /** Stops the writers and waits (briefly: the JVM is exiting) until none writes any more. */
    void stop() {
      stopping = true;
      pool.shutdownNow();
      try {
        pool.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
