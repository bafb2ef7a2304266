package org.yarngnn.app.runtime;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.io.table.OutputCommit;

/**
 * Every fault a test can inject, read in one place: the {@code yarngnn.test.*} keys of a JVM's configuration (the
 * client's, which a job ships to its AM and containers), parsed once through the gate {@link TestHooks} ({@link
 * #NONE} in a JVM with hooks off) and matched here. {@link WorkerSession} applies a graph worker's at the start of
 * each phase; a role calls in only where the fault acts inside a phase.
 *
 * <ul>
 *   <li>{@value #WORKER_KEY} = {@code W@PHASE}: graph worker W dies at the start of PHASE (a phase label, or
 *       {@code layerK} for layer K only): in a container as a killed container dies (exit 137, not a word), in a
 *       thread with a failure naming this key. {@code kill:W@PHASE}: the same, by the first start of W only (its
 *       replacement, or the next set of workers, runs the phase again and lives). {@code stall:W@PHASE}: W stays
 *       alive but silent, as a peer in a deadlock, until the driver's round limit ends the job. {@code
 *       pause:W@layerK:DIR}: the first start of W stops in the middle of layer K (its rows sent, none received),
 *       writes {@code DIR/paused-PID} and waits, so a test can SIGKILL a container at a known point.
 *   <li>{@value #SLOW_WORKER_KEY} = {@code W:MS}: graph worker W sleeps MS before each asynchronous training epoch,
 *       so the others run ahead as far as the staleness bound lets them.
 *   <li>{@value #HALT_TENSOR_WORKER_AFTER_KEY} = N: tensor worker 0 dies on taking task N + 1 (a container halts,
 *       a thread drops its connections); {@value #SLOW_TENSOR_TASKS_KEY} = {@code N:MS}: every tensor worker's
 *       first N tasks take MS longer (cold containers, for the pool's growth).
 *   <li>{@value #HALT_AM_KEY} = TEXT: the first attempt's ApplicationMaster halts (exit 137, nothing cleaned or
 *       unregistered) when the job's status starts with TEXT. {@value #HALT_AM_IN_COMMIT_KEY} = STEP
 *       ({@code success-written}, {@code old-moved} or {@code new-moved}): the first attempt's ApplicationMaster
 *       halts in the middle of its output commit, right after that step ({@link OutputCommit.Step}).
 *   <li>{@value #STOP_AFTER_EPOCH_KEY} = N: the training driver fails (exit 1, as a kill would leave things) right
 *       after epoch N's checkpoint (synchronous training only). {@value #HOLD_AFTER_EPOCH_KEY} = {@code N:DIR}:
 *       the training driver, after epoch N, writes {@code DIR/held} and waits until {@code DIR/release} exists (at
 *       most ten minutes), so a test can read the running job's page at a known point instead of racing it.
 * </ul>
 */
public final class FaultHooks {
  public static final String WORKER_KEY = TestHooks.KEY_PREFIX + "halt-worker";
  public static final String SLOW_WORKER_KEY = TestHooks.KEY_PREFIX + "slow-worker";
  public static final String HALT_TENSOR_WORKER_AFTER_KEY = TestHooks.KEY_PREFIX + "halt-tensor-worker-after";
  public static final String SLOW_TENSOR_TASKS_KEY = TestHooks.KEY_PREFIX + "slow-tensor-tasks";
  public static final String HALT_AM_KEY = TestHooks.KEY_PREFIX + "halt-am-at";
  public static final String HALT_AM_IN_COMMIT_KEY = TestHooks.KEY_PREFIX + "halt-am-in-commit";
  public static final String STOP_AFTER_EPOCH_KEY = TestHooks.KEY_PREFIX + "stop-after-epoch";
  public static final String HOLD_AFTER_EPOCH_KEY = TestHooks.KEY_PREFIX + "hold-after-epoch";
  /**
   * The job setting that carried {@value #WORKER_KEY} in job.xml before workers read the shipped configuration;
   * still refused by the CLI, as a {@code yarngnn.job.*} key passes its typo check unnoticed.
   */
  public static final String OLD_JOB_KEY = "yarngnn.job.halt-at";

  /** {@value #WORKER_KEY}'s value: an optional kind, the worker, the phase or layer, and pause's directory. */
  private static final Pattern WORKER_HOOK =
      Pattern.compile("(?:(halt|kill|stall|pause):)?(\\d+)@([a-z0-9-]+)(?::(.+))?");
  /** No fault: a real run. */
  public static final FaultHooks NONE = new FaultHooks(new Configuration(false));

  /** The graph worker fault's kind ({@code halt}, {@code kill}, {@code stall}, {@code pause}), or null. */
  private final String fault;
  private final int worker;
  /** The phase label or {@code layerK} the worker fault happens at. */
  private final String at;
  private final String pauseDir;
  private final long[] slowWorker;
  private final long haltTensorWorkerAfter;
  private final long[] slowTensorTasks;
  private final String haltAmAt;
  private final OutputCommit.Step haltAmInCommit;
  private final long stopAfterEpoch;
  private final long holdAfterEpoch;
  private final String holdDir;

  private FaultHooks(Configuration conf) {
    String w = TestHooks.get(conf, WORKER_KEY);
    Matcher m = WORKER_HOOK.matcher(w == null ? "" : w);
    boolean pause = m.matches() && "pause".equals(m.group(1));
    if (w != null && (!m.matches() || pause != (m.group(4) != null) || pause && !m.group(3).startsWith("layer"))) {
      throw new IllegalArgumentException("-D " + WORKER_KEY + " must be [kill:|stall:]WORKER@PHASE or "
          + "pause:WORKER@layerK:DIR, not " + w);
    }
    fault = w == null ? null : m.group(1) == null ? "halt" : m.group(1);
    worker = w == null ? -1 : Integer.parseInt(m.group(2));
    at = w == null ? null : m.group(3);
    pauseDir = w == null ? null : m.group(4);
    slowWorker = pair(conf, SLOW_WORKER_KEY, "WORKER:MS", -1);
    haltTensorWorkerAfter = TestHooks.getLong(conf, HALT_TENSOR_WORKER_AFTER_KEY, -1);
    slowTensorTasks = pair(conf, SLOW_TENSOR_TASKS_KEY, "N:MS", 0);
    haltAmAt = TestHooks.get(conf, HALT_AM_KEY);
    haltAmInCommit = commitStep(TestHooks.get(conf, HALT_AM_IN_COMMIT_KEY));
    stopAfterEpoch = TestHooks.getLong(conf, STOP_AFTER_EPOCH_KEY, 0);
    if (stopAfterEpoch < 0 || stopAfterEpoch > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("-D " + STOP_AFTER_EPOCH_KEY + " must be an epoch, not " + stopAfterEpoch);
    }
    String hold = TestHooks.get(conf, HOLD_AFTER_EPOCH_KEY);
    Matcher h = Pattern.compile("(\\d{1,9}):(.+)").matcher(hold == null ? "" : hold);
    if (hold != null && !h.matches()) {
      throw new IllegalArgumentException("-D " + HOLD_AFTER_EPOCH_KEY + " must be EPOCH:DIR, not " + hold);
    }
    holdAfterEpoch = hold == null ? 0 : Long.parseLong(h.group(1));
    holdDir = hold == null ? null : h.group(2);
  }

  /** The faults {@code conf} asks for; {@link #NONE} with hooks off. Throws on a malformed hook. */
  public static FaultHooks of(Configuration conf) {
    return TestHooks.enabled() ? new FaultHooks(conf) : NONE;
  }

  /** A commit step as {@value #HALT_AM_IN_COMMIT_KEY} names it ({@code old-moved}); null when unset. */
  private static OutputCommit.Step commitStep(String v) {
    if (v == null || v.isEmpty()) {
      return null;
    }
    for (OutputCommit.Step s : OutputCommit.Step.values()) {
      if (v.equals(stepName(s))) {
        return s;
      }
    }
    throw new IllegalArgumentException("-D " + HALT_AM_IN_COMMIT_KEY + " must be one of "
        + java.util.Arrays.stream(OutputCommit.Step.values()).map(FaultHooks::stepName).toList() + ", not " + v);
  }

  private static String stepName(OutputCommit.Step s) {
    return s.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }

  /** A hook {@code A:B} of two numbers; {@code {unset, 0}} when not given. */
  private static long[] pair(Configuration conf, String key, String format, long unset) {
    String v = TestHooks.get(conf, key);
    if (v == null || v.isEmpty()) {
      return new long[] {unset, 0};
    }
    String[] p = v.split(":");
    try {
      if (p.length == 2) {
        return new long[] {Long.parseLong(p[0].trim()), Long.parseLong(p[1].trim())};
      }
    } catch (NumberFormatException e) {
      // the message below
    }
    throw new IllegalArgumentException("-D " + key + " must be " + format + ", not " + v);
  }

  /**
   * At the start of phase {@code c} on start {@code attempt} (0 the first) of graph worker {@code index}: dies,
   * stalls, or returns.
   */
  void atPhaseStart(int index, int attempt, PhaseCommand c) throws InterruptedException {
    if (fault == null || index != worker || fault.equals("pause")
        || !(at.equals(c.phase().label()) || c.phase() == Phase.LAYER && at.equals("layer" + c.layer()))) {
      return;
    }
    if (fault.equals("stall")) {
      Thread.sleep(Long.MAX_VALUE);
    }
    if (fault.equals("halt") || attempt == 0) {
      haltContainer();
      throw new IllegalStateException("worker " + index + " halted by " + WORKER_KEY);
    }
  }

  /** In the middle of layer {@code k} of start {@code attempt} of graph worker {@code index}: pauses, or returns. */
  public void inLayer(int index, int attempt, int k) throws java.io.IOException, InterruptedException {
    if ("pause".equals(fault) && index == worker && attempt == 0 && at.equals("layer" + k)) {
      Path dir = Files.createDirectories(Path.of(pauseDir));
      Files.writeString(dir.resolve("paused-" + ProcessHandle.current().pid()), "");
      Thread.sleep(Long.MAX_VALUE);
    }
  }

  /** How long graph worker {@code index} sleeps before each asynchronous training epoch; 0 for most. */
  public long epochDelayMillis(int index) {
    return index == slowWorker[0] ? slowWorker[1] : 0;
  }

  /**
   * Before tensor worker {@code id} runs its {@code nth} task (from 1): sleeps while the task is one of the slow
   * first ones; true when the worker is to die now instead, with the task unanswered.
   */
  public boolean tensorWorkerDiesAt(int id, long nth) throws InterruptedException {
    if (id == 0 && haltTensorWorkerAfter >= 0 && nth > haltTensorWorkerAfter) {
      return true;
    }
    if (nth <= slowTensorTasks[0]) {
      Thread.sleep(slowTensorTasks[1]);
    }
    return false;
  }

  /** As the ApplicationMaster of attempt {@code amAttempt} publishes {@code status}: halts it, or returns. */
  public void atAmStatus(String status, int amAttempt, java.io.PrintStream log) {
    if (haltAmAt != null && status != null && status.startsWith(haltAmAt) && amAttempt == 1
        && System.getenv("CONTAINER_ID") != null) {
      log.println("yarn-gnn: halting the ApplicationMaster at '" + status + "' (test hook " + HALT_AM_KEY + ")");
      log.flush();
      haltContainer();
    }
  }

  /** Right after {@code step} of the output commit of attempt {@code amAttempt}'s ApplicationMaster: halts it. */
  public void inCommit(OutputCommit.Step step, int amAttempt, java.io.PrintStream log) {
    if (step == haltAmInCommit && amAttempt == 1 && System.getenv("CONTAINER_ID") != null) {
      log.println("yarn-gnn: halting the ApplicationMaster in the output commit after " + stepName(step)
          + " (test hook " + HALT_AM_IN_COMMIT_KEY + ")");
      log.flush();
      haltContainer();
    }
  }

  /** After training epoch {@code epoch} (and its checkpoint): fails the driver, holds it, or returns. */
  public void afterEpoch(int epoch) throws java.io.IOException, InterruptedException {
    if (stopAfterEpoch > 0 && epoch == stopAfterEpoch) {
      throw new IllegalStateException("stopped after epoch " + epoch + " by the test hook " + STOP_AFTER_EPOCH_KEY);
    }
    if (holdAfterEpoch > 0 && epoch == holdAfterEpoch) {
      Path dir = Files.createDirectories(Path.of(holdDir));
      Files.writeString(dir.resolve("held"), "");
      long until = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(10);
      while (!Files.exists(dir.resolve("release")) && System.nanoTime() < until) {
        Thread.sleep(50);
      }
    }
  }

  /** In a container, dies as a killed container does: exit 137, no shutdown hooks, nothing said. */
  public static void haltContainer() {
    if (System.getenv("CONTAINER_ID") != null) {
      Runtime.getRuntime().halt(137);
    }
  }
}
