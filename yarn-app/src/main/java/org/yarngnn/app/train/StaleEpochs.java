package org.yarngnn.app.train;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.yarngnn.app.runtime.DriverSession;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.app.runtime.WeightGradients;
import org.yarngnn.app.runtime.Weights;
import org.yarngnn.app.transport.Message;

/**
 * The driver's side of bounded asynchrony ({@code --staleness S > 0}) while the workers run their epochs by
 * themselves ({@link org.yarngnn.app.runtime.Phase#TRAIN_ASYNC}): the parameter server steps once every worker's
 * gradients of an epoch are in (Adam on their sum, in worker order, as at S = 0), and the new version goes to
 * every worker; an epoch's figures are complete once its loss and the accuracy of the version its step made are
 * in from every worker, and {@code --patience} then caps the epochs ({@link AsyncMessages.EpochLimit}).
 *
 * <p>Weight stashing: a version is held for every worker from its creation until that worker's gradients name a
 * newer one (a worker's versions only grow), and for the evaluation until every worker evaluated it. With the
 * epoch gate that keeps at most {@code S + 2} versions live, and one at the end. Every message is checked: a
 * worker's epochs and evaluations come in order, a gradient's version is within {@code S} of the server's, a
 * version evaluated exists.
 */
final class StaleEpochs implements DriverSession.WorkerMessages {
  private final ParameterServer ps;
  private final DriverSession session;
  private final int workers;
  private final int staleness;
  private final long trainRows;
  private final TrainingDriver.EpochLog run;
  private final int[] nextEpoch;
  private final long[] nextEval;
  private final List<TreeSet<Long>> holds = new ArrayList<>();
  private final Map<Integer, AsyncMessages.EpochDone[]> done = new HashMap<>();
  private final Map<Long, long[]> accuracy = new HashMap<>();
  private final Map<Long, Integer> evaluated = new HashMap<>();
  /** Per version made here: its weights, its epoch's loss sum and staleness, and when the step ran. */
  private final Map<Long, Made> made = new HashMap<>();
  private int limit;
  private boolean limited;
  private long lastStep = System.nanoTime();

  private record Made(float[] weights, double lossSum, int rowStaleness, int weightStaleness, double seconds) {}

  StaleEpochs(ParameterServer ps, DriverSession session, int staleness, long trainRows, int first, int epochs,
      TrainingDriver.EpochLog run) {
    this.ps = ps;
    this.session = session;
    this.workers = session.workers();
    this.staleness = staleness;
    this.trainRows = trainRows;
    this.limit = epochs;
    this.run = run;
    this.nextEpoch = new int[workers];
    this.nextEval = new long[workers];
    java.util.Arrays.fill(nextEpoch, first);
    java.util.Arrays.fill(nextEval, first);
    long v = ps.version();
    for (int w = 0; w < workers; w++) {
      ps.hold(v);
      holds.add(new TreeSet<>(List.of(v)));
    }
  }

  @Override
  public void accept(int w, Message m) throws Exception {
    if (m instanceof AsyncMessages.EpochDone d) {
      epochDone(w, d);
    } else if (m instanceof AsyncMessages.VersionAccuracy a) {
      evaluatedBy(w, a);
    } else {
      throw new IllegalStateException("worker " + w + " sent " + m + " while training asynchronously");
    }
  }

  private void epochDone(int w, AsyncMessages.EpochDone d) throws Exception {
    int e = d.epoch();
    WeightGradients g = d.gradients();
    if (e != nextEpoch[w] || e > limit) {
      throw new IllegalStateException("worker " + w + " reported epoch " + e + ", expected " + nextEpoch[w]
          + " (of " + limit + ")");
    }
    if (g.version() > e - 1 || g.version() < e - 1 - staleness || d.rowStaleness() > staleness) {
      throw new IllegalStateException("worker " + w + " ran epoch " + e + " on weights version " + g.version()
          + " and rows " + d.rowStaleness() + " epochs old: beyond --staleness " + staleness);
    }
    nextEpoch[w]++;
    // The worker's later epochs use this version or newer: its holds on older ones end.
    TreeSet<Long> mine = holds.get(w);
    while (!mine.isEmpty() && mine.first() < g.version()) {
      ps.release(mine.pollFirst());
    }
    AsyncMessages.EpochDone[] all = done.computeIfAbsent(e, x -> new AsyncMessages.EpochDone[workers]);
    all[w] = d;
    for (AsyncMessages.EpochDone x : all) {
      if (x == null) {
        return;
      }
    }
    done.remove(e);
    List<WeightGradients> grads = new ArrayList<>();
    double loss = 0;
    int rows = 0;
    int weights = 0;
    for (AsyncMessages.EpochDone x : all) {
      grads.add(x.gradients());
      loss += x.lossSum();
      rows = Math.max(rows, x.rowStaleness());
      weights = Math.max(weights, (int) (e - 1 - x.gradients().version()));
    }
    Weights next = ps.step(grads, staleness);
    for (int q = 0; q < workers; q++) {
      ps.hold(next.version());
      holds.get(q).add(next.version());
    }
    ps.hold(next.version()); // until every worker evaluated it
    long now = System.nanoTime();
    made.put(next.version(), new Made(next.values(), loss, rows, weights, (now - lastStep) / 1e9));
    lastStep = now;
    session.broadcast(next);
    session.report(0.08f + 0.9f * e / limit, "epoch " + e + " (--staleness " + staleness + ")");
  }

  private void evaluatedBy(int w, AsyncMessages.VersionAccuracy a) throws Exception {
    long v = a.version();
    if (v != nextEval[w] || !made.containsKey(v)) {
      throw new IllegalStateException("worker " + w + " evaluated weights version " + v + ", expected "
          + nextEval[w]);
    }
    nextEval[w]++;
    long[] sum = accuracy.computeIfAbsent(v, x -> new long[6]);
    PhaseResult.Accuracy c = a.accuracy();
    long[] add = {c.trainCorrect(), c.trainCount(), c.valCorrect(), c.valCount(), c.testCorrect(), c.testCount()};
    for (int i = 0; i < 6; i++) {
      sum[i] += add[i];
    }
    if (evaluated.merge(v, 1, Integer::sum) < workers) {
      return;
    }
    evaluated.remove(v);
    accuracy.remove(v);
    Made x = made.remove(v);
    ps.release(v);
    PhaseResult.Accuracy acc = new PhaseResult.Accuracy(sum[0], sum[1], sum[2], sum[3], sum[4], sum[5]);
    boolean stop = run.record(TrainingDriver.Epoch.of((int) v, x.lossSum() / trainRows, acc, x.seconds(),
        x.rowStaleness(), x.weightStaleness()), x.weights());
    if (stop && !limited) {
      // Every worker has seen at most the current version, so none can have started past current + 1 + S.
      limited = true;
      limit = (int) Math.min(limit, ps.version() + 1 + staleness);
      session.broadcast(new AsyncMessages.EpochLimit(limit));
    }
  }

  /** After the round: every epoch up to the limit was stepped and evaluated; the workers' holds end. */
  void finish() {
    if (ps.version() != limit || !made.isEmpty() || !done.isEmpty()) {
      throw new IllegalStateException("the workers stopped at weights version " + ps.version() + " of " + limit
          + " epochs, " + made.size() + " not evaluated");
    }
    for (TreeSet<Long> mine : holds) {
      for (long v : mine) {
        ps.release(v);
      }
      mine.clear();
    }
  }
}
