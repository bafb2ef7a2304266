package org.yarngnn.app.cli;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The options one command accepts: name (without the leading dashes), whether it takes a value, and a line of
 * help. Every option is also read from the Hadoop configuration key {@code yarngnn.NAME}.
 */
public final class OptionSpec {
  private final String command;
  private final String synopsis;
  private final Map<String, Option> options = new LinkedHashMap<>();

  /** One option. */
  public record Option(String name, boolean takesValue, String valueName, String help) {}

  public OptionSpec(String command, String synopsis) {
    this.command = command;
    this.synopsis = synopsis;
    flag("verbose", "print stack traces and debug output");
    flag("help", "print this help");
  }

  public OptionSpec value(String name, String valueName, String help) {
    options.put(name, new Option(name, true, valueName, help));
    return this;
  }

  public OptionSpec flag(String name, String help) {
    options.put(name, new Option(name, false, null, help));
    return this;
  }

  public String command() {
    return command;
  }

  /** The command's arguments in brief, as the usage line gives them. */
  public String synopsis() {
    return synopsis;
  }

  public Map<String, Option> options() {
    return Collections.unmodifiableMap(options);
  }

  public String usage() {
    StringBuilder sb = new StringBuilder("usage: yarn-gnn ").append(command).append(' ').append(synopsis)
        .append(" [-D yarngnn.OPTION=VALUE ...]\n");
    for (Option o : options.values()) {
      String left = "  --" + o.name() + (o.takesValue() ? " " + o.valueName() : "");
      sb.append(String.format("%-34s %s%n", left, o.help()));
    }
    return sb.toString();
  }
}
