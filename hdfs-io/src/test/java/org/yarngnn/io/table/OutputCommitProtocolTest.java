package org.yarngnn.io.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ShutdownHookManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replace protocol of {@link OutputCommit} on the local FileSystem ({@link OutputCommitProtocolCases}; on HDFS
 * in the tests module), and what only a local run has: the exit hook that removes the work directory of a killed
 * JVM, and the next begin removing what {@code kill -9} left.
 */
class OutputCommitProtocolTest extends OutputCommitProtocolCases {
  @TempDir
  java.nio.file.Path tmp;

  @Override
  protected Configuration conf() {
    return TempTables.CONF;
  }

  @Override
  protected Path freshDir() {
    return new Path(tmp.toUri());
  }

  @Test
  void exitHookIsRegisteredUntilCommit() {
    OutputCommit job = OutputCommit.begin(TempTables.CONF, out(), false).abortOnExit();
    assertEquals(1, registeredHooks(job));
    writeParts(TempTables.CONF, job, 1, 0);
    job.commit();
    assertEquals(0, registeredHooks(job));
    assertEquals("new", which(out()));
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
      writeParts(TempTables.CONF, commit, 1, 0);
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
        assertEquals(List.of(line.substring(6)), names(dir(), true));
        return p;
      }
    }
    throw new AssertionError("the child JVM ended before it was ready");
  }

  @Test
  void killedLocalRunRemovesItsWorkDirectory() throws Exception {
    Process p = child(out());
    p.destroy(); // SIGTERM: the shutdown hook aborts
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(List.of(), names(dir(), true));
    assertFalse(Files.exists(tmp.resolve("out")));
  }

  @Test
  void theNextBeginRemovesWhatKillNineLeft() throws Exception {
    Process p = child(out());
    p.destroyForcibly(); // SIGKILL: no hook runs
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(1, names(dir(), true).size(), "kill -9 leaves the work directory");
    OutputCommit next = OutputCommit.begin(TempTables.CONF, out(), false);
    assertEquals(List.of(next.workDir().getName()), names(dir(), true));
    next.abort();
  }
}
