package org.yarngnn.app.options;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.cli.OptionSpec;

/**
 * The values of a set of declared {@link Option}s, immutable and checked: what a command's options object holds
 * instead of a field, a constructor line, a builder field and a setter per option (see {@link CommandOptions}).
 * An option not given has its default.
 */
public final class OptionValues {
  private final List<Option<?>> declared;
  private final Map<Option<?>, Object> values;

  OptionValues(List<Option<?>> declared, Map<Option<?>, Object> values) {
    this.declared = declared;
    this.values = Map.copyOf(values);
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

  List<Option<?>> declared() {
    return declared;
  }

  Map<Option<?>, Object> given() {
    return values;
  }

  /** The value of {@code option}: as given, else its default. */
  @SuppressWarnings("unchecked")
  public <T> T get(Option<T> option) {
    return values.containsKey(option) ? (T) values.get(option) : option.defaultValue();
  }

  /** Every value that is not null under its key: the default included, so a container needs no defaults. */
  public void write(Configuration c) {
    for (Option<?> o : declared) {
      write(c, o);
    }
  }

  private <T> void write(Configuration c, Option<T> o) {
    o.write(c, get(o));
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof OptionValues other) || !declared.equals(other.declared)) {
      return false;
    }
    for (Option<?> d : declared) {
      if (!Objects.deepEquals(get(d), other.get(d))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = 1;
    for (Option<?> d : declared) {
      h = 31 * h + Arrays.deepHashCode(new Object[] {get(d)});
    }
    return h;
  }
}
