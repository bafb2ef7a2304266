package org.yarngnn.compute.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.graph.CsrBuilder;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.layer.DegreeException;
import org.yarngnn.compute.layer.GcnLayer;

/** Weights are finite, gcn degrees positive, and a safetensors header cannot make the reader allocate. */
class ModelNumbersTest {
  private static final ModelSpec SPEC = new ModelSpec("none", List.of(LayerSpec.gcn(3, 2, Activation.RELU, true)),
      "none", false);

  private static long allocated() {
    return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
        .getCurrentThreadAllocatedBytes();
  }

  private static byte[] weightsWith(int tensor, int index, float value) {
    Model m = RandomModels.random(SPEC, 1);
    String name = tensor == 0 ? "layers.0.bias" : "layers.0.weight";
    m.weights().get(name).data()[index] = value;
    return Safetensors.toBytes(m.weights().values(), null);
  }

  @Test
  void nonFiniteWeightsAreRefusedNamingTensorAndIndex() {
    byte[] json = ModelDirectory.modelJsonBytes(SPEC);
    ModelFormatException nan = assertThrows(ModelFormatException.class,
        () -> ModelDirectory.read(json, weightsWith(1, 5, Float.NaN), "/m"));
    assertEquals("/m/weights.safetensors: tensor layers.0.weight holds NaN at index 5 [2, 1]; weights must be finite",
        nan.getMessage());
    ModelFormatException inf = assertThrows(ModelFormatException.class,
        () -> ModelDirectory.read(json, weightsWith(0, 1, Float.NEGATIVE_INFINITY), "/m"));
    assertEquals("/m/weights.safetensors: tensor layers.0.bias holds -Infinity at index 1; weights must be finite",
        inf.getMessage());
    ModelDirectory.read(json, weightsWith(1, 5, Float.MAX_VALUE), "/m"); // large but finite: fine
  }

  @Test
  void gcnDegreeMustBePositive() {
    // Node 7 <- node 9 with weight -1: d = 1 + (-1) = 0.
    GraphBlock g = new GraphBlock(new long[] {7, 9}, new long[0],
        CsrBuilder.build(2, 2, new int[] {0}, new int[] {1}, new float[] {-1f}, 1, null));
    DegreeException e = assertThrows(DegreeException.class, () -> GcnLayer.invSqrtDegree(g, 0));
    assertEquals(7, e.nodeId());
    assertTrue(e.getMessage().startsWith("node 7: gcn degree 1 + sum of in-edge weights is 0.0, not positive"),
        e.getMessage());
    assertEquals(1f, GcnLayer.invSqrtDegree(g, 1));
    GraphBlock half = new GraphBlock(new long[] {7, 9}, new long[0],
        CsrBuilder.build(2, 2, new int[] {0}, new int[] {1}, new float[] {-0.75f}, 1, null));
    assertEquals(2f, GcnLayer.invSqrtDegree(half, 0), 1e-6); // d = 0.25: negative weights are fine while d > 0
  }

  /** A 115-byte file whose header promises an 8 GB tensor. */
  static byte[] lyingFile() {
    String header = "{\"a\":{\"dtype\":\"F32\",\"shape\":[2147483639],\"data_offsets\":[0,8589934556]}}";
    int padded = 115 - 8 - 4;
    byte[] json = (header + " ".repeat(padded - header.length())).getBytes(StandardCharsets.US_ASCII);
    ByteBuffer b = ByteBuffer.allocate(115).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(json.length).put(json).putFloat(1f);
    return b.array();
  }

  @Test
  void aHeaderPromisingMoreThanTheFileIsRefusedBeforeAllocating() throws Exception {
    byte[] file = lyingFile();
    assertEquals(115, file.length);
    // Once unmeasured: loading the JSON parser's classes is not the reader's allocation.
    assertThrows(ModelFormatException.class, () -> Safetensors.read(file, "w"));
    long before = allocated();
    ModelFormatException e = assertThrows(ModelFormatException.class, () -> Safetensors.read(file, "w"));
    assertTrue(allocated() - before < (1 << 20), "allocated " + (allocated() - before));
    assertEquals("w: truncated: the header promises 8589934556 data bytes, the file ends after 4 (in tensor 'a')",
        e.getMessage());
    // Streamed without a known length, the tensor grows only as bytes arrive.
    before = allocated();
    assertThrows(ModelFormatException.class, () -> Safetensors.read(new ByteArrayInputStream(file), "w"));
    assertTrue(allocated() - before < (4 << 20), "allocated " + (allocated() - before));
    // A header length beyond the file.
    byte[] longHeader = file.clone();
    longHeader[2] = 1; // 65536 + 103
    assertTrue(assertThrows(ModelFormatException.class, () -> Safetensors.read(longHeader, "w")).getMessage()
        .startsWith("w: truncated: header of 65639 bytes, file has 107 after the length"));
  }
}
