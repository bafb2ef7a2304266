package org.yarngnn.compute.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SafetensorsTest {
  /**
   * Written by the reference implementation (safetensors 0.8.0, Python):
   * {@code save({"layers.0.weight": [[1, -2.5, 0.5], [3, 0, -1]], "layers.0.bias": [0.25, -0.125, 8]},
   * metadata={"format": "pt"})} with float32 numpy arrays.
   */
  private static final String REFERENCE_FILE_HEX = "b0000000000000007b225f5f6d657461646174615f5f223a7b22666f726d"
      + "6174223a227074227d2c226c61796572732e302e62696173223a7b226474797065223a22463332222c227368617065223a5b33"
      + "5d2c22646174615f6f666673657473223a5b302c31325d7d2c226c61796572732e302e776569676874223a7b226474797065"
      + "223a22463332222c227368617065223a5b322c335d2c22646174615f6f666673657473223a5b31322c33365d7d7d2020202020"
      + "20200000803e000000be000000410000803f000020c00000003f0000404000000000000080bf";

  @Test
  void readsAndReproducesTheReferenceWritersBytes() {
    byte[] file = HexFormat.of().parseHex(REFERENCE_FILE_HEX);
    Safetensors.Contents c = Safetensors.read(file, "ref.safetensors");
    assertEquals(Map.of("format", "pt"), c.metadata());
    Tensor w = c.tensors().get("layers.0.weight");
    assertArrayEquals(new int[] {2, 3}, w.shape());
    assertArrayEquals(new float[] {1f, -2.5f, 0.5f, 3f, 0f, -1f}, w.data());
    assertArrayEquals(new float[] {0.25f, -0.125f, 8f}, c.tensors().get("layers.0.bias").data());

    byte[] ours = Safetensors.toBytes(List.of(w, c.tensors().get("layers.0.bias")), Map.of("format", "pt"));
    assertEquals(REFERENCE_FILE_HEX, HexFormat.of().formatHex(ours));
  }

  @Test
  void handBuiltFileIsReadAndWrittenByteForByte() {
    String header = "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
        + "\"b\":{\"dtype\":\"F32\",\"shape\":[],\"data_offsets\":[8,12]}}"; // 107 bytes
    byte[] expected = concat(
        new byte[] {112, 0, 0, 0, 0, 0, 0, 0}, // header length 112 = 107 padded to a multiple of 8
        header.getBytes(StandardCharsets.US_ASCII),
        "     ".getBytes(StandardCharsets.US_ASCII),
        new byte[] {0x00, 0x00, (byte) 0x80, 0x3f}, // 1.0f little-endian
        new byte[] {0x00, 0x00, 0x20, (byte) 0xc0}, // -2.5f
        new byte[] {(byte) 0xcd, (byte) 0xcc, (byte) 0xcc, 0x3d}); // 0.1f, a scalar (shape [])

    Safetensors.Contents c = Safetensors.read(expected, "hand.safetensors");
    assertEquals(Map.of(), c.metadata());
    assertEquals(List.of("a", "b"), List.copyOf(c.tensors().keySet()));
    assertArrayEquals(new float[] {1f, -2.5f}, c.tensors().get("a").data());
    assertArrayEquals(new int[0], c.tensors().get("b").shape());
    assertArrayEquals(new float[] {0.1f}, c.tensors().get("b").data());

    byte[] written = Safetensors.toBytes(List.of(c.tensors().get("b"), c.tensors().get("a")), null);
    assertArrayEquals(expected, written);
  }

  @Test
  void roundTripsLargeAndEmptyTensorsThroughStreams() throws Exception {
    float[] big = new float[7 * 14_287]; // spans several I/O chunks and ends mid-chunk
    for (int i = 0; i < big.length; i++) {
      big[i] = (float) Math.sin(i) * 1e3f;
    }
    Tensor t1 = new Tensor("big", new int[] {7, 14_287}, big);
    Tensor t2 = new Tensor("empty", new int[] {0, 5}, new float[0]);
    Tensor t3 = Tensor.vector("v", new float[] {Float.MIN_VALUE, -0f, Float.MAX_VALUE, Float.NaN});
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Safetensors.write(List.of(t1, t2, t3), Map.of("k", "v", "a", "b"), out);
    byte[] bytes = out.toByteArray();
    long headerLength = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong();
    assertEquals(0, headerLength % 8);
    assertEquals(8 + headerLength + 4L * (t1.data().length + t3.data().length), bytes.length);

    Safetensors.Contents c = Safetensors.read(new ByteArrayInputStream(bytes), "x");
    assertEquals(Map.of("k", "v", "a", "b"), c.metadata());
    assertEquals(t1, c.tensors().get("big"));
    assertEquals(t2, c.tensors().get("empty"));
    assertEquals(t3, c.tensors().get("v"));
  }

  @Test
  void refusesOtherDtypesNamingTheTensor() {
    byte[] f = file("{\"w\":{\"dtype\":\"F16\",\"shape\":[2],\"data_offsets\":[0,4]}}", 4);
    assertError(f, "w.safetensors: tensor 'w' has dtype F16; only F32 is supported");
  }

  @Test
  void refusesBadOffsets() {
    assertError(file("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,12]}}", 12),
        "tensor 'a' data_offsets [0, 12] hold 12 bytes; shape [2] of F32 needs 8");
    assertError(file("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}", 8),
        "tensor 'a' data_offsets [4, 8] leave a gap");
    assertError(file("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
        + "\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}", 8), "overlap");
    assertError(file("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,0]}}", 4),
        "tensor 'a' has invalid data_offsets");
    assertError(file("{\"a\":{\"dtype\":\"F32\",\"shape\":[-1],\"data_offsets\":[0,4]}}", 4),
        "tensor 'a' has an invalid shape");
    assertError(file("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}", 8),
        "bytes after the last tensor");
  }

  @Test
  void refusesTruncatedFilesAndBadHeaders() {
    byte[] good = file("{\"a\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,16]}}", 16);
    assertError(java.util.Arrays.copyOf(good, good.length - 1), "truncated: the header promises 16 data bytes,"
        + " the file ends after 15 (in tensor 'a')");
    assertError(java.util.Arrays.copyOf(good, 20), "truncated: header of");
    assertError(new byte[] {1, 2, 3}, "truncated: 3 bytes");
    byte[] huge = good.clone();
    huge[6] = 0x7f;
    assertError(huge, "header length");
    assertError(file("[1, 2]", 0), "header does not start with '{'");
    assertError(file("{\"a\": 1,}", 0), "header JSON 1:9");
    assertError(file("{\"__metadata__\":{\"x\":1}}", 0), "__metadata__ value of 'x' must be a string");
  }

  private static void assertError(byte[] bytes, String fragment) {
    ModelFormatException e = assertThrows(ModelFormatException.class, () -> Safetensors.read(bytes,
        "w.safetensors"));
    assertTrue(e.getMessage().startsWith("w.safetensors: "), e.getMessage());
    assertTrue(e.getMessage().contains(fragment), e.getMessage());
  }

  /** A file with {@code header} (padded as the reference writer does) and {@code dataBytes} zero bytes. */
  private static byte[] file(String header, int dataBytes) {
    byte[] h = header.getBytes(StandardCharsets.UTF_8);
    int padded = (h.length + 7) / 8 * 8;
    ByteBuffer b = ByteBuffer.allocate(8 + padded + dataBytes).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(padded).put(h);
    while (b.position() < 8 + padded) {
      b.put((byte) ' ');
    }
    return b.array();
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
