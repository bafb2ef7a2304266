package org.yarngnn.io.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The output directory appears complete with _SUCCESS, or not at all. */
class OutputCommitTest {
  @TempDir
  java.nio.file.Path tmp;

  /** Names in a local directory, without Hadoop's hidden checksum files. */
  private static List<String> visible(java.nio.file.Path dir) throws IOException {
    try (Stream<java.nio.file.Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).sorted()
          .collect(Collectors.toList());
    }
  }

  private static void writeParts(OutputCommit commit, int parts) {
    for (int part = 0; part < parts; part++) {
      try (EmbeddingWriter w = EmbeddingWriter.create(TempTables.CONF, commit.partFile(part, TableFormat.PARQUET),
          TableFormat.PARQUET, 2, false)) {
        w.write(part, new float[] {part, 1}, 0, 0);
      }
    }
  }

  @Test
  void commitLeavesExactlyThePartsAndSuccess() throws IOException {
    Path out = TempTables.path(tmp, "out");
    OutputCommit commit = OutputCommit.begin(TempTables.CONF, out, false);
    writeParts(commit, 2);
    assertFalse(Files.exists(tmp.resolve("out")), "nothing at the output path before commit");
    commit.commit();
    assertEquals(List.of("_SUCCESS", "part-00000.parquet", "part-00001.parquet"), visible(tmp.resolve("out")));
    assertEquals(0, Files.size(tmp.resolve("out/_SUCCESS")));
    assertEquals(List.of("out"), visible(tmp), "the work directory is gone");
    EmbeddingTable read = EmbeddingTable.read(TempTables.CONF, out);
    assertTrue(read.committed());
    assertEquals(2, read.size());
  }

  @Test
  void abortLeavesNoOutput() throws IOException {
    Path out = TempTables.path(tmp, "out");
    OutputCommit commit = OutputCommit.begin(TempTables.CONF, out, false);
    writeParts(commit, 1);
    commit.abort();
    commit.abort();
    assertFalse(Files.exists(tmp.resolve("out")));
    try (Stream<java.nio.file.Path> s = Files.list(tmp)) {
      assertEquals(0, s.count(), "the work directory is deleted too");
    }
  }

  @Test
  void existingOutputRefusedWithoutOverwriteAndReplacedWithIt() throws IOException {
    Path out = TempTables.path(tmp, "out");
    TempTables.text(tmp, "out/old.txt", "old");
    InputException e = assertThrows(InputException.class, () -> OutputCommit.begin(TempTables.CONF, out, false));
    assertEquals(out + ": output exists (use --overwrite)", e.getMessage());
    assertTrue(Files.exists(tmp.resolve("out/old.txt")), "refusal touches nothing");

    OutputCommit commit = OutputCommit.begin(TempTables.CONF, out, true);
    writeParts(commit, 1);
    commit.commit();
    assertEquals(List.of("_SUCCESS", "part-00000.parquet"), visible(tmp.resolve("out")));
    assertEquals(List.of("out"), everything(tmp), "the previous output, moved aside, is deleted after the commit");
  }

  /** Names in a local directory, hidden ones included, but for Hadoop's checksum files. */
  private static List<String> everything(java.nio.file.Path dir) throws IOException {
    try (Stream<java.nio.file.Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".crc")).sorted()
          .collect(Collectors.toList());
    }
  }

  /** An output of {@code parts} parts committed, then an overwriting run's commit failing at {@code at}. */
  private java.io.UncheckedIOException failedOverwrite(int parts, OutputCommit.FailPoint at) {
    Path out = TempTables.path(tmp, "out");
    OutputCommit first = OutputCommit.begin(TempTables.CONF, out, false);
    writeParts(first, parts);
    first.commit();
    OutputCommit second = OutputCommit.begin(TempTables.CONF, out, true);
    writeParts(second, 1);
    return assertThrows(java.io.UncheckedIOException.class, () -> second.commit(at));
  }

  /** A commit that fails after moving the previous output aside puts it back, and says so. */
  @Test
  void aFailedCommitRestoresThePreviousOutput() throws IOException {
    java.io.UncheckedIOException e = failedOverwrite(2, OutputCommit.FailPoint.FAIL_MOVE_NEW);
    assertTrue(e.getMessage().endsWith("; the previous output is restored"), e.getMessage());
    assertEquals(List.of("_SUCCESS", "part-00000.parquet", "part-00001.parquet"), visible(tmp.resolve("out")));
    assertEquals(List.of("out"), everything(tmp), "nothing hidden is left beside it");
  }

  /** A commit that fails before moving anything says nothing of a restore. */
  @Test
  void aCommitFailingBeforeTheMoveRestoresNothing() throws IOException {
    java.io.UncheckedIOException e = failedOverwrite(1, OutputCommit.FailPoint.FAIL_MOVE_OLD);
    assertFalse(e.getMessage().contains("restored") || e.getMessage().contains("kept as"), e.getMessage());
    assertEquals(List.of("_SUCCESS", "part-00000.parquet"), visible(tmp.resolve("out")));
  }

  @Test
  void failedRerunWithOverwriteKeepsThePreviousOutput() throws IOException {
    Path out = TempTables.path(tmp, "out");
    OutputCommit first = OutputCommit.begin(TempTables.CONF, out, false);
    writeParts(first, 2);
    first.commit();
    OutputCommit second = OutputCommit.begin(TempTables.CONF, out, true);
    writeParts(second, 1);
    second.abort();
    assertEquals(List.of("_SUCCESS", "part-00000.parquet", "part-00001.parquet"), visible(tmp.resolve("out")));
    assertEquals(List.of("out"), visible(tmp));
  }

  @Test
  void partNames() {
    assertEquals("part-00007.orc", OutputCommit.partName(7, TableFormat.ORC));
    assertEquals("part-123456.parquet", OutputCommit.partName(123456, TableFormat.PARQUET));
  }
}
