package org.yarngnn.app;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.GenericOptionsParser;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.options.RuntimeKeys;
import org.yarngnn.compute.model.ModelFormatException;
import org.yarngnn.io.table.InputException;
import org.yarngnn.app.cli.KerberosLogin;

/**
 * The entry point of {@code scripts/yarn-gnn} and {@code yarn jar yarn-gnn.jar}. Exit status: 0 success, 2 bad
 * usage or bad input (one line naming the option, file or row), 1 failure while running. Stack traces only with
 * {@code --verbose}.
 */
public final class Main {
  public static final int OK = 0;
  public static final int FAILED = 1;
  public static final int BAD_INPUT = 2;

  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  static Map<String, Command> commands() {
    Map<String, Command> m = new LinkedHashMap<>();
    m.put("infer", new InferCommand());
    m.put("train", new TrainCommand());
    m.put("partition", new PartitionCommand());
    m.put("import", new ImportCommand());
    m.put("generate", new GenerateCommand());
    m.put("topk", new TopkCommand());
    m.put("status", new StatusCommand());
    return m;
  }

  /** Runs one command line in this JVM and returns its exit status (tests call this directly). */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    boolean verbose = Arrays.asList(args).contains("--verbose");
    if (verbose) {
      // Read when log4j configures itself (the first logger): warnings then reach stderr as well as the log file.
      System.setProperty("yarngnn.log.console", "ALL");
    }
    Map<String, Command> commands = commands();
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("help")) {
      err.println(topUsage(commands));
      return args.length == 0 ? BAD_INPUT : OK;
    }
    Command command = commands.get(args[0]);
    if (command == null) {
      err.println("yarn-gnn: unknown command '" + args[0] + "'\n" + topUsage(commands));
      return BAD_INPUT;
    }
    try {
      Configuration conf = new Configuration();
      String[] rest;
      String[] generic = genericFirst(args);
      checkConfFiles(generic);
      try {
        GenericOptionsParser parser = new GenericOptionsParser(conf, generic);
        rest = parser.getRemainingArgs();
      } catch (Exception e) {
        throw new UsageException("bad generic option: " + e.getMessage());
      }
      if (Arrays.asList(rest).contains("--help")) {
        out.print(command.options().usage());
        return OK;
      }
      java.util.List<String> hooks = org.yarngnn.app.runtime.TestHooks.refusedKeys(conf,
          org.yarngnn.app.runtime.FaultHooks.OLD_JOB_KEY);
      if (!hooks.isEmpty()) {
        throw new UsageException("-D " + hooks.get(0) + " is a test hook, not an option: hooks act only in JVMs "
            + "the test harness starts with them on");
      }
      try {
        org.yarngnn.app.runtime.FaultHooks.of(conf); // a malformed hook fails here, not in a container
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
      java.util.Set<String> anyCommand = new java.util.HashSet<>();
      commands.values().forEach(c -> anyCommand.addAll(c.options().options().keySet()));
      RuntimeKeys.check(conf, args[0], command.options().options().keySet(), anyCommand, err);
      CommandLine cl = CommandLine.parse(command.options(), command.asOptions(rest), conf);
      // Before anything touches the cluster: every FileSystem and YARN client created later is this user's.
      KerberosLogin.loginIfAsked(cl, err);
      return command.run(cl, out);
    } catch (UsageException | InputException | ModelFormatException e) {
      err.println("yarn-gnn " + args[0] + ": " + e.getMessage());
      if (verbose) {
        e.printStackTrace(err);
      }
      return BAD_INPUT;
    } catch (Exception | OutOfMemoryError | StackOverflowError e) {
      err.println("yarn-gnn " + args[0] + " failed: " + describe(e));
      if (verbose) {
        e.printStackTrace(err);
      }
      return FAILED;
    }
  }

  private static final java.util.Set<String> GENERIC_WITH_VALUE =
      java.util.Set.of("-D", "-conf", "-fs", "-jt", "-files", "-libjars", "-archives");

  /**
   * The command's arguments with Hadoop's generic options moved to the front: GenericOptionsParser stops at the
   * first argument it does not know, but users write {@code -D k=v} anywhere on the line.
   */
  static String[] genericFirst(String[] args) {
    java.util.List<String> generic = new java.util.ArrayList<>();
    java.util.List<String> rest = new java.util.ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      String a = args[i];
      if (GENERIC_WITH_VALUE.contains(a) && i + 1 < args.length) {
        generic.add(a);
        generic.add(args[++i]);
      } else if (a.startsWith("-D") && a.length() > 2) {
        generic.add(a);
      } else {
        rest.add(a);
      }
    }
    generic.addAll(rest);
    return generic.toArray(new String[0]);
  }

  /**
   * Refuses a {@code -conf} file that is missing or not a Hadoop configuration file, naming it in one line:
   * Hadoop would skip a missing one silently and fail on a broken one later, in its XML parser's words.
   */
  static void checkConfFiles(String[] generic) {
    for (int i = 0; i + 1 < generic.length; i++) {
      if (!generic[i].equals("-conf")) {
        continue;
      }
      String file = generic[++i];
      org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file);
      if (!new java.io.File(path.toUri().getPath()).isFile()) {
        throw new UsageException("-conf " + file + ": no such file");
      }
      Configuration probe = new Configuration(false);
      probe.addResource(path);
      try {
        probe.size();
      } catch (RuntimeException e) {
        throw new UsageException("-conf " + file + ": not a Hadoop configuration file (XML: <configuration> of "
            + "<property> elements with <name> and <value>)");
      }
    }
  }

  /** The failure's own message chain on one line: what a scheduler's log should show. */
  static String describe(Throwable e) {
    StringBuilder sb = new StringBuilder();
    for (Throwable t = e; t != null && sb.length() < 2000; t = t.getCause()) {
      if (sb.length() > 0) {
        sb.append(": ");
      }
      sb.append(t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage());
      if (t.getCause() == t) {
        break;
      }
    }
    return sb.toString();
  }

  private static String topUsage(Map<String, Command> commands) {
    return "usage: yarn-gnn COMMAND [options] [-D yarngnn.OPTION=VALUE ...]\ncommands: "
        + String.join(", ", commands.keySet()) + "\n'yarn-gnn COMMAND --help' lists a command's options.";
  }
}
