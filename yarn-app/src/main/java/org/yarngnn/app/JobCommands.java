package org.yarngnn.app;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.yarn.JobDriver;
import org.yarngnn.app.yarn.JobResult;
import org.yarngnn.io.table.InputException;

/**
 * What the job commands ({@code infer}, {@code train}, {@code topk}) share as clients: the jar to ship, tables
 * qualified on the cluster FileSystem, why an application did not succeed, and the per-worker figures line of a
 * run in this JVM.
 */
final class JobCommands {
  private JobCommands() {}

  /** Why an application did not succeed: bad input (its diagnostics say so; exit 2) or a failure while running. */
  static RuntimeException failed(JobResult r) {
    String diag = r.diagnostics() == null ? "" : r.diagnostics();
    int bad = diag.indexOf(JobDriver.BAD_INPUT);
    if (bad >= 0) {
      return new InputException(diag.substring(bad + JobDriver.BAD_INPUT.length()).trim());
    }
    return new IllegalStateException("application " + r.applicationId() + " " + r.finalStatus()
        + (diag.isEmpty() ? "" : ": " + withoutTraces(diag, r.applicationId())));
  }

  /**
   * {@code diag} up to its first stack-trace line. YARN's diagnostics of a container that exited non-zero carry
   * the tail of its stderr, where an ApplicationMaster that failed before it could unregister printed its trace:
   * that belongs in the container logs, not on the user's terminal (the message says where the rest is).
   */
  static String withoutTraces(String diag, String applicationId) {
    String[] lines = diag.split("\\R");
    StringBuilder kept = new StringBuilder();
    for (String line : lines) {
      if (STACK_LINE.matcher(line).find()) {
        return kept.toString().trim() + " (the rest is in the application's logs: yarn logs -applicationId "
            + applicationId + ")";
      }
      kept.append(kept.length() > 0 ? "\n" : "").append(line);
    }
    return diag;
  }

  /** A Java stack trace's frame, cause or elision line. */
  private static final java.util.regex.Pattern STACK_LINE =
      java.util.regex.Pattern.compile("^(\\s+at \\S+\\(|Caused by: |\\s*\\.\\.\\. \\d+ more)");

  /** The key naming the jar to ship (default: the jar this class was loaded from). */
  static final String JAR_KEY = "yarngnn.app.jar";

  static Path shippedJar(Configuration conf) throws Exception {
    String configured = conf.get(JAR_KEY);
    if (configured != null) {
      return new Path(configured);
    }
    java.io.File f = new java.io.File(JobCommands.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    if (!f.isFile()) {
      // `yarn jar` (Hadoop's RunJar) runs from an unpacked copy; the jar itself is RunJar's first argument.
      String[] command = System.getProperty("sun.java.command", "").split(" ");
      if (command.length > 1 && command[0].equals("org.apache.hadoop.util.RunJar")
          && new java.io.File(command[1]).isFile()) {
        f = new java.io.File(command[1]);
      }
    }
    if (!f.isFile()) {
      throw new UsageException("cannot tell which jar to ship (running from " + f + "); set -D " + JAR_KEY + "=JAR");
    }
    return new Path(f.getAbsolutePath());
  }

  static boolean isLocal(Configuration conf, Path p) throws java.io.IOException {
    return "file".equals(p.getFileSystem(conf).getUri().getScheme());
  }

  /**
   * The table's paths (a comma-separated list), each qualified on the cluster FileSystem; a table only on this
   * machine is refused.
   */
  static String onCluster(Configuration conf, String path, String option) throws java.io.IOException {
    java.util.List<String> qualified = new java.util.ArrayList<>();
    for (String part : org.yarngnn.io.table.TablePaths.split(path)) {
      Path p = new Path(part);
      if (isLocal(conf, p) && !isLocal(conf, new Path("/"))) {
        throw new UsageException("--" + option + " " + path + " is on the local disk; containers read tables from the"
            + " cluster FileSystem (" + FileSystem.getDefaultUri(conf) + "): copy it there or use --local");
      }
      qualified.add(p.getFileSystem(conf).makeQualified(p).toString());
    }
    return qualified.isEmpty() ? path : String.join(",", qualified);
  }

  /**
   * One line of figures per worker (phase seconds, bytes exchanged, peak heap) after a {@code command} run in this
   * JVM: what benchmarks parse.
   */
  static void printStats(PrintStream out, String command, List<Map<String, Double>> workers) {
    for (int w = 0; w < workers.size(); w++) {
      StringBuilder sb = new StringBuilder("yarn-gnn " + command + ": worker " + w + " stats:");
      workers.get(w).forEach((k, v) -> sb.append(' ').append(k).append('=')
          .append(v == Math.rint(v) ? Long.toString(v.longValue()) : String.format("%.3f", v)));
      out.println(sb);
    }
  }
}
