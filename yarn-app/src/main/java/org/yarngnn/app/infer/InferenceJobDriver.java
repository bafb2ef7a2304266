package org.yarngnn.app.infer;

import java.util.Base64;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.yarn.DriverContext;
import org.yarngnn.app.yarn.JobDriver;
import org.yarngnn.compute.model.ModelFormatException;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.OutputCommit;

/**
 * The inference job inside the ApplicationMaster: launches the graph-worker containers, runs
 * {@link InferenceDriver}, reports its rounds as YARN progress, and promotes the output ({@code _SUCCESS} last)
 * once every worker wrote its part; on failure the work directory is removed and no part reaches the output.
 * Arguments: {@code SPEC(base64) OUTPUT_DIR OVERWRITE WORKER_MEMORY_MB WORKER_VCORES}.
 */
public final class InferenceJobDriver implements JobDriver {
  /** Prefix of the diagnostics of a job refused for bad input; the client exits 2 on it. */
  public static final String BAD_INPUT = "bad input: ";
  /** A model shipped through the staging directory: {@code staged:NAME}. */
  public static final String STAGED = "staged:";

  @Override
  public int run(DriverContext ctx) throws Exception {
    List<String> a = ctx.args();
    InferenceJobSpec shipped = InferenceJobSpec.fromBytes(Base64.getDecoder().decode(a.get(0)));
    Path output = new Path(a.get(1));
    boolean overwrite = Boolean.parseBoolean(a.get(2));
    int memoryMb = Integer.parseInt(a.get(3));
    int vcores = Integer.parseInt(a.get(4));
    String model = shipped.model().startsWith(STAGED)
        ? new Path(ctx.stagingDir(), shipped.model().substring(STAGED.length())).toString() : shipped.model();
    InferenceJobSpec spec = withModel(shipped, model);
    OutputCommit commit = OutputCommit.resume(ctx.conf(), output, new Path(spec.workDir()), overwrite);
    List<String> hosts = spec.graph() == null ? List.of() : partitionHosts(ctx.conf(), new Path(spec.graph()));
    try (ContainerWorkers workers = new ContainerWorkers(ctx.containers(), spec, memoryMb, vcores, hosts)) {
      int layers = org.yarngnn.io.model.ModelFiles.read(ctx.conf(), new Path(model)).spec().layers().size();
      InferenceDriver.Result r = new InferenceDriver(spec, ctx.amHost(), workers, ctx::setProgress, System.out)
          .run(layers);
      commit.commit();
      ctx.setProgress(1f, String.format("wrote %,d embeddings", r.nodes()));
      System.out.println("yarn-gnn infer: " + r);
      return 0;
    } catch (InputException | ModelFormatException e) {
      commit.abort();
      throw new IllegalStateException(BAD_INPUT + e.getMessage());
    } catch (Exception | Error e) {
      commit.abort();
      throw e;
    }
  }

  /**
   * Hosts that hold blocks of a partitioned graph's files: the locality hint for the worker containers (YARN
   * relaxes it when those hosts are busy).
   */
  static List<String> partitionHosts(org.apache.hadoop.conf.Configuration conf, Path graph) {
    java.util.Set<String> hosts = new java.util.TreeSet<>();
    try {
      org.apache.hadoop.fs.FileSystem fs = graph.getFileSystem(conf);
      org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> it = fs.listFiles(graph, true);
      while (it.hasNext()) {
        for (org.apache.hadoop.fs.BlockLocation b : it.next().getBlockLocations()) {
          hosts.addAll(java.util.Arrays.asList(b.getHosts()));
        }
      }
    } catch (java.io.IOException e) {
      System.err.println("yarn-gnn AM: no locality hints for " + graph + ": " + e.getMessage());
    }
    return List.copyOf(hosts);
  }

  static InferenceJobSpec withModel(InferenceJobSpec s, String model) {
    return new InferenceJobSpec(s.edges(), s.nodes(), s.edgesFormat(), s.nodesFormat(), s.graph(), model,
        s.workDir(), s.outputFormat(), s.undirected(), s.missingFeatures(), s.seed(), s.workers(), s.threads(),
        s.fusion(), s.pipelining(), s.chunkRows(), s.ownership(), s.haltAt());
  }
}
