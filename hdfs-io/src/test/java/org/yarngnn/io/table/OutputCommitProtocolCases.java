package org.yarngnn.io.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The replace protocol of {@link OutputCommit} on one {@link FileSystem} (a subclass names it: the local one,
 * HDFS): whatever step a commit stops at (a crash, or a failed rename), the output is the old complete output or
 * the new complete output, never a mixture and never neither, a reader between any two steps never sees
 * {@code _SUCCESS} beside missing parts, and the next begin recovers what a dead job left.
 */
public abstract class OutputCommitProtocolCases {
  private static final List<String> OLD = List.of("_SUCCESS", "part-00000.parquet", "part-00001.parquet");
  private static final List<String> NEW = List.of("_SUCCESS", "part-00000.parquet");

  /** The configuration of the file system under test. */
  protected abstract Configuration conf();

  /** An empty directory of that file system, new for each test: the parent of the output. */
  protected abstract Path freshDir();

  private Path dir;

  protected Path dir() {
    if (dir == null) {
      dir = freshDir();
    }
    return dir;
  }

  private FileSystem fs() {
    try {
      return dir().getFileSystem(conf());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  protected Path out() {
    return new Path(dir(), "out");
  }

  /** A process id no Linux system hands out (pid_max is at most 2^22), on this host. */
  static String deadOwner() {
    String me = OutputCommit.thisProcess();
    return "999999999" + me.substring(me.indexOf('@'));
  }

  /** Names in {@code dir}: the hidden ones (a leading dot) or the others; Hadoop's checksum files hide themselves. */
  protected List<String> names(Path d, boolean hidden) {
    try {
      List<String> names = new ArrayList<>();
      for (FileStatus s : fs().listStatus(d)) {
        String n = s.getPath().getName();
        if (n.startsWith(".") == hidden && !n.endsWith(".crc")) {
          names.add(n);
        }
      }
      Collections.sort(names);
      return names;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private boolean exists(Path p) {
    try {
      return fs().exists(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes {@code parts} one-row parts, ids from {@code firstId}, into the job's work directory. */
  static void writeParts(Configuration conf, OutputCommit commit, int parts, long firstId) {
    for (int part = 0; part < parts; part++) {
      try (EmbeddingWriter w = EmbeddingWriter.create(conf, commit.partFile(part, TableFormat.PARQUET),
          TableFormat.PARQUET, 2, false)) {
        w.write(firstId + part, new float[] {part, 1}, 0, 0);
      }
    }
  }

  /** The output a first job committed: two parts, ids 100 and 101. */
  private void oldOutput() {
    OutputCommit first = OutputCommit.begin(conf(), out(), false);
    writeParts(conf(), first, 2, 100);
    first.commit();
  }

  /** A second job, posing as a process that is dead by the time anyone looks, about to replace the output. */
  private OutputCommit overwritingJob() {
    oldOutput();
    OutputCommit second = OutputCommit.begin(conf(), out(), true, deadOwner());
    writeParts(conf(), second, 1, 0);
    return second;
  }

  /** "old", "new", or null when {@code d} is absent; fails on anything else (a mixture, no _SUCCESS). */
  protected String which(Path d) {
    if (!exists(d)) {
      return null;
    }
    List<String> names = names(d, false);
    // A rename onto an existing directory nests the source in it, hidden.
    assertEquals(List.of(), names(d, true), d + " holds hidden entries");
    long first = Collections.min(EmbeddingTable.read(conf(), d).embeddings().keySet());
    if (names.equals(OLD) && first == 100) {
      return "old";
    }
    if (names.equals(NEW) && first == 0) {
      return "new";
    }
    throw new AssertionError(d + " is neither the old nor the new output: " + names);
  }

  /** The complete outputs hidden beside out (those with _SUCCESS), each checked whole: "old"/"new" by name. */
  private List<String> hiddenComplete() {
    List<String> complete = new ArrayList<>();
    for (String n : names(dir(), true)) {
      Path d = new Path(dir(), n);
      if (exists(new Path(d, OutputCommit.SUCCESS))) {
        complete.add(which(d));
      }
    }
    return complete;
  }

  /** The invariant after a stop at any step: out is old or new, or out is absent and a complete one is hidden. */
  private void assertOldOrNewComplete(String when) {
    if (which(out()) == null) {
      assertFalse(hiddenComplete().isEmpty(),
          when + ": out is absent and no complete output is left to recover: " + names(dir(), true));
    }
  }

  @ParameterizedTest
  @EnumSource(OutputCommit.FailPoint.class)
  void everyStopLeavesOldOrNewAndTheNextBeginRecovers(OutputCommit.FailPoint at) {
    OutputCommit second = overwritingJob();
    if (at.crashAfter != null) {
      assertThrows(OutputCommit.SimulatedCrash.class, () -> second.commit(at));
    } else {
      UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> second.commit(at));
      assertTrue(e.getMessage().contains("committing output " + out()), e.getMessage());
      // A failed rename is an ordinary failure: the old output is in place at once, nothing is left beside it.
      assertEquals("old", which(out()));
      assertEquals(List.of(), names(dir(), true));
    }
    assertOldOrNewComplete(at.toString());

    // The next run on the same output (the crashed job's process is gone) finishes or rolls back.
    OutputCommit third = OutputCommit.begin(conf(), out(), true);
    String expected = at == OutputCommit.FailPoint.CRASH_AFTER_OLD_MOVED
        || at == OutputCommit.FailPoint.CRASH_AFTER_NEW_MOVED ? "new" : "old";
    assertEquals(expected, which(out()), at + ": recovered output");
    assertEquals(List.of(third.workDir().getName()), names(dir(), true), "only the new job's work directory");
    third.abort();
    assertEquals(expected, which(out()), "abort never touches the output");
    assertEquals(List.of(), names(dir(), true));
  }

  /**
   * A reader looking between any two steps of a replacing commit: out is the old or the new output, whole, or
   * absent for the instant between the renames, with both kept complete under hidden names.
   */
  @Test
  void aReaderBetweenTheStepsSeesOneCompleteOutputOrNone() {
    OutputCommit second = overwritingJob();
    List<String> seen = new ArrayList<>();
    second.commit(step -> {
      String visible = which(out());
      seen.add(step + "=" + visible);
      List<String> hidden = hiddenComplete();
      Collections.sort(hidden);
      // The new output is complete in its work directory from step 1 on; the old one is kept until step 4.
      List<String> expected = switch (step) {
        case SUCCESS_WRITTEN -> List.of("new");
        case OLD_MOVED -> List.of("new", "old");
        case NEW_MOVED -> List.of("old");
      };
      assertEquals(expected, hidden, step + ": the complete outputs hidden beside out");
    });
    assertEquals(Arrays.asList("SUCCESS_WRITTEN=old", "OLD_MOVED=null", "NEW_MOVED=new"), seen);
    assertEquals("new", which(out()));
    // This commit is the ApplicationMaster's: its done mark stays until the job's owner finishes.
    assertEquals(List.of(".out" + OutputCommit.DONE + second.workDir().getName()
        .substring(second.workDir().getName().indexOf(OutputCommit.NEW) + OutputCommit.NEW.length())),
        names(dir(), true));
    second.finish();
    assertEquals(List.of(), names(dir(), true), "nothing hidden is left after the commit");
  }

  /**
   * A later attempt of a job whose ApplicationMaster died in the middle of the commit (resuming the same work
   * directory): starting over puts the previous output back and empties the work directory; its commit then
   * replaces the previous output as usual, and nothing is left beside the new one.
   */
  @ParameterizedTest
  @EnumSource(value = OutputCommit.FailPoint.class, names = {"CRASH_AFTER_SUCCESS", "CRASH_AFTER_OLD_MOVED"})
  void aLaterAttemptStartsOverFromThePreviousOutput(OutputCommit.FailPoint at) {
    OutputCommit first = overwritingJob();
    assertThrows(OutputCommit.SimulatedCrash.class, () -> first.commit(at));
    OutputCommit again = OutputCommit.resume(conf(), out(), first.workDir(), true);
    assertFalse(again.committed(), "the output is not this job's yet");
    assertEquals(at == OutputCommit.FailPoint.CRASH_AFTER_OLD_MOVED, again.startOver(), "whether it put it back");
    assertEquals("old", which(out()), at + ": the previous output is back while the later attempt runs");
    assertEquals(List.of(first.workDir().getName()), names(dir(), true));
    assertEquals(List.of(), names(first.workDir(), false), "the work directory is empty");
    writeParts(conf(), again, 1, 0);
    again.commit();
    assertEquals("new", which(out()));
    assertEquals(List.of(), names(dir(), true));
  }

  /** Every entry of {@code d}: name, length and modification time, to tell an untouched directory. */
  private List<String> snapshot(Path d) {
    try {
      List<String> entries = new ArrayList<>();
      for (FileStatus s : fs().listStatus(d)) {
        entries.add(s.getPath().getName() + " " + s.getLen() + " " + s.getModificationTime());
      }
      Collections.sort(entries);
      return entries;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A later attempt of a job whose ApplicationMaster died after the new output was in place (before deleting the
   * old one), or right after its whole commit: it learns that its commit completed, and neither it nor the
   * owner's finish touches the output; the finish removes what is left beside it.
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
  void aLaterAttemptFindsItsCompletedCommitAndLeavesTheOutputAlone(boolean wholeCommit) {
    OutputCommit first = overwritingJob();
    if (wholeCommit) {
      first.commit(step -> { }); // the ApplicationMaster's: the done mark stays for the owner
    } else {
      assertThrows(OutputCommit.SimulatedCrash.class, () -> first.commit(OutputCommit.FailPoint.CRASH_AFTER_NEW_MOVED));
    }
    assertEquals("new", which(out()));
    List<String> before = snapshot(out());
    OutputCommit again = OutputCommit.resume(conf(), out(), first.workDir(), true);
    assertTrue(again.committed(), "the later attempt sees its job's commit done");
    assertThrows(IllegalStateException.class, again::commit, "a completed commit is not run again");
    assertEquals(before, snapshot(out()), "the output is untouched");
    assertFalse(names(dir(), true).isEmpty(), "the done mark is there until the owner finishes");
    OutputCommit owner = OutputCommit.resume(conf(), out(), first.workDir(), true);
    owner.finish();
    assertEquals(before, snapshot(out()), "finishing does not touch the output");
    assertEquals("new", which(out()));
    assertEquals(List.of(), names(dir(), true), "neither the old output nor the mark is left");
  }

  /**
   * A job that failed (its rename refused) or aborted deleted its work directory as a committed job's rename does:
   * a later attempt must not take that for a completed commit.
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
  void aFailedOrAbortedJobIsNotTakenForCommitted(boolean failedRename) {
    OutputCommit first = overwritingJob();
    if (failedRename) {
      assertThrows(UncheckedIOException.class, () -> first.commit(OutputCommit.FailPoint.FAIL_MOVE_NEW));
    } else {
      first.abort();
    }
    UncheckedIOException e = assertThrows(UncheckedIOException.class,
        () -> OutputCommit.resume(conf(), out(), first.workDir(), true));
    assertTrue(e.getMessage().contains("is missing"), e.getMessage());
    assertEquals("old", which(out()));
    assertEquals(List.of(), names(dir(), true));
  }

  @Test
  void crashWithoutAPreviousOutputLeavesNothingVisibleAndIsCleaned() {
    OutputCommit job = OutputCommit.begin(conf(), out(), false, deadOwner());
    writeParts(conf(), job, 1, 0);
    assertThrows(OutputCommit.SimulatedCrash.class, () -> job.commit(OutputCommit.FailPoint.CRASH_AFTER_SUCCESS));
    assertFalse(exists(out()));
    // Without a previous output a complete work directory is not promoted: it was never committed.
    OutputCommit next = OutputCommit.begin(conf(), out(), false);
    assertFalse(exists(out()));
    assertEquals(List.of(next.workDir().getName()), names(dir(), true));
    next.abort();
  }

  /** A rename onto an existing directory moves the source into it (HDFS, the local FileSystem): never done. */
  @Test
  void anOutputThatAppearedWhileTheJobRanIsNotWrittenInto() {
    OutputCommit job = OutputCommit.begin(conf(), out(), false);
    writeParts(conf(), job, 1, 0);
    oldOutput(); // another writer
    UncheckedIOException e = assertThrows(UncheckedIOException.class, job::commit);
    assertTrue(e.getMessage().contains("appeared while the job ran"), e.getMessage());
    assertEquals("old", which(out()));
    assertEquals(List.of(), names(dir(), true));
  }

  @Test
  void leftoversOfLiveProcessesAndOtherHostsAreNotTouched() throws IOException {
    oldOutput();
    OutputCommit live = OutputCommit.begin(conf(), out(), true);
    writeParts(conf(), live, 1, 0);
    String otherHost = ".out" + OutputCommit.NEW + "999999999@another.host-abcdef12";
    assertTrue(fs().mkdirs(new Path(dir(), otherHost)));
    OutputCommit other = OutputCommit.begin(conf(), out(), true);
    List<String> hidden = names(dir(), true);
    assertTrue(hidden.contains(live.workDir().getName()), hidden.toString());
    assertTrue(hidden.contains(otherHost), hidden.toString());
    assertEquals(3, hidden.size(), hidden.toString());
    other.abort();
    live.commit();
    assertEquals("new", which(out()));
  }

  @Test
  void abortAfterTheOldWasMovedRestoresIt() {
    // The YARN client aborts when the ApplicationMaster died between its two renames.
    oldOutput();
    OutputCommit job = OutputCommit.begin(conf(), out(), true);
    writeParts(conf(), job, 1, 0);
    assertThrows(OutputCommit.SimulatedCrash.class, () -> job.commit(OutputCommit.FailPoint.CRASH_AFTER_OLD_MOVED));
    assertNull(which(out()));
    job.abort();
    assertEquals("old", which(out()));
    assertEquals(List.of(), names(dir(), true));
  }
}
