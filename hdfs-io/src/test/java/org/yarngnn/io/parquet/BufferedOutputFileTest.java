package org.yarngnn.io.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.io.PositionOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BufferedOutputFileTest {
  @TempDir Path dir;

  @Test
  void writesWhatItIsGivenAndKnowsItsPosition() throws IOException {
    Path p = dir.resolve("a.bin");
    BufferedOutputFile f = BufferedOutputFile.fromPath(new org.apache.hadoop.fs.Path(p.toUri()), new Configuration());
    byte[] data = new byte[3 * BufferedOutputFile.BUFFER_BYTES + 17];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) (i * 31);
    }
    try (PositionOutputStream out = f.create(0)) {
      out.write(data, 0, 5);
      assertEquals(5, out.getPos());
      out.write(data, 5, data.length - 5);
      assertEquals(data.length, out.getPos());
    }
    assertArrayEquals(data, Files.readAllBytes(p));
    // create() refuses an existing file; createOrOverwrite() replaces it.
    assertThrows(IOException.class, () -> f.create(0).close());
    try (PositionOutputStream out = f.createOrOverwrite(0)) {
      out.write(7);
    }
    assertArrayEquals(new byte[] {7}, Files.readAllBytes(p));
    // A local FileSystem has no blocks to align row groups to.
    assertFalse(f.supportsBlockSize());
  }
}
