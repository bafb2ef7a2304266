package org.yarngnn.app.runtime;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;

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
 *       unregistered) when the job's status starts with TEXT.
 *   <li>{@value #STOP_AFTER_EPOCH_KEY} = N: the training driver fails (exit 1, as a kill would leave things) right
 *       after epoch N's checkpoint (synchronous training only).
 * </ul>
 */
public final class FaultHooks {
  public static final String WORKER_KEY = TestHooks.KEY_PREFIX + "halt-worker";
  public static final String SLOW_WORKER_KEY = TestHooks.KEY_PREFIX + "slow-worker";
  public static final String HALT_TENSOR_WORKER_AFTER_KEY = TestHooks.KEY_PREFIX + "halt-tensor-worker-after";
  public static final String SLOW_TENSOR_TASKS_KEY = TestHooks.KEY_PREFIX + "slow-tensor-tasks";
  public static final String HALT_AM_KEY = TestHooks.KEY_PREFIX + "halt-am-at";
  public static final String STOP_AFTER_EPOCH_KEY = TestHooks.KEY_PREFIX + "stop-after-epoch";
  /**
   * The job setting that carried {@value #WORKER_KEY} in job.xml before workers read the shipped configuration;
   * still refused by the CLI, as a {@code yarngnn.job.*} key passes its typo check unnoticed.
   */
  public static final String OLD_JOB_KEY = "yarngnn.job.halt-at";

  /** No fault: a real run. */
  public static final FaultHooks NONE = new FaultHooks(null, -1, 0, -1, 0, 0, null, 0);

  private enum WorkerFault { HALT, KILL, STALL, PAUSE }

  /** The graph worker fault, or null; then {@link #worker} is -1. */
  private final WorkerFault fault;
  private final int worker;
  /** The phase label or {@code layerK} it happens at. */
  private final String at;
  /** Where {@code pause} writes its file. */
  private final String pauseDir;
  private final int slowWorker;
  private final long slowWorkerMillis;
  private final long haltTensorWorkerAfter;
  private final long slowTensorTasks;
  private final long slowTensorMillis;
  private final String haltAmAt;
  private final long stopAfterEpoch;

  private FaultHooks(String workerHook, int slowWorker, long slowWorkerMillis, long haltTensorWorkerAfter,
      long slowTensorTasks, long slowTensorMillis, String haltAmAt, long stopAfterEpoch) {
    if (workerHook == null) {
      fault = null;
      worker = -1;
      at = null;
      pauseDir = null;
    } else {
      int sign = workerHook.indexOf('@');
      int colon = workerHook.indexOf(':');
      boolean named = colon >= 0 && colon < sign; // kill:, stall:, pause:
      String rest = workerHook.substring(sign + 1);
      try {
        fault = named ? WorkerFault.valueOf(workerHook.substring(0, colon).toUpperCase(java.util.Locale.ROOT))
            : WorkerFault.HALT;
        worker = Integer.parseInt(workerHook.substring(named ? colon + 1 : 0, sign).trim());
      } catch (IllegalArgumentException | StringIndexOutOfBoundsException e) {
        throw new IllegalArgumentException("-D " + WORKER_KEY + " must be [kill:|stall:]WORKER@PHASE or "
            + "pause:WORKER@layerK:DIR, not " + workerHook);
      }
      boolean pause = fault == WorkerFault.PAUSE;
      at = pause && rest.contains(":") ? rest.substring(0, rest.indexOf(':')) : rest;
      pauseDir = pause && rest.contains(":") ? rest.substring(rest.indexOf(':') + 1) : null;
      if (pause && (pauseDir == null || !at.startsWith("layer"))) {
        throw new IllegalArgumentException("-D " + WORKER_KEY + " must be pause:WORKER@layerK:DIR, not "
            + workerHook);
      }
    }
    this.slowWorker = slowWorker;
    this.slowWorkerMillis = slowWorkerMillis;
    this.haltTensorWorkerAfter = haltTensorWorkerAfter;
    this.slowTensorTasks = slowTensorTasks;
    this.slowTensorMillis = slowTensorMillis;
    this.haltAmAt = haltAmAt;
    if (stopAfterEpoch < 0 || stopAfterEpoch > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("-D " + STOP_AFTER_EPOCH_KEY + " must be an epoch, not " + stopAfterEpoch);
    }
    this.stopAfterEpoch = stopAfterEpoch;
  }

  /** The faults {@code conf} asks for; {@link #NONE} with hooks off. Throws on a malformed hook. */
  public static FaultHooks of(Configuration conf) {
    if (!TestHooks.enabled()) {
      return NONE;
    }
    long[] slowWorker = pair(conf, SLOW_WORKER_KEY, "WORKER:MS", -1);
    long[] slowTensor = pair(conf, SLOW_TENSOR_TASKS_KEY, "N:MS", 0);
    return new FaultHooks(TestHooks.get(conf, WORKER_KEY), (int) slowWorker[0], slowWorker[1],
        TestHooks.getLong(conf, HALT_TENSOR_WORKER_AFTER_KEY, -1), slowTensor[0], slowTensor[1],
        TestHooks.get(conf, HALT_AM_KEY), TestHooks.getLong(conf, STOP_AFTER_EPOCH_KEY, 0));
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
    if (fault == null || index != worker || fault == WorkerFault.PAUSE
        || !(at.equals(c.phase().label()) || c.phase() == Phase.LAYER && at.equals("layer" + c.layer()))) {
      return;
    }
    if (fault == WorkerFault.STALL) {
      Thread.sleep(Long.MAX_VALUE);
    }
    if (fault == WorkerFault.HALT || attempt == 0) {
      haltContainer();
      throw new IllegalStateException("worker " + index + " halted by " + WORKER_KEY);
    }
  }

  /** In the middle of layer {@code k} of start {@code attempt} of graph worker {@code index}: pauses, or returns. */
  public void inLayer(int index, int attempt, int k) throws java.io.IOException, InterruptedException {
    if (fault == WorkerFault.PAUSE && index == worker && attempt == 0 && at.equals("layer" + k)) {
      Path dir = Files.createDirectories(Path.of(pauseDir));
      Files.writeString(dir.resolve("paused-" + ProcessHandle.current().pid()), "");
      Thread.sleep(Long.MAX_VALUE);
    }
  }

  /** How long graph worker {@code index} sleeps before each asynchronous training epoch; 0 for most. */
  public long epochDelayMillis(int index) {
    return index == slowWorker ? slowWorkerMillis : 0;
  }

  /**
   * Before tensor worker {@code id} runs its {@code nth} task (from 1): sleeps while the task is one of the slow
   * first ones; true when the worker is to die now instead, with the task unanswered.
   */
  public boolean tensorWorkerDiesAt(int id, long nth) throws InterruptedException {
    if (id == 0 && haltTensorWorkerAfter >= 0 && nth > haltTensorWorkerAfter) {
      return true;
    }
    if (nth <= slowTensorTasks) {
      Thread.sleep(slowTensorMillis);
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

  /** After training epoch {@code epoch} (and its checkpoint): fails the driver, or returns. */
  public void afterEpoch(int epoch) {
    if (stopAfterEpoch > 0 && epoch == stopAfterEpoch) {
      throw new IllegalStateException("stopped after epoch " + epoch + " by the test hook " + STOP_AFTER_EPOCH_KEY);
    }
  }

  /** In a container, dies as a killed container does: exit 137, no shutdown hooks, nothing said. */
  public static void haltContainer() {
    if (System.getenv("CONTAINER_ID") != null) {
      Runtime.getRuntime().halt(137);
    }
  }
}
