package org.yarngnn.app.train;

import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.app.runtime.WeightGradients;
import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.Message;
import org.yarngnn.app.transport.MessageCodec;

/**
 * The messages of bounded asynchrony ({@code --staleness S > 0}, {@link org.yarngnn.app.runtime.Phase#TRAIN_ASYNC}):
 * a worker reports each epoch it finished ({@link EpochDone}) and each weights version it evaluated
 * ({@link VersionAccuracy}); the driver may cap the epochs ({@link EpochLimit}, when {@code --patience} stops the
 * run). Every count is checked on reading; a negative or absurd one is a corrupt frame.
 */
final class AsyncMessages {
  private AsyncMessages() {}

  /**
   * Worker's epoch {@code epoch} is done: its loss sum, the oldest neighbour rows it read (as epochs behind),
   * and its weight gradients, tagged with the version it computed on. Wire form: vint epoch, float64 loss sum
   * (finite: a diverged worker fails instead), vint staleness of the rows, then the {@link WeightGradients} body.
   */
  record EpochDone(int epoch, double lossSum, int rowStaleness, WeightGradients gradients) implements Message {
    static final byte TYPE = 64;

    EpochDone {
      if (epoch < 1 || rowStaleness < 0 || gradients == null || !Double.isFinite(lossSum)) {
        throw new IllegalArgumentException("epoch " + epoch + " staleness " + rowStaleness + " loss sum " + lossSum);
      }
    }

    @Override
    public byte type() {
      return TYPE;
    }

    @Override
    public int bodySizeHint() {
      return 24 + gradients.bodySizeHint();
    }

    @Override
    public void writeBody(FrameWriter out) {
      out.writeVInt(epoch);
      out.writeLong(Double.doubleToRawLongBits(lossSum));
      out.writeVInt(rowStaleness);
      gradients.writeBody(out);
    }

    static EpochDone read(FrameReader in) {
      int epoch = in.readVInt();
      double loss = in.readFiniteDouble("epoch done with a loss sum of");
      int stale = in.readVInt();
      if (epoch < 1 || stale < 0 || stale > epoch) {
        throw new MalformedFrameException("epoch " + epoch + " done with rows " + stale + " epochs old");
      }
      return new EpochDone(epoch, loss, stale, WeightGradients.read(in));
    }
  }

  /** The worker's correct predictions per split on weights version {@code version}. Wire: vlong version, 6 vlongs. */
  record VersionAccuracy(long version, PhaseResult.Accuracy accuracy) implements Message {
    static final byte TYPE = 65;

    @Override
    public byte type() {
      return TYPE;
    }

    @Override
    public void writeBody(FrameWriter out) {
      out.writeVLong(version);
      PhaseResult.Accuracy a = accuracy;
      for (long v : new long[] {a.trainCorrect(), a.trainCount(), a.valCorrect(), a.valCount(), a.testCorrect(),
          a.testCount()}) {
        out.writeVLong(v);
      }
    }

    static VersionAccuracy read(FrameReader in) {
      long version = in.readVLong();
      long[] v = new long[6];
      for (int i = 0; i < 6; i++) {
        v[i] = in.readVLong();
        if (v[i] < 0 || (i % 2 == 1 && v[i] < v[i - 1])) {
          throw new MalformedFrameException("accuracy counts " + java.util.Arrays.toString(v));
        }
      }
      if (version < 1) {
        throw new MalformedFrameException("accuracy of weights version " + version);
      }
      return new VersionAccuracy(version, new PhaseResult.Accuracy(v[0], v[1], v[2], v[3], v[4], v[5]));
    }
  }

  /** No worker trains past epoch {@code last} (and every worker evaluates the versions up to it). */
  record EpochLimit(int last) implements Message {
    static final byte TYPE = 66;

    @Override
    public byte type() {
      return TYPE;
    }

    @Override
    public void writeBody(FrameWriter out) {
      out.writeVInt(last);
    }

    static EpochLimit read(FrameReader in) {
      int last = in.readVInt();
      if (last < 1) {
        throw new MalformedFrameException("epoch limit " + last);
      }
      return new EpochLimit(last);
    }
  }

  static MessageCodec.Builder register(MessageCodec.Builder b) {
    return b.register(EpochDone.TYPE, EpochDone::read)
        .register(VersionAccuracy.TYPE, VersionAccuracy::read)
        .register(EpochLimit.TYPE, EpochLimit::read);
  }
}
