package org.yarngnn.app.options;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.yarngnn.app.cli.UsageException;

/**
 * One option, declared once, as Giraph's typed {@code *ConfOption}s are: its name ({@code --NAME} on the command
 * line, {@code yarngnn.NAME} in a Hadoop configuration), its value's placeholder in the help, its type (how text
 * becomes a value and back), its default, its line of help and its check. The command line, the help text, the
 * job's configuration shipped to containers and docs/options.md all come from these declarations. An internal
 * option ({@code yarngnn.job.*}) travels in the configuration only: no flag, no help.
 */
public final class Option<T> {
  /** The prefix of every option's configuration key ({@code -D yarngnn.NAME=VALUE}). */
  public static final String KEY_PREFIX = org.yarngnn.app.cli.CommandLine.KEY_PREFIX;

  private final String name;
  private final String valueName;
  private final String help;
  private final T defaultValue;
  private final Function<String, T> parser;
  private final Function<T, String> writer;
  private final Function<T, String> check;
  private final boolean internal;

  private Option(String name, String valueName, String help, T defaultValue, Function<String, T> parser,
      Function<T, String> writer, Function<T, String> check, boolean internal) {
    this.name = name;
    this.valueName = valueName;
    this.help = help;
    this.defaultValue = defaultValue;
    this.parser = parser;
    this.writer = writer;
    this.check = check;
    this.internal = internal;
  }

  // ---- the types ---------------------------------------------------------------------------------------------

  /** Text such as a path; empty reads as not given. */
  public static Option<String> text(String name, String valueName, String dflt, String help) {
    return new Option<>(name, valueName, help, dflt, v -> v.isEmpty() ? null : v, v -> v, v -> null, false);
  }

  /** A switch without a value: {@code --NAME}, or {@code yarngnn.NAME} true or false; off by default. */
  public static Option<Boolean> flag(String name, String help) {
    return flag(name, false, help);
  }

  /** A switch; a value other than true or false is refused, not read as false as Hadoop's getBoolean would. */
  public static Option<Boolean> flag(String name, boolean dflt, String help) {
    return new Option<>(name, null, help, dflt, v -> {
      if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
        return Boolean.valueOf(v.toLowerCase(Locale.ROOT));
      }
      throw new UsageException("option --" + name + " is true or false, not '" + v + "'");
    }, b -> Boolean.toString(b), v -> null, false);
  }

  /** A whole number in {@code min..max}; null default: not given. */
  public static Option<Long> whole(String name, String valueName, Long dflt, long min, long max, String help) {
    return new Option<>(name, valueName, help, dflt, v -> {
      try {
        return Long.parseLong(v.replace("_", ""));
      } catch (NumberFormatException e) {
        throw new UsageException("option --" + name + " needs a whole number, not '" + v + "'");
      }
    }, v -> Long.toString(v), v -> v >= min && v <= max ? null : "option --" + name + " must be "
        + (max == Integer.MAX_VALUE || max == Long.MAX_VALUE ? "at least " + min : "between " + min + " and " + max)
        + ", not " + v, false);
  }

  /** A number; {@code check} gives the message of a value out of range, or null. */
  public static Option<Double> number(String name, String valueName, double dflt, Function<Double, String> check,
      String help) {
    return new Option<>(name, valueName, help, dflt, v -> {
      try {
        return Double.parseDouble(v);
      } catch (NumberFormatException e) {
        throw new UsageException("option --" + name + " needs a number, not '" + v + "'");
      }
    }, v -> Double.toString(v), check, false);
  }

  /**
   * One of a few words, each meaning a value ({@code words} in the order the message lists them); null default:
   * not given. Refused as {@code --NAME must be a, b or c, not 'x'}.
   */
  @SafeVarargs
  public static <T> Option<T> choice(String name, String valueName, T dflt, String help,
      Map.Entry<String, T>... words) {
    Map<String, T> byWord = new LinkedHashMap<>();
    for (Map.Entry<String, T> w : words) {
      byWord.put(w.getKey(), w.getValue());
    }
    List<String> listed = List.copyOf(byWord.keySet());
    String expected = String.join(", ", listed.subList(0, listed.size() - 1)) + " or " + listed.get(listed.size() - 1);
    return new Option<>(name, valueName, help, dflt, v -> {
      if (!byWord.containsKey(v)) {
        throw new UsageException("--" + name + " must be " + expected + ", not '" + v + "'");
      }
      return byWord.get(v);
    }, v -> byWord.entrySet().stream().filter(e -> e.getValue().equals(v)).findFirst().orElseThrow().getKey(),
        v -> null, false);
  }

  /** A value of its own type: {@code parser} refuses bad text with a {@link UsageException}. */
  public static <T> Option<T> of(String name, String valueName, T dflt, Function<String, T> parser,
      Function<T, String> writer, String help) {
    return new Option<>(name, valueName, help, dflt, parser, writer, v -> null, false);
  }

  /** The same option with a further check: {@code check} gives the message of a value it refuses, or null. */
  public Option<T> checked(Function<T, String> more) {
    return new Option<>(name, valueName, help, defaultValue, parser, writer, v -> {
      String first = check.apply(v);
      return first != null ? first : more.apply(v);
    }, internal);
  }

  /** The same option kept out of the command line and the help: a field the job carries in its configuration. */
  public Option<T> internal() {
    return new Option<>(name, valueName, help, defaultValue, parser, writer, check, true);
  }

  // ---- what the declaration gives ----------------------------------------------------------------------------

  public String name() {
    return name;
  }

  /** {@code yarngnn.NAME}. */
  public String key() {
    return KEY_PREFIX + name;
  }

  /** The placeholder of the value in the help ({@code N}, {@code PATH}); null for a flag. */
  public String valueName() {
    return valueName;
  }

  public boolean takesValue() {
    return valueName != null;
  }

  public boolean isInternal() {
    return internal;
  }

  public T defaultValue() {
    return defaultValue;
  }

  /** The help line, {@code {default}} replaced by the default as the command line writes it. */
  public String help() {
    return defaultValue == null ? help : help.replace("{default}", format(defaultValue));
  }

  /** The value {@code text} means; a {@link UsageException} naming the option when it means none. */
  public T parse(String text) {
    try {
      return parser.apply(text);
    } catch (UsageException e) {
      // An internal key is set in a configuration (-D, -conf, a site file or job.xml), never as a flag.
      throw internal ? new UsageException(e.getMessage().replace("option --" + name, "key " + key())) : e;
    }
  }

  /** The value of {@code yarngnn.NAME} in {@code conf}, checked; the default when it is not set. */
  public T get(org.apache.hadoop.conf.Configuration conf) {
    return checkedValue(conf.getTrimmed(key()));
  }

  /**
   * The value {@code cl} gives ({@code --NAME}, else {@code yarngnn.NAME} of its configuration), checked; the
   * default when neither does.
   */
  public T read(org.yarngnn.app.cli.CommandLine cl) {
    return checkedValue(internal ? cl.conf().getTrimmed(key()) : cl.get(name));
  }

  private T checkedValue(String text) {
    T v = text == null ? defaultValue : parse(text);
    check(v);
    return v;
  }

  /** Sets {@code yarngnn.NAME} to {@code value} as the command line writes it; nothing for null. */
  public void write(org.apache.hadoop.conf.Configuration conf, T value) {
    if (value != null) {
      conf.set(key(), format(value));
    }
  }

  /** The value as the command line and the configuration write it. */
  public String format(T value) {
    return writer.apply(value);
  }

  /** Throws the {@link UsageException} naming the option when {@code value} is out of range. */
  public void check(T value) {
    String refused = value == null ? null : check.apply(value);
    if (refused != null) {
      throw new UsageException(refused);
    }
  }

  /** The same option with another default: a command's own default of a shared option. */
  public Option<T> withDefault(T dflt) {
    return new Option<>(name, valueName, help, dflt, parser, writer, check, internal);
  }

  /** The same option with another help line: a command's own wording of a shared option. */
  public Option<T> withHelp(String text) {
    return new Option<>(name, valueName, text, defaultValue, parser, writer, check, internal);
  }

  /** Options are one by name: a command's re-worded declaration is the same option. */
  @Override
  public boolean equals(Object o) {
    return o instanceof Option<?> other && name.equals(other.name);
  }

  @Override
  public int hashCode() {
    return name.hashCode();
  }

  @Override
  public String toString() {
    return "--" + name;
  }
}
