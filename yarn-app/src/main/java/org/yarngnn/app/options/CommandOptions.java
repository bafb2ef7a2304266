package org.yarngnn.app.options;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;

/**
 * What every command's options class shares, so that a class holds only its declarations and its checks across
 * options: the command's name and its declared options' values, read where they are used with
 * {@code options.get(OPTION)} (as Giraph's {@code OPTION.get(conf)}); equality, hashing and printing by value;
 * the job's configuration ({@link #toConfiguration}), every option under {@code yarngnn.NAME}, which a container
 * parses back as the command line is; and a {@link Builder} to derive a variant. Immutable.
 */
public abstract class CommandOptions<O extends CommandOptions<O>> {
  private final String command;
  private final List<Option<?>> declared;
  private final Map<Option<?>, Object> values;
  private final Function<Builder<O>, O> finish;

  /** The values of {@code b}, each checked by its own declaration, in declaration order. */
  protected CommandOptions(Builder<O> b) {
    b.check(b.declared);
    this.command = b.command;
    this.declared = b.declared;
    this.values = Map.copyOf(b.values);
    this.finish = b.finish;
  }

  /** The same values, seen as another command's options (a part of them, as the shared code takes it). */
  protected CommandOptions(CommandOptions<?> of, Function<Builder<O>, O> finish) {
    this.command = of.command;
    this.declared = of.declared;
    this.values = of.values;
    this.finish = finish;
  }

  /** Adds the declarations that have a flag to a command's {@code spec}, in order. */
  public static OptionSpec declare(OptionSpec spec, List<Option<?>> declared) {
    for (Option<?> o : declared) {
      if (o.isInternal()) {
        continue;
      }
      if (o.takesValue()) {
        spec.value(o.name(), o.valueName(), o.help());
      } else {
        spec.flag(o.name(), o.help());
      }
    }
    return spec;
  }

  /** Concatenated declaration sets. */
  @SafeVarargs
  public static List<Option<?>> concat(List<Option<?>>... sets) {
    return Stream.of(sets).flatMap(List::stream).toList();
  }

  /** The command whose options these are ({@code infer}, {@code train}, {@code topk}). */
  public String command() {
    return command;
  }

  /** The value of {@code option}: as given, else its (declared) default. */
  @SuppressWarnings("unchecked")
  public <T> T get(Option<T> option) {
    return values.containsKey(option) ? (T) values.get(option) : option.defaultValue();
  }

  /** A whole-number option whose check keeps it an int; 0 when it has no value (not given, no default). */
  public int getInt(Option<Long> option) {
    Long v = get(option);
    return v == null ? 0 : v.intValue();
  }

  /** A builder holding these values, to derive a variant (e.g. with qualified paths). */
  public Builder<O> toBuilder() {
    Builder<O> b = new Builder<>(command, declared, finish);
    b.values.putAll(values);
    return b;
  }

  /** Every value that is not null under {@code yarngnn.NAME} (defaults too: a container needs none of its own). */
  public Configuration toConfiguration() {
    Configuration c = new Configuration(false);
    declared.forEach(o -> write(c, o));
    return c;
  }

  private <T> void write(Configuration c, Option<T> o) {
    o.write(c, get(o));
  }

  @Override
  public boolean equals(Object o) {
    if (o == null || o.getClass() != getClass() || !command.equals(((CommandOptions<?>) o).command)
        || !declared.equals(((CommandOptions<?>) o).declared)) {
      return false;
    }
    return declared.stream().allMatch(d -> Objects.deepEquals(get(d), ((CommandOptions<?>) o).get(d)));
  }

  @Override
  public int hashCode() {
    return Arrays.deepHashCode(declared.stream().map(this::get).toArray());
  }

  @Override
  public String toString() {
    Map<String, String> keys = new TreeMap<>();
    toConfiguration().forEach(e -> keys.put(e.getKey(), e.getValue()));
    return getClass().getSimpleName() + keys;
  }

  /** Values to set; {@link #build()} checks them (each option's check, then the command's across options). */
  public static final class Builder<O> {
    private final String command;
    private final List<Option<?>> declared;
    private final Map<Option<?>, Object> values = new HashMap<>();
    private final Function<Builder<O>, O> finish;

    /** A builder of {@code command}'s {@code declared} options; {@code finish} checks them and makes the object. */
    public Builder(String command, List<Option<?>> declared, Function<Builder<O>, O> finish) {
      this.command = command;
      this.declared = declared;
      this.finish = finish;
      // The declared defaults: a command may give a shared option its own (topk's --name).
      declared.forEach(o -> set(o, null));
    }

    /**
     * Sets the declared options that {@code cl} gives: the command line, else {@code yarngnn.NAME} of its
     * configuration; an internal option from the configuration only. Each is checked by {@link #build()}.
     */
    public Builder<O> read(CommandLine cl) {
      return read(cl, declared);
    }

    /** Sets those of {@code options} that {@code cl} gives, in their order. */
    public Builder<O> read(CommandLine cl, List<Option<?>> options) {
      for (Option<?> o : options) {
        String text = o.isInternal() ? cl.conf().getTrimmed(o.key()) : cl.get(o.name());
        if (text != null) {
          readOne(o, text);
        }
      }
      return this;
    }

    private <T> void readOne(Option<T> o, String text) {
      set(o, o.parse(text)); // text that means nothing (an empty path, auto): the default
    }

    /** Sets {@code option}; null: back to its (declared) default. */
    public <T> Builder<O> set(Option<T> option, T value) {
      if (!declared.contains(option)) {
        throw new IllegalArgumentException(option + " is not declared here");
      }
      if (value == null) {
        Object dflt = declared.get(declared.indexOf(option)).defaultValue();
        if (dflt == null) {
          values.remove(option);
        } else {
          values.put(option, dflt);
        }
      } else {
        values.put(option, value);
      }
      return this;
    }

    /** Sets a whole-number option from an int or a long. */
    public Builder<O> set(Option<Long> option, long value) {
      return set(option, Long.valueOf(value));
    }

    @SuppressWarnings("unchecked")
    public <T> T get(Option<T> option) {
      return values.containsKey(option) ? (T) values.get(option) : option.defaultValue();
    }

    public String command() {
      return command;
    }

    /** Refuses a job without {@code option}: "infer needs --nodes". */
    public void require(Option<?> option) {
      Object v = get(option);
      if (v == null || v.toString().isEmpty()) {
        throw new UsageException(command + " needs --" + option.name());
      }
    }

    /** Checks each of {@code options} by its declaration; the {@link UsageException} names the first refused. */
    public void check(List<Option<?>> options) {
      for (Option<?> o : options) {
        check(o);
      }
    }

    private <T> void check(Option<T> o) {
      o.check(get(o));
    }

    /** Checks every value and makes the options; the message of the {@link UsageException} names the option. */
    public O build() {
      return finish.apply(this);
    }
  }
}
