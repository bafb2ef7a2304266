package org.yarngnn.app.runtime;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.compute.link.LinkMetrics;

/** What a worker reports when it finished a phase: one record per kind of answer, each with its wire form. */
public sealed interface PhaseResult {
  /** Most figures a worker report may carry; each takes at least 9 bytes, checked against the frame as well. */
  int MAX_FIGURES = 4096;

  /** The phase has nothing to report. */
  record Empty() implements PhaseResult {}

  /** {@link Phase#READ_NODES}: rows read, their smallest and largest id, and the feature width. */
  record NodeCounts(long count, long minId, long maxId, int width) implements PhaseResult {}

  /** {@link Phase#BUILD_EDGES} and {@link Phase#LOAD_PARTITION}: the partition's nodes, in-edges and halo. */
  record PartitionSizes(long nodes, long edges, long halo) implements PhaseResult {}

  /** {@link Phase#EXIT}: the worker's named figures (phase seconds, bytes, peak heap), in insertion order. */
  record WorkerReport(Map<String, Double> figures) implements PhaseResult {
    public WorkerReport {
      figures = Collections.unmodifiableMap(new LinkedHashMap<>(figures));
    }
  }

  /** {@link Phase#LABELS}: the partition's rows of each split (train, val, test) that have a label. */
  record LabelCounts(long train, long val, long test) implements PhaseResult {}

  /**
   * {@link Phase#GRADIENTS}: the sum of the training rows' losses of this worker's partition (softmax
   * cross-entropy, not divided by the global count) and its weight gradients (already scaled by one over the
   * global training count, so the workers' gradients add up to the mean loss's).
   */
  record TrainStep(double lossSum, WeightGradients gradients) implements PhaseResult {
    public TrainStep {
      // A diverged worker reports a failure instead (the run ends naming the epoch); the wire refuses this too.
      if (!Double.isFinite(lossSum) || gradients == null) {
        throw new IllegalArgumentException("training step with a loss sum of " + lossSum);
      }
    }
  }

  /** {@link Phase#EVALUATE} (last layer): correct predictions and labelled rows of each split, this partition's. */
  record Accuracy(long trainCorrect, long trainCount, long valCorrect, long valCount, long testCorrect,
      long testCount) implements PhaseResult {
    public Accuracy {
      if (trainCorrect < 0 || valCorrect < 0 || testCorrect < 0 || trainCorrect > trainCount
          || valCorrect > valCount || testCorrect > testCount) {
        throw new IllegalArgumentException("accuracy counts " + trainCorrect + "/" + trainCount + " "
            + valCorrect + "/" + valCount + " " + testCorrect + "/" + testCount);
      }
    }
  }

  /**
   * {@link Phase#LINK_EVALUATE}: this worker's held-out edges scored (link prediction): per set (validation,
   * test), each edge's score and its first evaluation negative's (AUC and AP are not sums: the driver concatenates
   * them in worker order) and the rank sums of MRR and hits@K against all its evaluation negatives.
   */
  record LinkScores(float[] valPositive, float[] valNegative, LinkMetrics.RankSums valRanks, float[] testPositive,
      float[] testNegative, LinkMetrics.RankSums testRanks) implements PhaseResult {
    public LinkScores {
      if (valPositive.length != valNegative.length || testPositive.length != testNegative.length) {
        throw new IllegalArgumentException("link scores of " + valPositive.length + "/" + valNegative.length + " and "
            + testPositive.length + "/" + testNegative.length + " edges");
      }
    }
  }

  PhaseResult EMPTY = new Empty();

  /** A size hint for the frame of {@code r}. */
  static int sizeHint(PhaseResult r) {
    if (r instanceof WorkerReport w) {
      return 16 + 40 * w.figures().size();
    }
    if (r instanceof LinkScores l) {
      return 128 + 8 * (l.valPositive().length + l.testPositive().length);
    }
    return r instanceof TrainStep t ? 24 + t.gradients().bodySizeHint() : 64;
  }

  static void write(PhaseResult r, FrameWriter out) {
    if (r instanceof Empty) {
      out.writeByte(0);
    } else if (r instanceof NodeCounts c) {
      out.writeByte(1);
      out.writeVLong(c.count());
      out.writeLong(c.minId());
      out.writeLong(c.maxId());
      out.writeVInt(c.width());
    } else if (r instanceof PartitionSizes s) {
      out.writeByte(2);
      out.writeVLong(s.nodes());
      out.writeVLong(s.edges());
      out.writeVLong(s.halo());
    } else if (r instanceof LabelCounts c) {
      out.writeByte(4);
      out.writeVLong(c.train());
      out.writeVLong(c.val());
      out.writeVLong(c.test());
    } else if (r instanceof TrainStep t) {
      out.writeByte(5);
      out.writeLong(Double.doubleToRawLongBits(t.lossSum()));
      t.gradients().writeBody(out);
    } else if (r instanceof Accuracy a) {
      out.writeByte(6);
      for (long v : new long[] {a.trainCorrect(), a.trainCount(), a.valCorrect(), a.valCount(), a.testCorrect(),
          a.testCount()}) {
        out.writeVLong(v);
      }
    } else if (r instanceof LinkScores l) {
      out.writeByte(7);
      out.writeFloatArray(l.valPositive());
      out.writeFloatArray(l.valNegative());
      writeRanks(l.valRanks(), out);
      out.writeFloatArray(l.testPositive());
      out.writeFloatArray(l.testNegative());
      writeRanks(l.testRanks(), out);
    } else {
      out.writeByte(3);
      writeFigures(((WorkerReport) r).figures(), out);
    }
  }

  private static void writeRanks(LinkMetrics.RankSums r, FrameWriter out) {
    out.writeVLong(r.count());
    out.writeLong(Double.doubleToRawLongBits(r.reciprocalRanks()));
    out.writeVLong(r.hits10());
    out.writeVLong(r.hits50());
    out.writeVLong(r.hits100());
  }

  private static LinkMetrics.RankSums readRanks(FrameReader in) {
    long count = in.readVLong();
    double reciprocal = Double.longBitsToDouble(in.readLong());
    long h10 = in.readVLong();
    long h50 = in.readVLong();
    long h100 = in.readVLong();
    if (count < 0 || h10 < 0 || h10 > h50 || h50 > h100 || h100 > count || !(reciprocal >= 0 && reciprocal <= count)) {
      throw new MalformedFrameException("rank sums " + count + " " + reciprocal + " " + h10 + " " + h50 + " " + h100);
    }
    return new LinkMetrics.RankSums(count, reciprocal, h10, h50, h100);
  }

  private static LinkScores readLinkScores(FrameReader in) {
    float[] valPos = in.readFloatArray();
    float[] valNeg = in.readFloatArray();
    LinkMetrics.RankSums valRanks = readRanks(in);
    float[] testPos = in.readFloatArray();
    float[] testNeg = in.readFloatArray();
    LinkMetrics.RankSums testRanks = readRanks(in);
    if (valPos.length != valNeg.length || testPos.length != testNeg.length || valRanks.count() != valPos.length
        || testRanks.count() != testPos.length) {
      throw new MalformedFrameException("link scores of " + valPos.length + "/" + valNeg.length + " and "
          + testPos.length + "/" + testNeg.length + " edges");
    }
    return new LinkScores(valPos, valNeg, valRanks, testPos, testNeg, testRanks);
  }

  /** Named figures: their count, then each name and value (the raw bits of the double). */
  static void writeFigures(Map<String, Double> f, FrameWriter out) {
    out.writeVInt(f.size());
    f.forEach((k, v) -> {
      out.writeString(k);
      out.writeLong(Double.doubleToRawLongBits(v));
    });
  }

  /** {@link #writeFigures}' form back; at most {@value #MAX_FIGURES}, each name once; {@code what} names them. */
  static Map<String, Double> readFigures(FrameReader in, String what) {
    int n = in.readVInt();
    if (n < 0 || n > MAX_FIGURES || n > in.remaining() / 9) {
      throw new MalformedFrameException(what + " of " + n + " figures in " + in.remaining() + " bytes");
    }
    Map<String, Double> f = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String key = in.readString();
      if (f.put(key, Double.longBitsToDouble(in.readLong())) != null) {
        throw new MalformedFrameException(what + " names " + key + " twice");
      }
    }
    return f;
  }

  static PhaseResult read(FrameReader in) {
    int kind = in.readByte();
    switch (kind) {
      case 0:
        return EMPTY;
      case 1: {
        long count = in.readVLong();
        long min = in.readLong();
        long max = in.readLong();
        int width = in.readVInt();
        if (count < 0 || width < 0) {
          throw new MalformedFrameException("node counts " + count + " of width " + width);
        }
        return new NodeCounts(count, min, max, width);
      }
      case 2: {
        long nodes = in.readVLong();
        long edges = in.readVLong();
        long halo = in.readVLong();
        if (nodes < 0 || edges < 0 || halo < 0) {
          throw new MalformedFrameException("partition sizes " + nodes + " " + edges + " " + halo);
        }
        return new PartitionSizes(nodes, edges, halo);
      }
      case 3:
        return new WorkerReport(readFigures(in, "worker report"));
      case 4: {
        long train = in.readVLong();
        long val = in.readVLong();
        long test = in.readVLong();
        if (train < 0 || val < 0 || test < 0) {
          throw new MalformedFrameException("label counts " + train + " " + val + " " + test);
        }
        return new LabelCounts(train, val, test);
      }
      case 5: {
        double loss = in.readFiniteDouble("training step with a loss sum of");
        return new TrainStep(loss, WeightGradients.read(in));
      }
      case 6: {
        long[] v = new long[6];
        for (int i = 0; i < v.length; i++) {
          v[i] = in.readVLong();
        }
        try {
          return new Accuracy(v[0], v[1], v[2], v[3], v[4], v[5]);
        } catch (IllegalArgumentException e) {
          throw new MalformedFrameException(e.getMessage());
        }
      }
      case 7:
        return readLinkScores(in);
      default:
        throw new MalformedFrameException("unknown phase result kind " + kind);
    }
  }
}
