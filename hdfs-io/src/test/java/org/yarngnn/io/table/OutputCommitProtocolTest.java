package org.yarngnn.io.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ShutdownHookManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The replace protocol of {@link OutputCommit}: whatever step a commit stops at (a crash, or a failed rename),
 * the output is the old complete output or the new complete output, never a mixture and never neither, and the
 * next begin recovers what a dead job left.
 */
class OutputCommitProtocolTest {
  private static final List<String> OLD = List.of("_SUCCESS", "part-00000.parquet", "part-00001.parquet");
  private static final List<String> NEW = List.of("_SUCCESS", "part-00000.parquet");

  @TempDir
  java.nio.file.Path tmp;

  /** A process id no Linux system hands out (pid_max is at most 2^22), on this host. */
  static String deadOwner() {
    String me = OutputCommit.thisProcess();
    return "999999999" + me.substring(me.indexOf('@'));
  }

  private static List<String> names(java.nio.file.Path dir, boolean hidden) {
    try (Stream<java.nio.file.Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> hidden ? n.startsWith(".") && !n.endsWith(".crc")
          : !n.startsWith(".")).sorted().collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void writeParts(OutputCommit commit, int parts, long firstId) {
    for (int part = 0; part < parts; part++) {
      try (EmbeddingWriter w = EmbeddingWriter.create(TempTables.CONF, commit.partFile(part, TableFormat.PARQUET),
          TableFormat.PARQUET, 2, false)) {
        w.write(firstId + part, new float[] {part, 1}, 0, 0);
      }
    }
  }

  private Path oldOutput() {
    Path out = TempTables.path(tmp, "out");
    OutputCommit first = OutputCommit.begin(TempTables.CONF, out, false);
    writeParts(first, 2, 100);
    first.commit();
    return out;
  }

  /** "old", "new", or null when {@code dir} is absent; fails on anything else (a mixture, no _SUCCESS). */
  private static String which(java.nio.file.Path dir) {
    if (!Files.exists(dir)) {
      return null;
    }
    List<String> names = names(dir, false);
    long first = java.util.Collections.min(EmbeddingTable.read(TempTables.CONF, new Path(dir.toUri()))
        .embeddings().keySet());
    if (names.equals(OLD) && first == 100) {
      return "old";
    }
    if (names.equals(NEW) && first == 0) {
      return "new";
    }
    throw new AssertionError(dir + " is neither the old nor the new output: " + names);
  }

  /** The invariant after a stop at any step: out is old or new, or out is absent and a complete one is hidden. */
  private void assertOldOrNewComplete() {
    String visible = which(tmp.resolve("out"));
    if (visible != null) {
      return;
    }
    boolean hiddenComplete = false;
    for (String n : names(tmp, true)) {
      java.nio.file.Path d = tmp.resolve(n);
      if (Files.isDirectory(d) && Files.exists(d.resolve("_SUCCESS"))) {
        which(d);
        hiddenComplete = true;
      }
    }
    assertTrue(hiddenComplete, "out is absent and no complete output is left to recover: " + names(tmp, true));
  }

  @ParameterizedTest
  @EnumSource(OutputCommit.FailPoint.class)
  void everyStopLeavesOldOrNewAndTheNextBeginRecovers(OutputCommit.FailPoint at) {
    Path out = oldOutput();
    OutputCommit second = OutputCommit.begin(TempTables.CONF, out, true, deadOwner());
    writeParts(second, 1, 0);
    boolean crash = at.name().startsWith("CRASH");
    if (crash) {
      assertThrows(OutputCommit.SimulatedCrash.class, () -> second.commit(at));
    } else {
      UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> second.commit(at));
      assertTrue(e.getMessage().contains("committing output " + out), e.getMessage());
      // A failed rename is an ordinary failure: the old output is in place at once, nothing is left beside it.
      assertEquals("old", which(tmp.resolve("out")));
      assertEquals(List.of(), names(tmp, true));
    }
    assertOldOrNewComplete();

    // The next run on the same output (the crashed job's process is gone) finishes or rolls back.
    OutputCommit third = OutputCommit.begin(TempTables.CONF, out, true);
    String expected = at == OutputCommit.FailPoint.CRASH_AFTER_OLD_MOVED
        || at == OutputCommit.FailPoint.CRASH_AFTER_NEW_MOVED ? "new" : "old";
    assertEquals(expected, which(tmp.resolve("out")), at + ": recovered output");
    assertEquals(List.of(third.workDir().getName()), names(tmp, true), "only the new job's work directory");
    third.abort();
    assertEquals(expected, which(tmp.resolve("out")), "abort never touches the output");
    assertEquals(List.of(), names(tmp, true));
  }

  @Test
  void crashWithoutAPreviousOutputLeavesNothingVisibleAndIsCleaned() {
    Path out = TempTables.path(tmp, "out");
    OutputCommit job = OutputCommit.begin(TempTables.CONF, out, false, deadOwner());
    writeParts(job, 1, 0);
    assertThrows(OutputCommit.SimulatedCrash.class, () -> job.commit(OutputCommit.FailPoint.CRASH_AFTER_SUCCESS));
    assertFalse(Files.exists(tmp.resolve("out")));
    // Without a previous output a complete work directory is not promoted: it was never committed.
    OutputCommit next = OutputCommit.begin(TempTables.CONF, out, false);
    assertFalse(Files.exists(tmp.resolve("out")));
    assertEquals(List.of(next.workDir().getName()), names(tmp, true));
    next.abort();
  }

  @Test
  void leftoversOfLiveProcessesAndOtherHostsAreNotTouched() throws IOException {
    Path out = oldOutput();
    OutputCommit live = OutputCommit.begin(TempTables.CONF, out, true);
    writeParts(live, 1, 0);
    Files.createDirectories(tmp.resolve(".out" + OutputCommit.NEW + "999999999@another.host-abcdef12"));
    OutputCommit other = OutputCommit.begin(TempTables.CONF, out, true);
    List<String> hidden = names(tmp, true);
    assertTrue(hidden.contains(live.workDir().getName()), hidden.toString());
    assertTrue(hidden.contains(".out" + OutputCommit.NEW + "999999999@another.host-abcdef12"), hidden.toString());
    assertEquals(3, hidden.size(), hidden.toString());
    other.abort();
    live.commit();
    assertEquals("new", which(tmp.resolve("out")));
  }

  @Test
  void abortAfterTheOldWasMovedRestoresIt() {
    // The YARN client aborts when the ApplicationMaster died between its two renames.
    Path out = oldOutput();
    OutputCommit job = OutputCommit.begin(TempTables.CONF, out, true);
    writeParts(job, 1, 0);
    assertThrows(OutputCommit.SimulatedCrash.class, () -> job.commit(OutputCommit.FailPoint.CRASH_AFTER_OLD_MOVED));
    assertFalse(Files.exists(tmp.resolve("out")));
    job.abort();
    assertEquals("old", which(tmp.resolve("out")));
    assertEquals(List.of(), names(tmp, true));
  }

  @Test
  void exitHookIsRegisteredUntilCommit() {
    Path out = TempTables.path(tmp, "out");
    OutputCommit job = OutputCommit.begin(TempTables.CONF, out, false).abortOnExit();
    assertEquals(1, registeredHooks(job));
    writeParts(job, 1, 0);
    job.commit();
    assertEquals(0, registeredHooks(job));
    assertEquals("new", which(tmp.resolve("out")));
  }

  private static int registeredHooks(OutputCommit job) {
    try {
      java.lang.reflect.Field f = OutputCommit.class.getDeclaredField("exitHook");
      f.setAccessible(true);
      Runnable hook = (Runnable) f.get(job);
      return hook != null && ShutdownHookManager.get().hasShutdownHook(hook) ? 1 : 0;
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  /** A JVM that begins a commit with the exit hook, writes a part, says so, and waits to be killed. */
  public static final class Child {
    public static void main(String[] args) throws Exception {
      OutputCommit commit = OutputCommit.begin(TempTables.CONF, new Path(args[0]), false).abortOnExit();
      writeParts(commit, 1, 0);
      System.out.println("ready " + commit.workDir().getName());
      System.out.flush();
      Thread.sleep(120_000);
    }
  }

  private Process child(Path out) throws IOException {
    String javaBin = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(javaBin, "-cp", System.getProperty("java.class.path"), Child.class.getName(),
        out.toString()).redirectErrorStream(true).start();
    BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    for (String line = r.readLine(); line != null; line = r.readLine()) {
      if (line.startsWith("ready ")) {
        assertEquals(List.of(line.substring(6)), names(tmp, true));
        return p;
      }
    }
    throw new AssertionError("the child JVM ended before it was ready");
  }

  @Test
  void killedLocalRunRemovesItsWorkDirectory() throws Exception {
    Process p = child(TempTables.path(tmp, "out"));
    p.destroy(); // SIGTERM: the shutdown hook aborts
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(List.of(), names(tmp, true));
    assertFalse(Files.exists(tmp.resolve("out")));
  }

  @Test
  void theNextBeginRemovesWhatKillNineLeft() throws Exception {
    Path out = TempTables.path(tmp, "out");
    Process p = child(out);
    p.destroyForcibly(); // SIGKILL: no hook runs
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(1, names(tmp, true).size(), "kill -9 leaves the work directory");
    OutputCommit next = OutputCommit.begin(TempTables.CONF, out, false);
    assertEquals(List.of(next.workDir().getName()), names(tmp, true));
    next.abort();
  }
}
