package org.yarngnn.app.options;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;

/**
 * The values of a set of declared {@link Option}s, immutable: what a command's options object holds instead of a
 * field, a constructor line, a builder field and a setter per option. Read from a command line layered over the
 * configuration ({@link #read}), written to a job's configuration ({@link #write}), which a container reads back
 * with the same {@link #read}; every value is checked once, in {@link Builder#build()}. An option not given has
 * its default.
 */
public final class OptionValues {
  private final List<Option<?>> declared;
  private final Map<Option<?>, Object> values;

  private OptionValues(List<Option<?>> declared, Map<Option<?>, Object> values) {
    this.declared = declared;
    this.values = values;
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
    List<Option<?>> all = new ArrayList<>();
    for (List<Option<?>> s : sets) {
      all.addAll(s);
    }
    return List.copyOf(all);
  }

  /**
   * The declared options {@code cl} gives: the command line, else {@code yarngnn.NAME} of its configuration; an
   * internal option from the configuration only. Unchecked until {@link Builder#build()}.
   */
  public static Builder read(List<Option<?>> declared, CommandLine cl) {
    Builder b = new Builder(declared);
    for (Option<?> o : declared) {
      String text = o.isInternal() ? cl.conf().getTrimmed(o.key()) : cl.get(o.name());
      if (text != null) {
        b.values.put(o, o.parse(text));
      }
    }
    return b;
  }

  public static Builder builder(List<Option<?>> declared) {
    return new Builder(declared);
  }

  /** The value of {@code option}: as given, else its default. */
  @SuppressWarnings("unchecked")
  public <T> T get(Option<T> option) {
    return values.containsKey(option) ? (T) values.get(option) : option.defaultValue();
  }

  /** Whether {@code option} was given (rather than left to its default). */
  public boolean given(Option<?> option) {
    return values.containsKey(option) && values.get(option) != null;
  }

  /** Every value that is not null under its key: the default included, so a container needs no defaults. */
  public void write(Configuration c) {
    for (Option<?> o : declared) {
      write(c, o);
    }
  }

  private <T> void write(Configuration c, Option<T> o) {
    T v = get(o);
    if (v != null) {
      c.set(o.key(), o.format(v));
    }
  }

  public Builder toBuilder() {
    Builder b = new Builder(declared);
    b.values.putAll(values);
    return b;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof OptionValues other) || !declared.equals(other.declared)) {
      return false;
    }
    for (Option<?> d : declared) {
      if (!Objects.equals(get(d), other.get(d))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = 1;
    for (Option<?> d : declared) {
      h = 31 * h + Objects.hashCode(get(d));
    }
    return h;
  }

  /** Values to set, checked together by {@link #build()}. */
  public static final class Builder {
    private final List<Option<?>> declared;
    private final Map<Option<?>, Object> values = new HashMap<>();

    private Builder(List<Option<?>> declared) {
      this.declared = declared;
    }

    /** Sets {@code option}; null: back to its default. */
    public <T> Builder set(Option<T> option, T value) {
      if (!declared.contains(option)) {
        throw new IllegalArgumentException(option + " is not declared here");
      }
      if (value == null) {
        values.remove(option);
      } else {
        values.put(option, value);
      }
      return this;
    }

    @SuppressWarnings("unchecked")
    public <T> T get(Option<T> option) {
      return values.containsKey(option) ? (T) values.get(option) : option.defaultValue();
    }

    /** Checks every value given, in declaration order; the {@link org.yarngnn.app.cli.UsageException} names it. */
    public OptionValues build() {
      for (Option<?> o : declared) {
        check(o);
      }
      return new OptionValues(declared, Map.copyOf(values));
    }

    private <T> void check(Option<T> o) {
      o.check(get(o));
    }
  }
}
