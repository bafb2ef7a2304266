package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.app.Main;

/**
 * {@code generate} stopped by SIGTERM (a scheduler's timeout) mid-run leaves neither its hidden work directory
 * beside the output nor an output: the CLI in a JVM of its own, terminated as a scheduler does.
 */
class GenerateTerminatedTest {
  @TempDir Path dir;

  @Test
  void sigtermMidRunLeavesNothingBehind() throws Exception {
    Path out = dir.resolve("gen");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Path log = dir.resolve("generate.log");
    // Large enough to take far longer than the wait for its first part file.
    Process p = new ProcessBuilder(java, "-Xmx512m", "--add-modules", "jdk.incubator.vector", "-cp", classpath,
        Main.class.getName(), "generate", "--type", "rmat", "--nodes", "4000000", "--edges", "200000000",
        "--features", "64", "--files", "4", "--output", out.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (partFilesUnderWork(dir) == 0) {
        assertTrue(p.isAlive(), () -> "generate ended before it wrote anything:\n" + read(log));
        assertTrue(System.nanoTime() < deadline, () -> "no part file after 120 s:\n" + read(log));
        Thread.sleep(50);
      }
      p.destroy(); // SIGTERM
      assertTrue(p.waitFor(60, TimeUnit.SECONDS), () -> "generate did not stop on SIGTERM:\n" + read(log));
    } finally {
      p.destroyForcibly();
    }
    try (Stream<Path> left = Files.list(dir)) {
      List<String> names = left.map(f -> f.getFileName().toString()).filter(n -> n.contains("gen")
          && !n.equals("generate.log")).toList();
      assertTrue(names.isEmpty(), () -> "left behind: " + names + "\n" + read(log));
    }
    assertFalse(Files.exists(out));
  }

  /** Part files written so far under the hidden work directory beside the output. */
  private static long partFilesUnderWork(Path dir) throws Exception {
    try (Stream<Path> all = Files.walk(dir)) {
      return all.filter(f -> f.getFileName().toString().startsWith("part-")
          && dir.relativize(f).getName(0).toString().startsWith(".gen")).count();
    }
  }

  private static String read(Path log) {
    try {
      return Files.readString(log);
    } catch (Exception e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }
}
