package org.yarngnn.io.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Embedding output written as Parquet and ORC reads back equal through EmbeddingTable. */
class EmbeddingWriterTest {
  @TempDir
  java.nio.file.Path tmp;

  @ParameterizedTest
  @EnumSource(value = TableFormat.class, names = {"PARQUET", "ORC"})
  void roundTrip(TableFormat format) {
    int width = 16;
    int perPart = 700;
    Random rnd = new Random(3);
    float[] data = new float[2 * perPart * width];
    for (int i = 0; i < data.length; i++) {
      data[i] = (float) rnd.nextGaussian();
    }
    data[5] = Float.NaN; // outputs are read back as written, NaN included
    Path out = TempTables.path(tmp, "out");
    OutputCommit commit = OutputCommit.begin(TempTables.CONF, out, false);
    for (int part = 0; part < 2; part++) {
      try (EmbeddingWriter w = EmbeddingWriter.create(TempTables.CONF, commit.partFile(part, format), format, width, true)) {
        for (int i = part * perPart; i < (part + 1) * perPart; i++) {
          w.write(i * 31L + 1, data, i * width, i % 5);
        }
        assertEquals(perPart, w.rowsWritten());
      }
    }
    commit.commit();
    EmbeddingTable read = EmbeddingTable.read(TempTables.CONF, out);
    assertTrue(read.committed());
    assertEquals(width, read.width());
    assertEquals(2 * perPart, read.size());
    assertTrue(read.hasPredictions());
    for (int i = 0; i < 2 * perPart; i++) {
      assertArrayEquals(java.util.Arrays.copyOfRange(data, i * width, (i + 1) * width), read.embedding(i * 31L + 1));
      assertEquals(i % 5, read.predictions().get(i * 31L + 1));
    }
  }

  @ParameterizedTest
  @EnumSource(value = TableFormat.class, names = {"PARQUET", "ORC"})
  void withoutPrediction(TableFormat format) {
    Path file = TempTables.path(tmp, "e." + format.extension());
    try (EmbeddingWriter w = EmbeddingWriter.create(TempTables.CONF, file, format, 2, false)) {
      w.write(-4, new float[] {1.5f, -0.25f}, 0, 99);
    }
    EmbeddingTable read = EmbeddingTable.read(TempTables.CONF, file);
    assertFalse(read.hasPredictions());
    assertArrayEquals(new float[] {1.5f, -0.25f}, read.embedding(-4));
  }

  @Test
  void textIsNotAnOutputFormat() {
    assertThrows(IllegalArgumentException.class,
        () -> EmbeddingWriter.create(TempTables.CONF, TempTables.path(tmp, "e.tsv"), TableFormat.TSV, 2, false));
  }
}
