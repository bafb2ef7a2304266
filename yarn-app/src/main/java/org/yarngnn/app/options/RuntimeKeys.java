package org.yarngnn.app.options;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.cli.UsageException;

/**
 * The {@code yarngnn.*} keys that are settings of the runtime rather than options of a command (docs/operating.md
 * "Configuration keys"), declared so that a bad value is refused naming the key, and the check of the keys a
 * command finds in its configuration. A workflow's steps share site files and {@code -conf} files, so a key there
 * that belongs to another command, or to the runtime, is no error; a {@code -D} on the command's own line that it
 * does not know is one (a typo must not pass silently).
 */
public final class RuntimeKeys {
  /** Hadoop's source of a key set with {@code -D} (GenericOptionsParser). */
  static final String FROM_COMMAND_LINE = "from command line";

  public static final Option<Boolean> TRANSPORT_ENCRYPT = Option.flag("transport.encrypt",
      "encrypt and authenticate every frame after the handshake (AES-256-GCM)").internal();
  public static final Option<Boolean> JAR_CACHE_ENABLED = Option.flag("jar-cache.enabled", true,
      "false: copy the jar into every application's staging directory").internal();
  public static final Option<String> STAGING_DIR = Option.text("staging-dir", null, null,
      "root of the per-application staging directories").internal();
  public static final Option<String> HISTORY_DIR = Option.text("history-dir", null, null,
      "where the ApplicationMaster leaves the summary that status prints").internal();
  static final List<Option<?>> DECLARED = List.of(TRANSPORT_ENCRYPT, JAR_CACHE_ENABLED, STAGING_DIR, HISTORY_DIR);

  private RuntimeKeys() {}

  /**
   * Checks the {@code yarngnn.*} keys of {@code conf} for {@code command}, whose options are {@code own};
   * {@code anyCommand} holds every command's. Refuses (exit 2) a {@code -D} key neither the command nor the
   * runtime has and a runtime key with a bad value; warns (one line on {@code err}) of a key from a file that no
   * command has. Internal and runtime keys have a dot after the prefix ({@code yarngnn.job.*},
   * {@code yarngnn.am.*}); test hooks are refused before, where hooks are off.
   */
  public static void check(Configuration conf, String command, Set<String> own, Set<String> anyCommand,
      PrintStream err) {
    for (Map.Entry<String, String> e : conf.getPropsWithPrefix(Option.KEY_PREFIX).entrySet()) {
      String name = e.getKey();
      if (own.contains(name) || name.contains(".") || DECLARED.stream().anyMatch(o -> o.name().equals(name))) {
        continue;
      }
      String[] sources = conf.getPropertySources(Option.KEY_PREFIX + name);
      if (sources == null || List.of(sources).contains(FROM_COMMAND_LINE)) {
        throw new UsageException("unknown option -D " + Option.KEY_PREFIX + name + " for " + command);
      }
      if (!anyCommand.contains(name)) {
        err.println("yarn-gnn " + command + ": warning: ignoring " + Option.KEY_PREFIX + name + " from "
            + sources[sources.length - 1] + ": no command has that option");
      }
    }
    for (Option<?> o : DECLARED) {
      o.get(conf);
    }
  }
}
