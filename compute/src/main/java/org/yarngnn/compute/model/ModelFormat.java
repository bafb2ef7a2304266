package org.yarngnn.compute.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yarngnn.compute.json.Json;
import org.yarngnn.compute.kernel.Activation;

/**
 * model.json text to {@link ModelSpec} and back (format 1). Parsing validates every field and refuses unknown
 * ones, so a typo is reported rather than silently replaced by a default; each error is a one-line
 * {@link ModelFormatException} naming the file, the layer and the field.
 *
 * <p>Defaults for absent fields: activation "none", bias true, aggregator "mean", fanout -1, heads 1, concat
 * true, negative_slope 0.2, input/output normalize "none", predict false. {@code format}, {@code layers} and
 * each layer's {@code type}, {@code in}, {@code out} are required.
 */
public final class ModelFormat {
  public static final int FORMAT = 1;

  public static final Set<String> INPUT_NORMALIZE = Set.of("none", "row");
  public static final Set<String> OUTPUT_NORMALIZE = Set.of("none", "l2");

  private static final Set<String> TOP_FIELDS = Set.of("format", "input", "layers", "output");
  private static final Set<String> COMMON_FIELDS = Set.of("type", "in", "out", "activation", "bias", "dropout");
  private static final Set<String> SAGE_FIELDS = Set.of("aggregator", "fanout");
  private static final Set<String> GAT_FIELDS = Set.of("heads", "concat", "negative_slope");

  private ModelFormat() {}

  /**
   * Parses and validates model.json (or a model spec file: the same format) into a spec; {@code where} names
   * the file in messages, e.g. "hdfs://nn/models/m1/model.json".
   */
  public static ModelSpec parse(String json, String where) {
    Object root;
    try {
      root = Json.parse(json);
    } catch (Json.ParseException e) {
      throw new ModelFormatException(where + ":" + e.getMessage(), e);
    }
    if (!(root instanceof Map<?, ?> top)) {
      throw new ModelFormatException(where + ": expected a JSON object at the top level");
    }
    Fields f = new Fields(top, where, "");
    f.onlyKnown(TOP_FIELDS);
    Object format = top.get("format");
    if (format == null) {
      throw new ModelFormatException(where + ": field 'format' is missing (expected " + FORMAT + ")");
    }
    if (!(format instanceof Long v) || v != FORMAT) {
      throw new ModelFormatException(where + ": format " + format + " is not supported (expected " + FORMAT
          + ")");
    }

    Fields input = f.object("input");
    input.onlyKnown(Set.of("normalize"));
    String inputNormalize = input.choice("normalize", "none", INPUT_NORMALIZE);

    Fields output = f.object("output");
    output.onlyKnown(Set.of("normalize", "predict"));
    String outputNormalize = output.choice("normalize", "none", OUTPUT_NORMALIZE);
    boolean predict = output.bool("predict", false);

    Object layersValue = top.get("layers");
    if (!(layersValue instanceof List<?> layerList) || layerList.isEmpty()) {
      throw new ModelFormatException(where + ": field 'layers' must be a non-empty list of layers");
    }
    List<LayerSpec> layers = new ArrayList<>();
    for (int k = 0; k < layerList.size(); k++) {
      LayerSpec layer = layer(layerList.get(k), k, where);
      // Before anything is allocated: a width whose tensor passes an array's limit would overflow an int.
      for (Map.Entry<String, int[]> t : WeightLayout.shapes(k, layer).entrySet()) {
        long values = Tensor.values(t.getValue());
        if (values > Tensor.MAX_VALUES) {
          throw new ModelFormatException(String.format(java.util.Locale.ROOT, "%s: layer %d (%s): %s %s has %,d "
              + "values, more than a tensor holds (%,d)", where, k, layer.type().jsonName(), t.getKey(),
              java.util.Arrays.toString(t.getValue()), values, Tensor.MAX_VALUES));
        }
      }
      if (k > 0) {
        LayerSpec prev = layers.get(k - 1);
        if (layer.in() != prev.outputWidth()) {
          throw new ModelFormatException(where + ": layer " + k + " (" + layer.type().jsonName() + "): in "
              + layer.in() + " does not match the output width " + prev.outputWidth() + " of layer " + (k - 1)
              + widthNote(prev));
        }
      }
      layers.add(layer);
    }
    return new ModelSpec(inputNormalize, layers, outputNormalize, predict);
  }

  private static String widthNote(LayerSpec prev) {
    if (prev.type() != LayerType.GAT) {
      return "";
    }
    return prev.concat() ? " (gat concat: heads*out = " + prev.heads() + "*" + prev.out() + ")"
        : " (gat without concat: out)";
  }

  private static LayerSpec layer(Object value, int k, String where) {
    if (!(value instanceof Map<?, ?> m)) {
      throw new ModelFormatException(where + ": layer " + k + " must be a JSON object");
    }
    Object typeName = m.get("type");
    if (!(typeName instanceof String)) {
      throw new ModelFormatException(where + ": layer " + k + ": field 'type' is missing (gcn, sage or gat)");
    }
    LayerType type = LayerType.byName((String) typeName);
    if (type == null) {
      throw new ModelFormatException(where + ": layer " + k + ": unknown layer type '" + typeName
          + "' (gcn, sage or gat)");
    }
    Fields f = new Fields(m, where, "layer " + k + " (" + type.jsonName() + "): ");
    Set<String> known = new java.util.HashSet<>(COMMON_FIELDS);
    if (type == LayerType.SAGE) {
      known.addAll(SAGE_FIELDS);
    }
    if (type == LayerType.GAT) {
      known.addAll(GAT_FIELDS);
    }
    f.onlyKnown(known);

    int in = f.positiveInt("in");
    int out = f.positiveInt("out");
    String actName = f.string("activation", "none");
    Activation act = Activation.byName(actName);
    if (act == null || !act.jsonName().equals(actName)) {
      throw f.error("unknown activation '" + actName + "' (none, relu, elu, leaky_relu, tanh, sigmoid)");
    }
    boolean bias = f.bool("bias", true);
    double dropout = f.number("dropout", LayerSpec.NO_DROPOUT);
    if (f.get("dropout") != null && !(dropout >= 0 && dropout < 1)) {
      throw f.error("dropout " + dropout + " must be at least 0 and below 1");
    }
    return base(type, in, out, act, bias, f).withDropout(dropout);
  }

  private static LayerSpec base(LayerType type, int in, int out, Activation act, boolean bias, Fields f) {
    switch (type) {
      case SAGE: {
        String aggregator = f.string("aggregator", "mean");
        if (!aggregator.equals("mean")) {
          throw f.error("unknown aggregator '" + aggregator + "' (only 'mean')");
        }
        int fanout = f.integer("fanout", -1);
        if (fanout == 0 || fanout < -1) {
          throw f.error("fanout " + fanout + " is invalid (a positive count, or -1 for all neighbours)");
        }
        return LayerSpec.sage(in, out, act, bias, fanout);
      }
      case GAT: {
        int heads = f.integer("heads", 1);
        if (heads <= 0) {
          throw f.error("heads " + heads + " must be positive");
        }
        if ((long) heads * out > Integer.MAX_VALUE) {
          throw f.error("heads*out " + (long) heads * out + " is too large");
        }
        boolean concat = f.bool("concat", true);
        double slope = f.number("negative_slope", 0.2);
        return LayerSpec.gat(in, out, heads, concat, (float) slope, act, bias);
      }
      default:
        return LayerSpec.gcn(in, out, act, bias);
    }
  }

  /** model.json text for {@code spec}: every field written out, type-specific ones only for that type. */
  public static String write(ModelSpec spec) {
    Map<String, Object> top = new LinkedHashMap<>();
    top.put("format", (long) FORMAT);
    top.put("input", Map.of("normalize", spec.inputNormalize()));
    List<Object> layers = new ArrayList<>();
    for (LayerSpec l : spec.layers()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("type", l.type().jsonName());
      m.put("in", (long) l.in());
      m.put("out", (long) l.out());
      if (l.type() == LayerType.GAT) {
        m.put("heads", (long) l.heads());
        m.put("concat", l.concat());
        m.put("negative_slope", l.negativeSlope());
      }
      m.put("activation", l.activation().jsonName());
      m.put("bias", l.bias());
      if (l.type() == LayerType.SAGE) {
        m.put("aggregator", "mean");
        m.put("fanout", (long) l.fanout());
      }
      if (l.hasDropout()) {
        m.put("dropout", l.dropout());
      }
      layers.add(m);
    }
    top.put("layers", layers);
    Map<String, Object> output = new LinkedHashMap<>();
    output.put("normalize", spec.outputNormalize());
    output.put("predict", spec.predict());
    top.put("output", output);
    return Json.write(top);
  }

  /** Typed access to one JSON object's fields with messages naming file, place and field. */
  private static final class Fields {
    private final Map<?, ?> map;
    private final String where;
    private final String place;

    Fields(Map<?, ?> map, String where, String place) {
      this.map = map;
      this.where = where;
      this.place = place;
    }

    ModelFormatException error(String message) {
      return new ModelFormatException(where + ": " + place + message);
    }

    void onlyKnown(Set<String> known) {
      for (Object key : map.keySet()) {
        if (!known.contains(key)) {
          throw error("unknown field '" + key + "' (known: " + String.join(", ", new java.util.TreeSet<>(known))
              + ")");
        }
      }
    }

    /** A nested object such as "input"; absent means empty. */
    Fields object(String name) {
      Object v = get(name);
      if (v == null) {
        return new Fields(Map.of(), where, name + ": ");
      }
      if (!(v instanceof Map<?, ?> m)) {
        throw error("field '" + name + "' must be a JSON object");
      }
      return new Fields(m, where, place + name + ": ");
    }

    /** The field's value, null when absent; an explicit JSON null is an error, not a default. */
    Object get(String name) {
      Object v = map.get(name);
      if (v == null && map.containsKey(name)) {
        throw error("field '" + name + "' is null; leave it out for the default");
      }
      return v;
    }

    String string(String name, String dflt) {
      Object v = get(name);
      if (v == null) {
        return dflt;
      }
      if (!(v instanceof String s)) {
        throw error("field '" + name + "' must be a string, got " + v);
      }
      return s;
    }

    String choice(String name, String dflt, Set<String> allowed) {
      String s = string(name, dflt);
      if (!allowed.contains(s)) {
        throw error("unknown " + name + " value '" + s + "' (" + String.join(", ",
            new java.util.TreeSet<>(allowed)) + ")");
      }
      return s;
    }

    boolean bool(String name, boolean dflt) {
      Object v = get(name);
      if (v == null) {
        return dflt;
      }
      if (!(v instanceof Boolean b)) {
        throw error("field '" + name + "' must be true or false, got " + v);
      }
      return b;
    }

    int integer(String name, int dflt) {
      Object v = get(name);
      if (v == null) {
        return dflt;
      }
      if (!(v instanceof Long n) || n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
        throw error("field '" + name + "' must be an integer, got " + v);
      }
      return (int) (long) n;
    }

    int positiveInt(String name) {
      if (!map.containsKey(name)) {
        throw error("field '" + name + "' is missing");
      }
      int n = integer(name, 0);
      if (n <= 0) {
        throw error(name + " " + n + " must be positive");
      }
      return n;
    }

    double number(String name, double dflt) {
      Object v = get(name);
      if (v == null) {
        return dflt;
      }
      if (!(v instanceof Number n) || !Double.isFinite(n.doubleValue())) {
        throw error("field '" + name + "' must be a finite number, got " + v);
      }
      return n.doubleValue();
    }
  }
}
