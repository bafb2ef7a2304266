package org.yarngnn.app.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * Parsed {@code --name value} / {@code --name=value} / {@code --flag} options of one command, layered over the
 * Hadoop configuration: a value given on the command line wins, else {@code yarngnn.NAME} from {@code -D} or
 * {@code -conf}, else the caller's default. Hadoop's generic options are stripped before this parser runs, and
 * the configuration's keys checked ({@code options.RuntimeKeys#check}).
 */
public final class CommandLine {
  public static final String KEY_PREFIX = "yarngnn.";

  private final OptionSpec spec;
  private final Map<String, String> values;
  private final Configuration conf;

  private CommandLine(OptionSpec spec, Map<String, String> values, Configuration conf) {
    this.spec = spec;
    this.values = values;
    this.conf = conf;
  }

  public static CommandLine parse(OptionSpec spec, String[] args, Configuration conf) {
    Map<String, String> values = new HashMap<>();
    List<String> positional = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--")) {
        positional.add(a);
        continue;
      }
      String name = a.substring(2);
      String value = null;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      OptionSpec.Option o = spec.options().get(name);
      if (o == null) {
        throw new UsageException("unknown option --" + name + " for " + spec.command() + " (see --help)");
      }
      if (o.takesValue()) {
        if (value == null) {
          if (i + 1 >= args.length) {
            throw new UsageException("option --" + name + " needs a value (" + o.valueName() + ")");
          }
          value = args[++i];
        }
      } else if (value == null) {
        value = "true";
      }
      values.put(name, value);
    }
    if (!positional.isEmpty()) {
      throw new UsageException("unexpected argument '" + positional.get(0) + "' for " + spec.command());
    }
    return new CommandLine(spec, values, conf);
  }

  public Configuration conf() {
    return conf;
  }

  /** True when the command accepts {@code --name}. */
  public boolean declares(String name) {
    return spec.options().containsKey(name);
  }

  public boolean has(String name) {
    return get(name) != null;
  }

  /** The option's value, or null when neither the command line nor the configuration sets it. */
  public String get(String name) {
    if (!spec.options().containsKey(name)) {
      throw new IllegalArgumentException("option --" + name + " is not declared for " + spec.command());
    }
    String v = values.get(name);
    return v != null ? v : conf.getTrimmed(KEY_PREFIX + name);
  }

  public String get(String name, String dflt) {
    String v = get(name);
    return v == null ? dflt : v;
  }

  public String require(String name) {
    String v = get(name);
    if (v == null || v.isEmpty()) {
      throw new UsageException(spec.command() + " needs --" + name);
    }
    return v;
  }

  public boolean flag(String name) {
    String v = get(name);
    if (v == null) {
      return false;
    }
    if (v.equalsIgnoreCase("true")) {
      return true;
    }
    if (v.equalsIgnoreCase("false")) {
      return false;
    }
    throw new UsageException("option --" + name + " is true or false, not '" + v + "'");
  }
}
