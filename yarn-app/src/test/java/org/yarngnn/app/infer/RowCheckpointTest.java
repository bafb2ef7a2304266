package org.yarngnn.app.infer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.tensor.DenseMatrix;

class RowCheckpointTest {
  @TempDir
  java.nio.file.Path tmp;

  private static DenseMatrix rows(int n, int w) {
    DenseMatrix m = new DenseMatrix(n, w);
    for (int i = 0; i < m.data().length; i++) {
      m.data()[i] = (float) Math.sin(i) * 1e3f;
    }
    return m;
  }

  private byte[] written(int layer, int p, DenseMatrix m) throws IOException {
    Path f = new Path(tmp.resolve("l" + layer + "p" + p + ".rows").toUri());
    RowCheckpoint.write(new Configuration(), f, layer, p, m);
    return Files.readAllBytes(java.nio.file.Path.of(f.toUri()));
  }

  private static DenseMatrix read(byte[] b, int layer, int p, int n, int w) throws IOException {
    return RowCheckpoint.read(new ByteArrayInputStream(b), b.length, "f.rows", layer, p, n, w);
  }

  @Test
  void roundTripsBitForBitIncludingSeveralChunksAndNoTemporaryIsLeft() throws Exception {
    DenseMatrix m = rows(70_001, 3);
    m.data()[5] = Float.intBitsToFloat(0x7fc00001); // a NaN payload survives too
    byte[] b = written(2, 4, m);
    assertEquals(RowCheckpoint.length(70_001, 3), b.length);
    DenseMatrix back = read(b, 2, 4, 70_001, 3);
    for (int i = 0; i < m.data().length; i++) {
      assertEquals(Float.floatToRawIntBits(m.data()[i]), Float.floatToRawIntBits(back.data()[i]), "value " + i);
    }
    try (var files = Files.list(tmp)) {
      // (The local FileSystem's .crc sidecar files aside.)
      assertEquals(0, files.filter(f -> f.getFileName().toString().contains(".tmp")).count(),
          "the temporary file was renamed");
    }
    Configuration conf = new Configuration();
    Path f = new Path(tmp.resolve("l2p4.rows").toUri());
    assertArrayEquals(back.data(), RowCheckpoint.read(conf, f, 2, 4, 70_001, 3).data());
    DenseMatrix empty = read(written(0, 0, new DenseMatrix(0, 8)), 0, 0, 0, 8);
    assertEquals(0, empty.rows());
  }

  @Test
  void aFileOfAnotherLayerPartitionOrShapeIsRefused() throws Exception {
    byte[] b = written(1, 2, rows(10, 4));
    for (int[] want : new int[][] {{0, 2, 10, 4}, {1, 3, 10, 4}, {1, 2, 11, 4}, {1, 2, 10, 5}}) {
      IOException e = assertThrows(IOException.class, () -> read(b, want[0], want[1], want[2], want[3]));
      assertTrue(e.getMessage().startsWith("f.rows: holds layer 1 of partition 2, 10x4"), e.getMessage());
    }
  }

  @Test
  void hostileFilesAreRefusedBeforeAnythingLargeIsAllocated() throws Exception {
    byte[] good = written(0, 0, rows(10, 4));
    // A header promising 2^31-1 rows of 2^31-1 floats, with the reader expecting exactly that: the length check
    // refuses it before the allocation of 16 EiB is even tried.
    byte[] huge = good.clone();
    ByteBuffer.wrap(huge).order(ByteOrder.LITTLE_ENDIAN).putInt(20, Integer.MAX_VALUE).putInt(24, Integer.MAX_VALUE);
    IOException e = assertThrows(IOException.class,
        () -> read(huge, 0, 0, Integer.MAX_VALUE, Integer.MAX_VALUE));
    assertTrue(e.getMessage().contains("bytes, not the size of a checkpoint of 2147483647x2147483647 rows"), e.getMessage());
    byte[] magic = good.clone();
    magic[0] = 'X';
    assertTrue(assertThrows(IOException.class, () -> read(magic, 0, 0, 10, 4)).getMessage().contains("bad magic"));
    byte[] version = good.clone();
    version[8] = 9;
    assertTrue(assertThrows(IOException.class, () -> read(version, 0, 0, 10, 4)).getMessage().contains("version 9"));
    byte[] truncated = java.util.Arrays.copyOf(good, good.length - 3);
    assertTrue(assertThrows(IOException.class, () -> read(truncated, 0, 0, 10, 4)).getMessage().contains("bytes"));
    byte[] shortHeader = java.util.Arrays.copyOf(good, 12);
    assertTrue(assertThrows(IOException.class, () -> read(shortHeader, 0, 0, 10, 4)).getMessage()
        .contains("shorter than a row checkpoint's header"));
    byte[] flipped = good.clone();
    flipped[RowCheckpoint.HEADER_BYTES + 7] ^= 1;
    assertTrue(assertThrows(IOException.class, () -> read(flipped, 0, 0, 10, 4)).getMessage()
        .contains("checksum mismatch"));
    // A stream shorter than the length it claims (a file truncated while being read).
    IOException t = assertThrows(IOException.class, () -> RowCheckpoint.read(
        new ByteArrayInputStream(java.util.Arrays.copyOf(good, 40)), good.length, "f.rows", 0, 0, 10, 4));
    assertTrue(t.getMessage().contains("truncated"), t.getMessage());
  }
}
