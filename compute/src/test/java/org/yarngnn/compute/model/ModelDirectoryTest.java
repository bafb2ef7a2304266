package org.yarngnn.compute.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.kernel.Activation;

class ModelDirectoryTest {
  /** gcn 16->8, sage 8->8, gat 8->2x4 (concat), gcn 8->3 without bias. */
  private static final ModelSpec SPEC = ModelFormat.parse(ModelFormatTest.BASE, "model.json");

  @Test
  void writtenDirectoryReadsBackEqual(@TempDir Path dir) throws Exception {
    Model model = RandomModels.random(SPEC, 42);
    ModelDirectory.write(model, dir);
    Model read = ModelDirectory.read(dir);
    assertEquals(model, read);
    assertEquals(SPEC, read.spec());
    assertArrayEquals(model.tensor(2, WeightLayout.ATTN_SRC).data(), read.tensor(2, "attn_src").data());
    assertNull(read.tensorOrNull(3, WeightLayout.BIAS));

    byte[] json = Files.readAllBytes(dir.resolve("model.json"));
    byte[] weights = Files.readAllBytes(dir.resolve("weights.safetensors"));
    assertEquals(model, ModelDirectory.read(json, weights, "x"));
    assertArrayEquals(json, ModelDirectory.modelJsonBytes(SPEC));
    assertArrayEquals(weights, ModelDirectory.weightsBytes(model));
    assertEquals(Map.of("format", "yarn-gnn"), Safetensors.read(weights, "w").metadata());
  }

  @Test
  void tensorShapesFollowTheFormat() {
    Map<String, int[]> shapes = WeightLayout.shapes(SPEC);
    assertEquals(List.of("layers.0.weight", "layers.0.bias", "layers.1.weight_self", "layers.1.weight_neigh",
        "layers.1.bias", "layers.2.weight", "layers.2.attn_src", "layers.2.attn_dst", "layers.2.bias",
        "layers.3.weight"), List.copyOf(shapes.keySet()));
    assertArrayEquals(new int[] {16, 8}, shapes.get("layers.0.weight"));
    assertArrayEquals(new int[] {8}, shapes.get("layers.0.bias"));
    assertArrayEquals(new int[] {8, 8}, shapes.get("layers.1.weight_neigh"));
    assertArrayEquals(new int[] {8, 8}, shapes.get("layers.2.weight"));
    assertArrayEquals(new int[] {2, 4}, shapes.get("layers.2.attn_dst"));
    assertArrayEquals(new int[] {8}, shapes.get("layers.2.bias"));
    ModelSpec noConcat = new ModelSpec("none", List.of(LayerSpec.gat(8, 4, 2, false, 0.2f, Activation.NONE, true)),
        "none", false);
    assertArrayEquals(new int[] {4}, WeightLayout.shapes(noConcat).get("layers.0.bias"));
  }

  @Test
  void randomModelsAreSeededGlorotUniform() {
    Model a = RandomModels.random(SPEC, 7);
    assertEquals(a, RandomModels.random(SPEC, 7));
    assertNotEquals(a, RandomModels.random(SPEC, 8));
    float limit = (float) Math.sqrt(6.0 / (16 + 8));
    float max = 0;
    for (float v : a.tensor(0, WeightLayout.WEIGHT).data()) {
      max = Math.max(max, Math.abs(v));
    }
    assertTrue(max <= limit && max > 0.8f * limit, "max |w| " + max + " vs limit " + limit);
  }

  @Test
  void refusesMissingTensor() {
    assertWeightsError("layer 1 (sage): tensor layers.1.weight_neigh is missing (expected shape [8, 8])",
        w -> w.remove("layers.1.weight_neigh"));
  }

  @Test
  void refusesExtraTensors() {
    assertWeightsError("tensor layers.3.bias is not part of the model (layer 3 (gcn) has bias false)",
        w -> put(w, "layers.3.bias", 3));
    assertWeightsError("tensor layers.0.weight_self is not part of the model (layer 0 (gcn) has tensors"
        + " layers.0.weight, layers.0.bias)", w -> put(w, "layers.0.weight_self", 16, 8));
    assertWeightsError("tensor layers.4.weight is not part of the model (model.json has 4 layers)",
        w -> put(w, "layers.4.weight", 8, 3));
  }

  @Test
  void refusesWrongShapes() {
    assertWeightsError("layer 0 (gcn): tensor layers.0.weight has shape [8, 16], expected [16, 8] (in, out)",
        w -> put(w, "layers.0.weight", 8, 16));
    assertWeightsError("layer 0 (gcn): tensor layers.0.bias has shape [1, 8], expected [8] (out)",
        w -> put(w, "layers.0.bias", 1, 8));
    assertWeightsError("layer 1 (sage): tensor layers.1.weight_self has shape [8, 4], expected [8, 8]",
        w -> put(w, "layers.1.weight_self", 8, 4));
    assertWeightsError("layer 2 (gat): tensor layers.2.weight has shape [8, 4], expected [8, 8] (in, heads*out)",
        w -> put(w, "layers.2.weight", 8, 4));
    assertWeightsError("layer 2 (gat): tensor layers.2.attn_src has shape [4, 2], expected [2, 4] (heads, out)",
        w -> put(w, "layers.2.attn_src", 4, 2));
    assertWeightsError("layer 2 (gat): tensor layers.2.bias has shape [4], expected [8] (heads*out, concat true)",
        w -> put(w, "layers.2.bias", 4));
  }

  @Test
  void gatWithoutConcatHasAnOutWideBias() {
    ModelSpec spec = new ModelSpec("none", List.of(LayerSpec.gat(8, 4, 2, false, 0.2f, Activation.NONE, true)),
        "none", false);
    Model model = RandomModels.random(spec, 1);
    Map<String, Tensor> w = new LinkedHashMap<>(model.weights());
    put(w, "layers.0.bias", 8);
    ModelFormatException e = assertThrows(ModelFormatException.class, () -> ModelDirectory.read(
        ModelDirectory.modelJsonBytes(spec), Safetensors.toBytes(w.values(), null), ""));
    assertEquals("weights.safetensors: layer 0 (gat): tensor layers.0.bias has shape [8], expected [4] (out,"
        + " concat false)", e.getMessage());
  }

  @Test
  void refusesToWriteAnInvalidModel() {
    Map<String, Tensor> w = new LinkedHashMap<>(RandomModels.random(SPEC, 1).weights());
    w.remove("layers.0.bias");
    assertThrows(ModelFormatException.class,
        () -> ModelDirectory.write(new Model(SPEC, w), new ByteArrayOutputStream(), new ByteArrayOutputStream()));
  }

  @Test
  void weightsFileErrorsNameTheWeightsFile() {
    ModelFormatException e = assertThrows(ModelFormatException.class, () -> ModelDirectory.read(
        ModelDirectory.modelJsonBytes(SPEC), new byte[] {1, 0}, "/m"));
    assertTrue(e.getMessage().startsWith("/m/weights.safetensors: truncated"), e.getMessage());
  }

  private static void put(Map<String, Tensor> w, String name, int... shape) {
    int n = 1;
    for (int d : shape) {
      n *= d;
    }
    w.put(name, new Tensor(name, shape, new float[n]));
  }

  private static void assertWeightsError(String expected, Consumer<Map<String, Tensor>> change) {
    Map<String, Tensor> w = new LinkedHashMap<>(RandomModels.random(SPEC, 3).weights());
    change.accept(w);
    byte[] json = ModelDirectory.modelJsonBytes(SPEC);
    byte[] weights = Safetensors.toBytes(w.values(), null);
    ModelFormatException e = assertThrows(ModelFormatException.class,
        () -> ModelDirectory.read(json, weights, "hdfs://nn/models/m1/"));
    assertTrue(e.getMessage().startsWith("hdfs://nn/models/m1/weights.safetensors: " + expected), e.getMessage());
  }
}
