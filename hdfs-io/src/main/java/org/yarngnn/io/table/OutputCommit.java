package org.yarngnn.io.table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ShutdownHookManager;

/**
 * An output directory {@code OUT} written so that it is complete or absent, and replaced safely at every instant.
 *
 * <p>The protocol. Every job has an id {@code PID@HOST-RANDOM} (the process and host that began it). Part files
 * and then {@code _SUCCESS} are written in the hidden sibling work directory {@code .OUT.yarn-gnn-new-ID}
 * ({@link #workDir()}). {@link #commit()}:
 * <ol>
 *   <li>writes {@code _SUCCESS} into the work directory (the new output is now complete);</li>
 *   <li>if {@code OUT} exists (only with overwrite), renames it to {@code .OUT.yarn-gnn-old-ID};</li>
 *   <li>renames the work directory to {@code OUT} (on failure, renames the old one back);</li>
 *   <li>deletes {@code .OUT.yarn-gnn-old-ID}.</li>
 * </ol>
 * A reader therefore sees the old complete output or the new complete output (and, for the instant between the
 * two renames, no {@code OUT}), never a mixture and never parts without {@code _SUCCESS}. A crash at any step
 * leaves one of them complete under a name that says which it is, and the next {@link #begin} on the same
 * output finishes or rolls back what a dead job left, before it looks at {@code OUT}:
 * <ul>
 *   <li>an {@code -old-} directory with {@code OUT} present: step 4 did not run; it is deleted;</li>
 *   <li>an {@code -old-} directory with {@code OUT} absent: the crash came between steps 2 and 3; the job's
 *       {@code -new-} directory is promoted when it holds {@code _SUCCESS} (the job had decided to commit),
 *       otherwise the old output is restored;</li>
 *   <li>a {@code -new-} directory alone: the job died before committing; it is deleted.</li>
 * </ul>
 * A job counts as dead when its id names this host and a process id that is not alive here; directories of
 * jobs on other hosts, or of processes still alive, are never touched (a leftover of another host is hidden,
 * ignored by every reader, and can be removed by hand). {@link #abort()} deletes the job's work directory and
 * undoes its own step 2 if step 3 did not happen; it never deletes {@code OUT}. A local run also calls
 * {@link #abortOnExit()}, so a killed JVM (SIGTERM, Ctrl-C) removes its work directory; after {@code kill -9}
 * the next begin does. One writer per output at a time: two jobs committing to the same {@code OUT} at once are
 * not supported.
 *
 * <p>The done mark. A job whose commit runs in another process than the one that began it (a YARN job: the client
 * begins, the ApplicationMaster commits) may lose that process after its commit completed and before it said so;
 * YARN then starts another attempt, which must learn that this job's output is already in place, not run the job
 * again or fail. A missing work directory alone does not say so: a job that aborted (deleting its work directory)
 * and died before it reported leaves the same. So the commit creates an empty file {@code .OUT.yarn-gnn-done-ID}
 * just before step 3; the job's commit completed exactly when that mark exists and its work directory does not
 * ({@link #committed()}): step 3 is what removes the work directory's name, and every other path that deletes the
 * work directory (a failed commit, {@link #abort()}, the recovery of a dead job) deletes the mark first, and keeps
 * the work directory when it could not. {@link #commit(Consumer)} (the ApplicationMaster's) leaves the mark for the
 * job's owner, who removes it with {@link #finish()} once it learned the outcome; {@link #commit()} (a run in one
 * process) removes it itself. A mark beside the output, rather than the job's id written into {@code _SUCCESS}
 * (as Hadoop's S3A committers write a JSON summary), because the contract promises an empty {@code _SUCCESS};
 * a file created and closed on HDFS is durable before the rename that follows it, so the order holds after any
 * crash. Leftover marks of dead jobs are deleted by the next begin; a mark is hidden, ignored by every reader.
 */
public final class OutputCommit {
  public static final String SUCCESS = "_SUCCESS";
  /** The infix of a job's work directory: {@code .OUT.yarn-gnn-new-ID}. */
  static final String NEW = ".yarn-gnn-new-";
  /** The infix of a replaced output awaiting deletion: {@code .OUT.yarn-gnn-old-ID}. */
  static final String OLD = ".yarn-gnn-old-";
  /** The infix of a job's done mark: {@code .OUT.yarn-gnn-done-ID} (class comment). */
  static final String DONE = ".yarn-gnn-done-";

  /**
   * The points between the steps of {@link #commit()}, where {@link #commit(Consumer)} calls its hook: the test
   * hooks stop a commit there as a crash would (an ApplicationMaster halted in the middle of its commit).
   */
  public enum Step {
    /** After step 1: the work directory is complete, {@code OUT} untouched. */
    SUCCESS_WRITTEN,
    /** After step 2: {@code OUT} moved to the old name (when there was one), the new one not yet in place. */
    OLD_MOVED,
    /** After step 3: the new output in place, the old not yet deleted. */
    NEW_MOVED
  }

  /** Test hook: where {@link #commit(FailPoint)} stops, as a crash (nothing cleaned) or a failed rename. */
  enum FailPoint {
    /** Crash after step 1: the work directory is complete, {@code OUT} untouched. */
    CRASH_AFTER_SUCCESS(Step.SUCCESS_WRITTEN),
    /** Crash after step 2: {@code OUT} moved to the old name, the new one not yet in place. */
    CRASH_AFTER_OLD_MOVED(Step.OLD_MOVED),
    /** Crash after step 3: the new output in place, the old not yet deleted. */
    CRASH_AFTER_NEW_MOVED(Step.NEW_MOVED),
    /** Step 2's rename fails. */
    FAIL_MOVE_OLD(null),
    /** Step 3's rename fails. */
    FAIL_MOVE_NEW(null);

    /** The step a crash comes after; null for a failed rename. */
    final Step crashAfter;

    FailPoint(Step crashAfter) {
      this.crashAfter = crashAfter;
    }
  }

  /** What a {@link FailPoint} crash throws: the JVM "dies" there, with nothing cleaned up. */
  static final class SimulatedCrash extends Error {
    SimulatedCrash(FailPoint at) {
      super("simulated crash at " + at);
    }
  }

  private final FileSystem fs;
  private final Path outputDir;
  private final Path workDir;
  private final Path oldDir;
  private final Path doneMark;
  private final boolean overwrite;
  private boolean done;
  private Runnable exitHook;

  private OutputCommit(FileSystem fs, Path outputDir, Path workDir, boolean overwrite) {
    this.fs = fs;
    this.outputDir = outputDir;
    this.workDir = workDir;
    String id = workDir.getName().substring(workDir.getName().indexOf(NEW) + NEW.length());
    this.oldDir = new Path(outputDir.getParent(), "." + outputDir.getName() + OLD + id);
    this.doneMark = new Path(outputDir.getParent(), "." + outputDir.getName() + DONE + id);
    this.overwrite = overwrite;
  }

  /**
   * Prepares to write {@code outputDir}, after recovering what a dead job left beside it (see the class
   * comment). An existing path is refused unless {@code overwrite}, in which case it is replaced only at
   * {@link #commit()}: a job that fails first leaves the previous output as it was.
   */
  public static OutputCommit begin(Configuration conf, Path outputDir, boolean overwrite) {
    return begin(conf, outputDir, overwrite, thisProcess());
  }

  /** {@link #begin} as the job {@code owner} ({@code PID@HOST}); tests pose as a dead process. */
  static OutputCommit begin(Configuration conf, Path outputDir, boolean overwrite, String owner) {
    try {
      FileSystem fs = outputDir.getFileSystem(conf);
      Path out = fs.makeQualified(outputDir);
      if (out.getParent() == null) {
        throw new InputException(outputDir + ": cannot write output to a file system root");
      }
      recover(fs, out);
      if (fs.exists(out) && !overwrite) {
        throw new InputException(outputDir + ": output exists (use --overwrite)");
      }
      Path work = new Path(out.getParent(), "." + out.getName() + NEW + owner + "-"
          + UUID.randomUUID().toString().substring(0, 8).toLowerCase(Locale.ROOT));
      if (!fs.mkdirs(work)) {
        throw new IOException("could not create " + work);
      }
      return new OutputCommit(fs, out, work, overwrite);
    } catch (IOException e) {
      throw new UncheckedIOException("preparing output " + outputDir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Takes over a commit that {@link #begin} started elsewhere (the client begins, checking the output before
   * anything runs; the ApplicationMaster commits once every worker wrote its part). A later attempt of a job whose
   * commit already completed gets one that says so ({@link #committed()}), already done; a missing work directory
   * without this job's done mark is an error.
   */
  public static OutputCommit resume(Configuration conf, Path outputDir, Path workDir, boolean overwrite) {
    try {
      FileSystem fs = outputDir.getFileSystem(conf);
      Path out = fs.makeQualified(outputDir);
      Path work = fs.makeQualified(workDir);
      if (!work.getName().startsWith("." + out.getName() + NEW) || !work.getParent().equals(out.getParent())) {
        throw new IOException(workDir + " is not a work directory of " + outputDir);
      }
      OutputCommit c = new OutputCommit(fs, out, work, overwrite);
      if (!fs.isDirectory(work)) {
        if (!c.committed()) {
          throw new IOException("work directory " + workDir + " is missing");
        }
        c.done = true;
      }
      return c;
    } catch (IOException e) {
      throw new UncheckedIOException("resuming output " + outputDir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Removes this job's work directory (as {@link #abort()}) when the JVM exits before {@link #commit()} or
   * {@link #abort()} ran: for runs whose every step is in this JVM ({@code --local}). Runs before Hadoop closes
   * its FileSystems. Returns this.
   */
  public synchronized OutputCommit abortOnExit() {
    if (exitHook == null && !done) {
      exitHook = this::abortFromHook;
      ShutdownHookManager.get().addShutdownHook(exitHook, FileSystem.SHUTDOWN_HOOK_PRIORITY + 10);
    }
    return this;
  }

  private void abortFromHook() {
    synchronized (this) {
      if (!done) {
        abort();
      }
    }
  }

  /**
   * Starts this job's commit over, in a later attempt of a job whose earlier attempt died (its ApplicationMaster
   * lost): empties the work directory (what that attempt wrote there), and puts the previous output back when that
   * attempt died in the middle of its commit, with the output moved aside and the new one not in place: readers
   * see the previous output while this attempt runs, and this attempt's commit replaces it as usual. True when
   * it put the previous output back.
   */
  public boolean startOver() {
    try {
      boolean putBack = fs.exists(oldDir) && !fs.exists(outputDir);
      if (!dropMark()) {
        throw new IOException("could not delete " + doneMark);
      }
      if (!undoMoveOld()) {
        throw new IOException("could not put the previous output back from " + oldDir);
      }
      for (FileStatus f : fs.listStatus(workDir)) {
        if (!fs.delete(f.getPath(), true)) {
          throw new IOException("could not delete " + f.getPath());
        }
      }
      return putBack;
    } catch (IOException e) {
      throw new UncheckedIOException("starting the commit of " + outputDir + " over: " + e.getMessage(), e);
    }
  }

  /** Where the part files go until commit. */
  public Path workDir() {
    return workDir;
  }

  public Path outputDir() {
    return outputDir;
  }

  /** {@code workDir()/part-NNNNN.<ext>}. */
  public Path partFile(int part, TableFormat format) {
    return new Path(workDir, partName(part, format));
  }

  public static String partName(int part, TableFormat format) {
    return String.format(Locale.ROOT, "part-%05d.%s", part, format.extension());
  }

  /** Completes the work directory with {@code _SUCCESS} and puts it in place of the output (class comment). */
  public void commit() {
    commit(null, step -> { }, false);
  }

  /**
   * {@link #commit()} in a process other than the job's owner (the ApplicationMaster): it leaves the done mark for
   * a later attempt to find ({@link #committed()}) and the owner to remove ({@link #finish()}). Calls
   * {@code between} after each of the first three steps: for the test hook that halts the ApplicationMaster in
   * the middle of a commit.
   */
  public void commit(Consumer<Step> between) {
    commit(null, between, true);
  }

  /** {@link #commit()} stopped at {@code failAt}: a crash after a step, or a failed rename. */
  void commit(FailPoint failAt) {
    commit(failAt, step -> {
      if (failAt != null && failAt.crashAfter == step) {
        throw new SimulatedCrash(failAt);
      }
    }, false);
  }

  /**
   * True when this job's commit completed: its done mark exists and its work directory does not (class comment).
   * For a later attempt of a job whose previous attempt may have died after committing, and for its owner.
   */
  public boolean committed() {
    try {
      return fs.exists(doneMark) && !fs.exists(workDir);
    } catch (IOException e) {
      throw new UncheckedIOException("reading the commit of " + outputDir + ": " + e.getMessage(), e);
    }
  }

  /**
   * For the job's owner once the job succeeded: completes step 4 if the committing process died before it, and
   * removes the done mark. Never touches the output.
   */
  public synchronized void finish() {
    done = true;
    removeExitHook();
    try {
      if (!fs.exists(workDir) && fs.exists(outputDir) && fs.exists(oldDir)) {
        deleteQuietly(oldDir);
      }
    } catch (IOException ignored) {
      // Best effort: a leftover is deleted by the next begin.
    }
    dropMark();
  }

  private synchronized void commit(FailPoint failAt, Consumer<Step> between, boolean keepMark) {
    if (done) {
      throw new IllegalStateException("output " + outputDir + " already committed or aborted");
    }
    done = true;
    removeExitHook();
    boolean movedOld = false;
    try {
      fs.create(new Path(workDir, SUCCESS), true).close();
      between.accept(Step.SUCCESS_WRITTEN);
      if (fs.exists(outputDir)) {
        // Renaming onto an existing directory would nest the work directory inside it.
        if (!overwrite) {
          throw new IOException(outputDir + " appeared while the job ran");
        }
        if (failAt == FailPoint.FAIL_MOVE_OLD || !fs.rename(outputDir, oldDir)) {
          throw new IOException("could not rename the previous " + outputDir + " to " + oldDir);
        }
        movedOld = true;
      }
      between.accept(Step.OLD_MOVED);
      fs.create(doneMark, true).close();
      if (failAt == FailPoint.FAIL_MOVE_NEW || !fs.rename(workDir, outputDir)) {
        throw new IOException("could not rename " + workDir + " to " + outputDir);
      }
      movedOld = false;
      between.accept(Step.NEW_MOVED);
      if (fs.exists(oldDir)) {
        deleteQuietly(oldDir); // a leftover is deleted by the next begin
      }
      if (!keepMark) {
        dropMark();
      }
    } catch (IOException e) {
      String restore = "";
      if (movedOld) {
        restore = restoreOld() ? "; the previous output is restored" : "; the previous output is kept as " + oldDir;
      }
      deleteWork();
      throw new UncheckedIOException("committing output " + outputDir + ": " + e.getMessage() + restore, e);
    }
  }

  private boolean restoreOld() {
    try {
      return !fs.exists(outputDir) && fs.rename(oldDir, outputDir);
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Deletes the work directory and undoes this job's rename of the previous output if the new one did not take
   * its place; never deletes the output path. Safe to call more than once, and after a failed commit.
   */
  public synchronized void abort() {
    done = true;
    removeExitHook();
    deleteWork();
    try {
      undoMoveOld();
    } catch (IOException ignored) {
      // Best effort: the next begin recovers what is left.
    }
  }

  /**
   * Undoes this job's step 2 if its step 3 did not happen (the previous output back in place), else deletes what
   * step 4 did not; false when the previous output could not be put back.
   */
  private boolean undoMoveOld() throws IOException {
    if (!fs.exists(oldDir)) {
      return true;
    }
    if (fs.exists(outputDir)) {
      deleteQuietly(oldDir);
      return true;
    }
    return fs.rename(oldDir, outputDir);
  }

  /** Deletes the done mark; true when it is gone. */
  private boolean dropMark() {
    try {
      return fs.delete(doneMark, false) || !fs.exists(doneMark);
    } catch (IOException e) {
      return false;
    }
  }

  /** Deletes the work directory, after the done mark: a mark without a work directory says committed. */
  private void deleteWork() {
    if (dropMark()) {
      deleteQuietly(workDir);
    }
  }

  private void removeExitHook() {
    if (exitHook != null) {
      try {
        ShutdownHookManager.get().removeShutdownHook(exitHook);
      } catch (IllegalStateException shuttingDown) {
        // The hook is running or about to: it sees done and does nothing.
      }
      exitHook = null;
    }
  }

  private void deleteQuietly(Path p) {
    try {
      fs.delete(p, true);
    } catch (IOException ignored) {
      // Best effort: a leftover hidden directory is ignored by every reader and recovered by the next begin.
    }
  }

  // ---- recovery ----------------------------------------------------------------------------------------------

  /** This process as a job owner: {@code PID@HOST}. */
  static String thisProcess() {
    return ProcessHandle.current().pid() + "@" + host();
  }

  private static String host() {
    String h;
    try {
      h = InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      h = "localhost";
    }
    // Only characters every FileSystem accepts in a name, and never '-' (it ends the owner in a directory name).
    return h.replaceAll("[^A-Za-z0-9.]", "_");
  }

  /** True when {@code owner} ({@code PID@HOST}) names this host and a process that is not alive. */
  static boolean isDead(String owner) {
    int at = owner.indexOf('@');
    if (at <= 0 || !owner.substring(at + 1).equals(host())) {
      return false;
    }
    try {
      long pid = Long.parseLong(owner.substring(0, at));
      return pid != ProcessHandle.current().pid() && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /**
   * The hidden siblings of jobs on {@code out} whose owner is dead, by job id: [new dir, old dir, done mark] (any
   * null).
   */
  private static Map<String, Path[]> deadJobs(FileSystem fs, Path out) throws IOException {
    Map<String, Path[]> jobs = new TreeMap<>();
    if (!fs.exists(out.getParent())) {
      return jobs;
    }
    String newPrefix = "." + out.getName() + NEW;
    String oldPrefix = "." + out.getName() + OLD;
    String donePrefix = "." + out.getName() + DONE;
    for (FileStatus s : fs.listStatus(out.getParent())) {
      String name = s.getPath().getName();
      int slot = name.startsWith(newPrefix) ? 0 : name.startsWith(oldPrefix) ? 1 : name.startsWith(donePrefix) ? 2 : -1;
      if (slot < 0) {
        continue;
      }
      String id = name.substring((slot == 0 ? newPrefix : slot == 1 ? oldPrefix : donePrefix).length());
      int dash = id.lastIndexOf('-');
      if (dash <= 0 || !isDead(id.substring(0, dash))) {
        continue;
      }
      jobs.computeIfAbsent(id, k -> new Path[3])[slot] = fs.makeQualified(s.getPath());
    }
    return jobs;
  }

  /** Finishes or rolls back what dead jobs left beside {@code out} (see the class comment). */
  static void recover(FileSystem fs, Path out) throws IOException {
    for (Path[] job : deadJobs(fs, out).values()) {
      Path newDir = job[0];
      Path oldDir = job[1];
      if (job[2] != null && !fs.delete(job[2], false) && fs.exists(job[2])) {
        // Before the work directory: a mark without one says the job committed (class comment).
        throw new IOException("could not delete " + job[2]);
      }
      if (oldDir != null && !fs.exists(out)) {
        boolean complete = newDir != null && fs.exists(new Path(newDir, SUCCESS));
        Path promote = complete ? newDir : oldDir;
        if (!fs.rename(promote, out)) {
          throw new IOException("could not recover " + out + " from " + promote);
        }
        if (complete) {
          newDir = null;
        } else {
          oldDir = null;
        }
      }
      if (oldDir != null) {
        fs.delete(oldDir, true);
      }
      if (newDir != null) {
        fs.delete(newDir, true);
      }
    }
  }
}
