package org.yarngnn.app.runtime;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import org.yarngnn.app.transport.Hello;
import org.yarngnn.app.transport.InboundQueue;
import org.yarngnn.app.transport.PeerConnection;
import org.yarngnn.app.transport.PeerTable;

/**
 * The rounds of a job that replaces lost graph workers. A round goes as {@link DriverSession#round} does, except
 * that a lost worker (its control connection closed, or its container reported lost, preempted, killed or failed)
 * does not end the job while the job has losses left ({@code --max-worker-failures}, counted over the whole job):
 *
 * <ol>
 *   <li>the driver asks for a replacement at once and waits until every other worker answered the round, either
 *       done or {@link PhaseAborted} (a worker whose peer was lost stops the phase and closes its own peer
 *       connections, so that every worker still exchanging notices and stops too: nobody waits forever);</li>
 *   <li>the replacement registers with a {@link Hello} on a connection that proved the lost worker's identity
 *       (the job's secret and that index; any other registration is refused as in the first registration);</li>
 *   <li>every worker receives the new peer table and runs {@link Phase#REJOIN} at a new generation: all peer
 *       connections are made anew (a worker accepts a connection for an index only from that proven worker and
 *       only at a newer generation, and drops whatever an older connection still delivers), and each worker gets
 *       ready to resume where the {@link Resume} says;</li>
 *   <li>the rounds the resume point needs run, then the interrupted round runs again, on every worker.</li>
 * </ol>
 * A worker's own failure report (bad input, a number check) is not a loss: it ends the job as before. A loss
 * while workers rejoin, more losses than allowed, or a loss where the job cannot resume fail the job with one
 * line. A worker lost while it reports its figures at the end ({@link Phase#EXIT}) had written its part: it is not
 * replaced, its figures are missing.
 */
public final class WorkerRecovery {
  /**
   * Where a job resumes when {@code interrupted} lost a worker: the {@link Phase#REJOIN} command (built with
   * {@code generation}) followed by the rounds to run before {@code interrupted} runs again; null when the job
   * cannot resume in that phase (the reason is then the round's).
   */
  @FunctionalInterface
  public interface Resume {
    List<PhaseCommand> steps(PhaseCommand interrupted, int generation);

    /**
     * The answers of {@code step}, one of the rounds {@link #steps} named, run to catch up; throws when they are
     * not what the job had before the loss (nothing to check by default).
     */
    default void caughtUp(PhaseCommand step, List<PhaseResult> results) throws Exception {}
  }

  private static final long REGISTER_TIMEOUT_MS = TimeUnit.MINUTES.toMillis(10);

  private final DriverSession session;
  private final ReplaceableWorkers launcher;
  private final int maxFailures;
  private final PrintStream log;
  private final int[] attempt;
  /** Registrations that came while a round was still being collected: a replacement may be quick. */
  private final List<InboundQueue.Event> earlyHellos = new ArrayList<>();
  private int failures;
  private int generation;
  private double recoverySeconds;

  public WorkerRecovery(DriverSession session, ReplaceableWorkers launcher, int maxFailures) {
    this.session = session;
    this.launcher = launcher;
    this.maxFailures = maxFailures;
    this.log = session.log();
    this.attempt = new int[session.workers()];
    launcher.replaceLosses();
  }

  /** Workers lost (and replaced) so far. */
  public int failures() {
    return failures;
  }

  /** Seconds from each loss until its replacement had rejoined, summed. */
  public double recoverySeconds() {
    return recoverySeconds;
  }

  /** One round of {@code command}, replacing lost workers and running it again; the results by worker. */
  public List<PhaseResult> round(PhaseCommand command, float after, String label,
      BiPredicate<PhaseCommand, PhaseResult> expected, Resume resume) throws Exception {
    while (true) {
      session.report(after - 0.01f, label);
      // Where the job cannot resume, the first loss ends it at once: workers still waiting for the lost one (to
      // connect, say) need not be waited for.
      boolean resumable = command.phase() == Phase.EXIT || resume.steps(command, generation + 1) != null;
      Answers a = collect(command, expected, false, resumable);
      if (a.lost.isEmpty() && a.aborted.length() > 0) {
        // Stopped for a peer that is not lost (a connection that failed between live workers): not a loss this
        // job replaces.
        throw new IllegalStateException(command.phase().label() + " stopped without a lost worker: " + a.aborted);
      }
      if (a.lost.isEmpty()) {
        session.report(after, label + " done");
        return List.of(a.results);
      }
      if (command.phase() == Phase.EXIT) {
        // Its part is written; only its figures are missing.
        for (int w = a.lost.nextSetBit(0); w >= 0; w = a.lost.nextSetBit(w + 1)) {
          a.results[w] = new PhaseResult.WorkerReport(Map.of());
        }
        return List.of(a.results);
      }
      long t0 = System.nanoTime();
      List<PhaseCommand> steps = resume.steps(command, generation + 1);
      awaitReplacements(a.lost, command);
      generation++;
      for (int w = 0; w < session.workers(); w++) {
        session.worker(w).sendBlocking(new PeerTable(session.endpoints()));
      }
      session.report(after - 0.01f, "replacing worker " + a.lost + " (rejoin)");
      Answers r = collect(steps.get(0), WorkerRecovery::rejoined, true, false);
      double s = (System.nanoTime() - t0) / 1e9;
      recoverySeconds += s;
      StringBuilder first = new StringBuilder();
      for (PhaseCommand step : steps.subList(1, steps.size())) {
        first.append(step.phase().label()).append(step.phase() == Phase.LAYER ? " " + (step.layer() + 1) : "")
            .append(", ");
      }
      log.printf(Locale.ROOT, "yarn-gnn: worker %s replaced and rejoined in %.1f s (generation %d); %s%s again%n",
          a.lost, s, generation, first.length() == 0 ? "" : first + "then ", label);
      for (PhaseCommand step : steps.subList(1, steps.size())) {
        resume.caughtUp(step, round(step, after - 0.01f, label + " (catching up: " + step.phase().label()
            + (step.phase() == Phase.LAYER ? " " + (step.layer() + 1) : "") + ")", expected, resume));
      }
    }
  }

  /**
   * Every worker (all of them just registered) runs {@link Phase#REJOIN} at a new generation with resume point
   * {@code resume}: a job that continues from checkpoints an earlier ApplicationMaster attempt wrote, every
   * worker getting ready as a replacement does (a worker adopted from that attempt keeps what it holds where it
   * fits the resume point), at a generation above every adopted worker's. A loss here fails the job (nothing to go back to). Returns the
   * answers by worker ({@link PhaseResult.PartitionSizes} from a worker that loaded its partition).
   */
  public List<PhaseResult> rejoinAll(int resume, float after, String label) throws Exception {
    session.report(after - 0.01f, label);
    // Above any generation an adopted worker's mesh had: its peers' connections at that one are refused.
    generation = Math.max(generation, session.survivorGeneration()) + 1;
    Answers a = collect(new PhaseCommand(Phase.REJOIN, resume, generation, null), WorkerRecovery::rejoined, true,
        false);
    session.report(after, label + " done");
    return List.of(a.results);
  }

  /** What a {@link Phase#REJOIN} answers: nothing, or the sizes of the partition the worker loaded. */
  private static boolean rejoined(PhaseCommand c, PhaseResult r) {
    return r instanceof PhaseResult.Empty || r instanceof PhaseResult.PartitionSizes;
  }

  /** The answers of one round and the workers lost in it. */
  private static final class Answers {
    final PhaseResult[] results;
    final BitSet lost = new BitSet();
    final StringBuilder reasons = new StringBuilder();
    final StringBuilder aborted = new StringBuilder();
    boolean resumable = true;

    Answers(int p) {
      results = new PhaseResult[p];
    }
  }

  /**
   * Sends {@code command} to every worker and collects an answer (done, or aborted for a lost peer) from every
   * worker not lost meanwhile. With {@code strict} an aborted answer fails the job (a REJOIN has nothing to
   * abort for); unless {@code resumable}, so does the first loss.
   */
  private Answers collect(PhaseCommand command, BiPredicate<PhaseCommand, PhaseResult> expected, boolean strict,
      boolean resumable) throws Exception {
    int p = session.workers();
    Answers a = new Answers(p);
    a.resumable = resumable;
    BitSet settled = new BitSet();
    for (int w = 0; w < p; w++) {
      try {
        session.worker(w).sendBlocking(command);
      } catch (Exception e) {
        lose(a, settled, w, attempt[w], "its connection failed: " + e.getMessage(), command);
      }
    }
    long sent = System.nanoTime();
    long deadline = System.currentTimeMillis() + TimeUnit.SECONDS.toMillis(session.roundTimeoutSeconds());
    while (settled.cardinality() < p) {
      takeLosses(a, settled, command);
      InboundQueue.Event ev = session.inbox().poll(200, TimeUnit.MILLISECONDS);
      if (ev == null) {
        if (System.currentTimeMillis() > deadline) {
          BitSet open = new BitSet();
          open.set(0, p);
          open.andNot(settled);
          throw new IllegalStateException(command.phase().label() + " did not finish within "
              + session.roundTimeoutSeconds() + " s (--round-timeout) on worker " + open);
        }
        continue;
      }
      int w = session.workerOf(ev.connection());
      if (w < 0 && ev.message() instanceof Hello) {
        earlyHellos.add(ev);
        continue;
      }
      if (w < 0) {
        if (!ev.isClose()) {
          session.refuseConnection(ev.connection(), "message from no registered worker: " + ev.message());
        }
        continue;
      }
      if (ev.isClose() && command.phase() == Phase.EXIT && settled.get(w)) {
        continue; // it answered and exited: the end of a worker, not a loss
      }
      if (ev.isClose()) {
        lose(a, settled, w, attempt[w], "its connection closed"
            + (ev.cause() == null ? "" : ": " + ev.cause().getMessage()), command);
        continue;
      }
      if (ev.message() instanceof WorkerFailure f) {
        throw DriverSession.asFailure(f);
      }
      if (settled.get(w)) {
        throw new IllegalStateException("worker " + w + " answered " + command.phase() + " twice: " + ev.message());
      }
      if (!strict && ev.message() instanceof PhaseAborted ab && ab.phase() == command.phase()
          && ab.layer() == command.layer()) {
        settled.set(w);
        a.aborted.append(a.aborted.length() == 0 ? "" : "; ").append("worker ").append(w).append(": ")
            .append(ab.reason());
        continue;
      }
      if (!(ev.message() instanceof PhaseDone d) || d.phase() != command.phase() || d.layer() != command.layer()
          || !expected.test(command, d.result())) {
        throw new IllegalStateException("worker " + w + " answered " + command.phase() + " with " + ev.message());
      }
      a.results[w] = d.result();
      settled.set(w);
      session.answered(command, w, d, sent);
    }
    return a;
  }

  /** Takes the launcher's loss reports: a report of an attempt that is no longer current is an old one. */
  private void takeLosses(Answers a, BitSet settled, PhaseCommand command) throws Exception {
    for (ReplaceableWorkers.Loss l = launcher.pollLoss(); l != null; l = launcher.pollLoss()) {
      if (l.worker() >= 0 && l.worker() < attempt.length && l.attempt() == attempt[l.worker()]) {
        lose(a, settled, l.worker(), l.attempt(), l.reason(), command);
      }
    }
  }

  /**
   * Attempt {@code at} of worker {@code w} is lost: counted, its connection forgotten, a replacement asked for;
   * past the job's allowance the job fails.
   */
  private void lose(Answers a, BitSet settled, int w, int at, String reason, PhaseCommand command) throws Exception {
    if (at != attempt[w]) {
      return;
    }
    PeerConnection old = session.worker(w);
    session.forget(w);
    if (old != null) {
      old.close();
    }
    a.lost.set(w);
    a.results[w] = null;
    settled.set(w);
    if (command.phase() == Phase.EXIT) {
      // Its part is written; only its figures are missing: nothing to replace, no loss to count.
      log.println("yarn-gnn: lost worker " + w + " while it reported its figures (" + reason + ")");
      return;
    }
    failures++;
    a.reasons.append(a.reasons.length() == 0 ? "" : "; ").append("worker ").append(w).append(": ").append(reason);
    String where = command.phase().label() + (PhaseCommand.perLayer(command.phase()) && command.phase() != Phase.REJOIN
        ? " " + (command.layer() + 1) : "");
    if (!a.resumable) {
      throw new IllegalStateException("lost worker " + w + " during " + where + " (" + reason + "), where "
          + (command.phase() == Phase.REJOIN ? "the workers rejoined after a replacement" : "a job cannot resume"));
    }
    if (failures > maxFailures) {
      throw new IllegalStateException("lost worker " + w + " during " + where + " (" + reason + "): " + failures
          + " graph-worker losses, more than --max-worker-failures " + maxFailures);
    }
    attempt[w]++;
    log.println("yarn-gnn: lost worker " + w + " during " + where + " (" + reason + "); starting replacement "
        + failures + " of at most " + maxFailures);
    launcher.relaunch(w, attempt[w]);
  }

  /**
   * Waits until every worker of {@code lost} registered again (a Hello on a connection that proved that worker's
   * identity); workers lost meanwhile (a replacement that died, another worker) join the set.
   */
  private void awaitReplacements(BitSet lost, PhaseCommand command) throws Exception {
    Answers meanwhile = new Answers(attempt.length);
    BitSet settled = new BitSet();
    long deadline = System.currentTimeMillis() + REGISTER_TIMEOUT_MS;
    BitSet waiting = (BitSet) lost.clone();
    while (!waiting.isEmpty()) {
      takeLosses(meanwhile, settled, command);
      waiting.or(meanwhile.lost);
      lost.or(meanwhile.lost);
      meanwhile.lost.clear();
      if (waiting.isEmpty()) {
        break;
      }
      InboundQueue.Event ev = earlyHellos.isEmpty() ? session.inbox().poll(200, TimeUnit.MILLISECONDS)
          : earlyHellos.remove(0);
      if (ev == null) {
        if (System.currentTimeMillis() > deadline) {
          throw new IllegalStateException("no replacement for worker " + waiting + " registered within "
              + REGISTER_TIMEOUT_MS / 1000 + " s");
        }
        continue;
      }
      PeerConnection c = ev.connection();
      int w = session.workerOf(c);
      if (w >= 0) {
        if (ev.isClose()) {
          lose(meanwhile, settled, w, attempt[w], "its connection closed", command);
        } else if (ev.message() instanceof WorkerFailure f) {
          throw DriverSession.asFailure(f);
        } else {
          throw new IllegalStateException("worker " + w + " sent " + ev.message() + " while a replacement joined");
        }
        continue;
      }
      if (ev.isClose()) {
        continue;
      }
      if (ev.message() instanceof Hello h && h.workerIndex() >= 0 && h.workerIndex() < attempt.length
          && waiting.get(h.workerIndex()) && Participants.worker(h.workerIndex()).equals(c.peerIdentity())) {
        session.replace(h.workerIndex(), c, h.endpoint());
        waiting.clear(h.workerIndex());
      } else {
        session.refuseConnection(c, "registration of no lost worker: " + ev.message() + " from '"
            + c.peerIdentity() + "'");
      }
    }
  }

}
