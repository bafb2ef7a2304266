package org.yarngnn.app.yarn;

import java.io.File;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * A cluster smoke test of the runtime, shipped in the jar. As a client:
 * <pre>
 *   HADOOP_CLASSPATH=yarn-gnn-VERSION.jar hadoop org.yarngnn.app.yarn.SelfTestDriver --output /tmp/yarn-gnn-selftest
 *       [--workers 2] [--memory 256] [--queue default] [--mode ok|exit|kill] [--ship LOCAL_PATH]...
 * </pre>
 * submits this jar, whose driver (this class, in the AM) launches {@code --workers} {@link SelfTestWorker}
 * containers; each writes {@code OUTPUT/worker-<i>} and exits 0, and the application SUCCEEDS. {@code --ship}
 * files must appear in every worker's directory. {@code --mode exit} makes worker 0 exit 1 and {@code --mode kill}
 * makes it SIGKILL itself once every worker started (the others wait to be stopped): the application must FAIL
 * with worker 0's diagnostics. Exit status 0 when the application ended as the mode expects.
 */
public final class SelfTestDriver implements JobDriver {
  public static final String ROLE = "selftest-worker";
  /** The self test computes nothing: a JVM that skips the optimizing compiler starts faster on a busy node. */
  static final String LIGHT_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

  /** Driver arguments: {@code OUTPUT WORKERS MEMORY_MB MODE [SHIPPED_NAME...]}. */
  @Override
  public int run(DriverContext ctx) throws Exception {
    List<String> a = ctx.args();
    String output = a.get(0);
    int workers = Integer.parseInt(a.get(1));
    int memoryMb = Integer.parseInt(a.get(2));
    List<String> workerArgs = new ArrayList<>();
    workerArgs.add(output);
    workerArgs.addAll(a.subList(3, a.size()));
    ctx.setProgress(0.05f, "launching " + workers + " workers");
    AtomicInteger done = new AtomicInteger();
    ctx.containers().addExitListener((h, exit) -> {
      if (exit.succeeded()) {
        int n = done.incrementAndGet();
        ctx.setProgress(0.1f + 0.9f * n / workers, n + "/" + workers + " workers done");
      }
    });
    List<ContainerHandle> handles = ctx.containers().launch(
        ContainerSpec.builder(ROLE, workers, SelfTestWorker.class.getName()).memoryMb(memoryMb).args(workerArgs)
            .javaOpts(LaunchContexts.defaultJavaOpts(memoryMb) + " " + LIGHT_JVM).build());
    ctx.containers().awaitSuccess(handles);
    return 0;
  }

  /**
   * The submission of a self test, ready to build or adjust (queue, AM memory): {@code mode} ok, exit or kill;
   * {@code ship} local files or directories every worker must find in its directory.
   */
  public static JobSubmission.Builder submission(Path jar, String output, int workers, int memoryMb, String mode,
      List<java.nio.file.Path> ship) {
    List<String> args = new ArrayList<>(List.of(output, Integer.toString(workers), Integer.toString(memoryMb), mode));
    // One attempt: its failure modes must end the application, not start it again.
    JobSubmission.Builder b = JobSubmission.builder().appName("yarn-gnn-selftest-" + mode).jar(jar).amMemoryMb(256)
        .maxAttempts(1)
        .amJavaOpts(LaunchContexts.defaultJavaOpts(256) + " " + LIGHT_JVM);
    for (java.nio.file.Path p : ship) {
      b.file(p);
      args.add(p.getFileName().toString());
    }
    return b.driver(SelfTestDriver.class.getName(), args);
  }

  public static void main(String[] argv) throws Exception {
    String output = null;
    String mode = "ok";
    String queue = "default";
    int workers = 2;
    int memoryMb = 256;
    List<java.nio.file.Path> ship = new ArrayList<>();
    for (int i = 0; i < argv.length; i++) {
      String v = i + 1 < argv.length ? argv[i + 1] : null;
      switch (argv[i]) {
        case "--output" -> output = v;
        case "--mode" -> mode = v;
        case "--queue" -> queue = v;
        case "--workers" -> workers = Integer.parseInt(v);
        case "--memory" -> memoryMb = Integer.parseInt(v);
        case "--ship" -> ship.add(java.nio.file.Path.of(v));
        default -> {
          System.err.println("usage: SelfTestDriver --output DIR [--workers N] [--memory MB] [--queue Q] "
              + "[--mode ok|exit|kill] [--ship PATH]...");
          System.exit(2);
        }
      }
      i++;
    }
    if (output == null || !List.of("ok", "exit", "kill").contains(mode)) {
      System.err.println("SelfTestDriver: --output DIR is required and --mode is one of ok, exit, kill");
      System.exit(2);
    }
    Configuration conf = new YarnConfiguration();
    JobResult r = new YarnJobClient(conf, System.out).run(
        submission(ownJar(), output, workers, memoryMb, mode, ship).queue(queue).build());
    System.out.println("yarn-gnn selftest: " + r.finalStatus() + (r.diagnostics().isEmpty() ? "" : ": " + r.diagnostics()));
    boolean expected = mode.equals("ok") == r.succeeded();
    System.exit(expected ? 0 : 1);
  }

  private static Path ownJar() throws URISyntaxException {
    File f = new File(SelfTestDriver.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    if (!f.isFile()) {
      throw new IllegalStateException("SelfTestDriver must run from the shipped jar, not from " + f);
    }
    return new Path(f.toURI());
  }
}
