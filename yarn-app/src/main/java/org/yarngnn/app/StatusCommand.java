package org.yarngnn.app;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.yarn.JobHistory;
import org.yarngnn.compute.json.Json;
import org.yarngnn.app.cli.JobOptions;

/**
 * {@code status APP_ID}: the summary of a yarn-gnn application that outlives its ApplicationMaster (the job
 * page's last state, {@link JobHistory}): final status, seconds, one line per worker, for training the epochs'
 * count, the last and best epoch and the tensor-worker pool; {@code --json} prints the summary as it is kept.
 * While the application runs (no summary yet) it prints the ResourceManager's state, progress and tracking URL.
 */
public final class StatusCommand implements Command {
  @Override
  public OptionSpec options() {
    return new OptionSpec("status", "APP_ID [--json]")
        .value("application", "APP_ID", "the application (also the first argument)")
        .flag("json", "print the kept summary as JSON")
        .flag("local", "only read the kept summary; do not ask the ResourceManager");
  }

  @Override
  public String[] asOptions(String[] args) {
    if (args.length > 0 && !args[0].startsWith("-")) {
      String[] a = new String[args.length + 1];
      a[0] = "--application";
      System.arraycopy(args, 0, a, 1, args.length);
      return a;
    }
    return args;
  }

  @Override
  public int run(CommandLine cl, PrintStream out) throws Exception {
    String id = cl.require("application");
    ApplicationId appId;
    try {
      appId = ApplicationId.fromString(id);
    } catch (IllegalArgumentException e) {
      // Quoted with JSON's escapes: control characters in an id must not reach the terminal.
      throw new UsageException(Json.writeCompact(id) + " is not an application id "
          + "(application_<cluster timestamp>_<n>)");
    }
    FileSystem fs = FileSystem.get(cl.conf());
    Path file = JobHistory.forApplication(cl.conf(), fs, appId.toString());
    Optional<Map<?, ?>> summary = JobHistory.read(fs, file);
    if (summary.isPresent()) {
      out.print(cl.flag("json") ? Json.write(summary.get()) + "\n" : describe(summary.get(), file));
      return Main.OK;
    }
    if (!JobOptions.runLocally(cl)) {
      Optional<ApplicationReport> report = report(cl, appId);
      if (report.isPresent()) {
        ApplicationReport r = report.get();
        out.printf(Locale.ROOT, "yarn-gnn status: %s %s %.0f%% (%s); tracking URL %s%n", appId,
            r.getYarnApplicationState(), 100 * r.getProgress(), r.getFinalApplicationStatus(), r.getTrackingUrl());
        out.println("yarn-gnn status: no summary yet at " + file + " (the ApplicationMaster writes it as the "
            + "application ends)");
        return Main.OK;
      }
    }
    throw new UsageException("no summary of " + appId + " at " + file + (JobOptions.runLocally(cl) ? ""
        : " and the ResourceManager does not know it"));
  }

  private static Optional<ApplicationReport> report(CommandLine cl, ApplicationId appId) throws Exception {
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(new YarnConfiguration(cl.conf()));
      yarn.start();
      return Optional.of(yarn.getApplicationReport(appId));
    } catch (ApplicationNotFoundException e) {
      return Optional.empty();
    }
  }

  /** The summary as lines for a terminal. */
  static String describe(Map<?, ?> s, Path file) {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "yarn-gnn status: %s %s after %.1f s: %s%n", s.get("application"),
        s.containsKey("final_status") ? s.get("final_status") : "UNKNOWN", number(s.get("seconds")), s.get("status")));
    Object diag = s.get("diagnostics");
    if (diag != null && !diag.toString().isEmpty()) {
      b.append("  diagnostics: ").append(diag).append('\n');
    }
    List<?> workers = (List<?>) s.get("workers");
    if (!workers.isEmpty()) {
      b.append(String.format(Locale.ROOT, "  %6s %12s %14s %12s %11s %11s %11s%n", "worker", "nodes", "edges",
          "halo", "sent MiB", "recv MiB", "heap MiB"));
      for (Object o : workers) {
        Map<?, ?> w = (Map<?, ?>) o;
        b.append(String.format(Locale.ROOT, "  %6d %12s %14s %12s %11s %11s %11s%n", (long) number(w.get("worker")),
            count(w.get("nodes")), count(w.get("edges")), count(w.get("halo")), mib(w.get("bytes_sent")),
            mib(w.get("bytes_received")), mib(w.get("peak_heap_bytes"))));
      }
    }
    List<?> epochs = s.get("epochs") instanceof List<?> l ? l : List.of();
    if (!epochs.isEmpty()) {
      Map<?, ?> last = (Map<?, ?>) epochs.get(epochs.size() - 1);
      Map<?, ?> best = last;
      for (Object o : epochs) {
        if (number(((Map<?, ?>) o).get("val_accuracy")) > number(best.get("val_accuracy"))) {
          best = (Map<?, ?>) o;
        }
      }
      b.append(String.format(Locale.ROOT, "  %d epochs; last: %s%n  best validation: %s%n", epochs.size(),
          epoch(last), epoch(best)));
    }
    if (s.get("tensor_pool") instanceof Map<?, ?> pool) {
      long max = 0;
      for (Object o : (List<?>) pool.get("sizes")) {
        max = Math.max(max, (long) number(((Map<?, ?>) o).get("size")));
      }
      b.append(String.format(Locale.ROOT, "  tensor workers: %d at the last epoch, at most %d%n",
          (long) number(pool.get("size")), max));
    }
    b.append("  summary: ").append(file).append(" (--json prints it)\n");
    return b.toString();
  }

  private static String epoch(Map<?, ?> e) {
    StringBuilder b = new StringBuilder();
    e.forEach((k, v) -> b.append(b.length() == 0 ? "" : " ").append(k).append(' ')
        .append(v instanceof Double d ? String.format(Locale.ROOT, "%.4f", d) : String.valueOf(v)));
    return b.toString();
  }

  private static String count(Object v) {
    return v instanceof Number n ? String.format(Locale.ROOT, "%,d", n.longValue()) : "-";
  }

  private static String mib(Object v) {
    return v instanceof Number n ? String.format(Locale.ROOT, "%.1f", n.doubleValue() / (1 << 20)) : "-";
  }

  private static double number(Object v) {
    return v instanceof Number n ? n.doubleValue() : 0;
  }
}
