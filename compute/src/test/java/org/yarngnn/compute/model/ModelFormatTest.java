package org.yarngnn.compute.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.json.Json;
import org.yarngnn.compute.kernel.Activation;

class ModelFormatTest {
  static final String CONTRACT_EXAMPLE = """
      {
        "format": 1,
        "input": {"normalize": "none"},
        "layers": [
          {"type": "gcn",  "in": 1433, "out": 64, "activation": "relu", "bias": true},
          {"type": "sage", "in": 64,   "out": 64, "activation": "relu", "bias": true, "aggregator": "mean", "fanout": 10},
          {"type": "gat",  "in": 64,   "out": 8,  "heads": 8, "concat": true, "negative_slope": 0.2, "activation": "elu", "bias": true}
        ],
        "output": {"normalize": "none", "predict": false}
      }
      """;

  /** gcn 16->8, sage 8->8, gat 8->2x4 (concat), gcn 8->3. */
  static final String BASE = """
      {"format": 1, "input": {"normalize": "row"},
       "layers": [
         {"type": "gcn", "in": 16, "out": 8, "activation": "relu"},
         {"type": "sage", "in": 8, "out": 8, "fanout": 5},
         {"type": "gat", "in": 8, "out": 4, "heads": 2},
         {"type": "gcn", "in": 8, "out": 3, "bias": false}
       ],
       "output": {"normalize": "l2", "predict": true}}
      """;

  @Test
  void readsTheContractExample() {
    ModelSpec spec = ModelFormat.parse(CONTRACT_EXAMPLE, "model.json");
    assertEquals(List.of(
        LayerSpec.gcn(1433, 64, Activation.RELU, true),
        LayerSpec.sage(64, 64, Activation.RELU, true, 10),
        LayerSpec.gat(64, 8, 8, true, 0.2f, Activation.ELU, true)), spec.layers());
    assertEquals("none", spec.inputNormalize());
    assertEquals("none", spec.outputNormalize());
    assertEquals(1433, spec.inputWidth());
    assertEquals(64, spec.outputWidth());
  }

  @Test
  void appliesDefaultsForAbsentFields() {
    ModelSpec spec = ModelFormat.parse("{\"format\": 1, \"layers\": [{\"type\": \"sage\", \"in\": 4, \"out\": 2},"
        + " {\"type\": \"gat\", \"in\": 2, \"out\": 3}]}", "spec.json");
    assertEquals(LayerSpec.sage(4, 2, Activation.NONE, true, -1), spec.layers().get(0));
    assertEquals(LayerSpec.gat(2, 3, 1, true, 0.2f, Activation.NONE, true), spec.layers().get(1));
    assertEquals("none", spec.inputNormalize());
    assertEquals("none", spec.outputNormalize());
    assertEquals(false, spec.predict());
  }

  /** A layer's training "dropout" is parsed, kept when written back, and refused outside [0, 1). */
  @Test
  void keepsALayersDropout() {
    String json = "{\"format\": 1, \"layers\": [{\"type\": \"gcn\", \"in\": 4, \"out\": 3, \"dropout\": 0.25},"
        + " {\"type\": \"gat\", \"in\": 3, \"out\": 2, \"dropout\": 0}], \"output\": {\"predict\": true}}";
    ModelSpec spec = ModelFormat.parse(json, "spec.json");
    assertEquals(0.25, spec.layers().get(0).dropout());
    assertEquals(0.0, spec.layers().get(1).dropout());
    assertEquals(spec, ModelFormat.parse(ModelFormat.write(spec), "again.json"));
    assertTrue(ModelFormat.write(spec).contains("\"dropout\": 0.25"), ModelFormat.write(spec));
    ModelSpec none = ModelFormat.parse(BASE, "model.json");
    assertTrue(none.layers().stream().noneMatch(LayerSpec::hasDropout));
    assertTrue(!ModelFormat.write(none).contains("dropout"));
    for (String bad : new String[] {"1", "1.5", "-0.1", "\"half\""}) {
      ModelFormatException e = assertThrows(ModelFormatException.class, () -> ModelFormat.parse(
          json.replace("0.25", bad), "spec.json"));
      assertTrue(e.getMessage().contains("spec.json: layer 0 (gcn): ") && e.getMessage().contains("dropout"),
          e.getMessage());
    }
  }

  @Test
  void writesAndReadsBackTheSameSpec() {
    ModelSpec spec = ModelFormat.parse(BASE, "model.json");
    String written = ModelFormat.write(spec);
    assertEquals(spec, ModelFormat.parse(written, "model.json"));
    ModelSpec noConcat = new ModelSpec("none", List.of(LayerSpec.gat(5, 3, 4, false, 0.1f, Activation.LEAKY_RELU,
        false)), "none", false);
    assertEquals(noConcat, ModelFormat.parse(ModelFormat.write(noConcat), "model.json"));
  }

  @Test
  void writesEveryFieldInAFixedLayout() {
    ModelSpec spec = new ModelSpec("none", List.of(LayerSpec.gat(4, 2, 3, false, 0.2f, Activation.ELU, true),
        LayerSpec.sage(2, 5, Activation.NONE, false, -1)), "l2", true);
    assertEquals("""
        {
          "format": 1,
          "input": {
            "normalize": "none"
          },
          "layers": [
            {
              "type": "gat",
              "in": 4,
              "out": 2,
              "heads": 3,
              "concat": false,
              "negative_slope": 0.2,
              "activation": "elu",
              "bias": true
            },
            {
              "type": "sage",
              "in": 2,
              "out": 5,
              "activation": "none",
              "bias": false,
              "aggregator": "mean",
              "fanout": -1
            }
          ],
          "output": {
            "normalize": "l2",
            "predict": true
          }
        }
        """, ModelFormat.write(spec));
  }

  @Test
  void readsSpecFilesFromBytes() {
    byte[] withBom = ("\uFEFF" + BASE).getBytes(StandardCharsets.UTF_8);
    assertEquals(ModelFormat.parse(BASE, "x"), ModelDirectory.readSpec(withBom, "spec.json"));
    ModelFormatException e = assertThrows(ModelFormatException.class,
        () -> ModelDirectory.readSpec(new byte[] {'{', (byte) 0xff, '}'}, "spec.json"));
    assertEquals("spec.json: not valid UTF-8 text", e.getMessage());
  }

  static Stream<Arguments> invalidSpecs() {
    return Stream.of(
        bad("format 2 is not supported (expected 1)", m -> m.put("format", 2L)),
        bad("field 'format' is missing", m -> m.remove("format")),
        bad("format 1.0 is not supported", m -> m.put("format", 1.0)),
        bad("field 'layers' must be a non-empty list", m -> m.put("layers", List.of())),
        bad("unknown field 'version'", m -> m.put("version", 3L)),
        bad("layer 1: unknown layer type 'gin' (gcn, sage or gat)", layer(1, l -> l.put("type", "gin"))),
        bad("layer 0: field 'type' is missing", layer(0, l -> l.remove("type"))),
        bad("layer 0 (gcn): unknown activation 'swish'", layer(0, l -> l.put("activation", "swish"))),
        bad("layer 0 (gcn): unknown activation 'RELU'", layer(0, l -> l.put("activation", "RELU"))),
        bad("layer 1 (sage): unknown aggregator 'max' (only 'mean')", layer(1, l -> l.put("aggregator", "max"))),
        bad("layer 0 (gcn): in 0 must be positive", layer(0, l -> l.put("in", 0L))),
        bad("layer 3 (gcn): out -3 must be positive", layer(3, l -> l.put("out", -3L))),
        bad("layer 3 (gcn): field 'out' is missing", layer(3, l -> l.remove("out"))),
        bad("layer 0 (gcn): field 'in' must be an integer, got 16.5", layer(0, l -> l.put("in", 16.5))),
        bad("layer 2 (gat): heads 0 must be positive", layer(2, l -> l.put("heads", 0L))),
        bad("layer 1 (sage): fanout 0 is invalid", layer(1, l -> l.put("fanout", 0L))),
        bad("layer 1 (sage): fanout -2 is invalid", layer(1, l -> l.put("fanout", -2L))),
        bad("layer 1 (sage): in 7 does not match the output width 8 of layer 0",
            layer(1, l -> l.put("in", 7L))),
        bad("layer 3 (gcn): in 8 does not match the output width 4 of layer 2 (gat without concat: out)",
            layer(2, l -> l.put("concat", false))),
        bad("layer 3 (gcn): in 8 does not match the output width 12 of layer 2 (gat concat: heads*out = 3*4)",
            layer(2, l -> l.put("heads", 3L))),
        bad("input: unknown normalize value 'l2' (none, row)",
            m -> m.put("input", Map.of("normalize", "l2"))),
        bad("output: unknown normalize value 'row' (l2, none)",
            m -> m.put("output", Map.of("normalize", "row"))),
        bad("output: field 'predict' must be true or false, got 1", m -> m.put("output", Map.of("predict", 1L))),
        bad("layer 0 (gcn): unknown field 'activaton'", layer(0, l -> l.put("activaton", "relu"))),
        bad("layer 0 (gcn): unknown field 'heads'", layer(0, l -> l.put("heads", 2L))),
        bad("layer 2 (gat): unknown field 'fanout'", layer(2, l -> l.put("fanout", 3L))),
        bad("layer 2 (gat): field 'negative_slope' must be a finite number, got x",
            layer(2, l -> l.put("negative_slope", "x"))),
        bad("layer 3 (gcn): field 'bias' is null", layer(3, l -> l.put("bias", null))),
        bad("layer 2 must be a JSON object", m -> ((List<Object>) m.get("layers")).set(2, 5L)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidSpecs")
  void refusesInvalidSpecsNamingFileLayerAndField(String expected, String json) {
    ModelFormatException e = assertThrows(ModelFormatException.class,
        () -> ModelDirectory.read(json.getBytes(StandardCharsets.UTF_8), new byte[0], "hdfs://nn/m"));
    assertEquals("hdfs://nn/m/model.json: ", e.getMessage().substring(0, "hdfs://nn/m/model.json: ".length()));
    assertTrue(e.getMessage().contains(expected), e.getMessage());
    assertTrue(!e.getMessage().contains("\n"), "one line: " + e.getMessage());
  }

  @Test
  void syntaxErrorsNameLineAndColumn() {
    ModelFormatException e = assertThrows(ModelFormatException.class,
        () -> ModelFormat.parse("{\"format\": 1,\n \"layers\": [\n  {\"type\": \"gcn\" \"in\": 3}]}", "m/model.json"));
    assertTrue(e.getMessage().startsWith("m/model.json:3:18: "), e.getMessage()); // Jackson's reason follows
    assertTrue(!e.getMessage().contains("\n"), e.getMessage());
  }

  @SuppressWarnings("unchecked")
  private static Consumer<Map<String, Object>> layer(int k, Consumer<Map<String, Object>> change) {
    return m -> change.accept((Map<String, Object>) ((List<Object>) m.get("layers")).get(k));
  }

  @SuppressWarnings("unchecked")
  private static Arguments bad(String expected, Consumer<Map<String, Object>> change) {
    Map<String, Object> m = (Map<String, Object>) Json.parse(BASE);
    change.accept(m);
    return Arguments.of(expected, Json.write(m));
  }
}
