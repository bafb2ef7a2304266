package org.yarngnn.app.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.yarngnn.app.graphworker.FrameFuzzTest;
import org.yarngnn.app.graphworker.GraphWorkerDecoderBoundsTest;
import org.yarngnn.app.runtime.Phase;
import org.yarngnn.app.runtime.PhaseAborted;
import org.yarngnn.app.runtime.PhaseDone;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.app.runtime.ProtocolMessagesTest;
import org.yarngnn.app.runtime.WeightGradients;
import org.yarngnn.app.runtime.Weights;
import org.yarngnn.app.tensor.PoolMessages;
import org.yarngnn.app.tensor.PoolMessagesTest;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.MalformedFrames;
import org.yarngnn.app.transport.Message;
import org.yarngnn.app.transport.MessageCodec;
import org.yarngnn.app.transport.MessageCodecTest;
import org.yarngnn.app.transport.RowBlock;
import org.yarngnn.app.transport.StreamedMessage;
import org.yarngnn.compute.link.LinkMetrics;

/**
 * Every message type the training codec and the tensor pool's codec decode, taken from the codecs themselves (a
 * type registered later fails {@link #everyRegisteredTypeHasASample} until it has a sample here), fuzzed against
 * each codec that registers it: valid frames round-trip; every truncation is refused as malformed; random byte
 * flips and huge counts (2^31 - 1, -1, 2^28, as vInt, int32 or vLong) written at every offset are decoded or refused
 * as malformed, never with another exception; and no decode allocates more than {@link #bytesAllowed} for its
 * frame, so a count is bounded by the frame before anything is allocated for it.
 */
class TrainWireFuzzTest {
  private static final Map<String, MessageCodec> CODECS = new LinkedHashMap<>();
  private static final int FLIPS_PER_SAMPLE = 300;
  /** Generous: a decoder that loops forever fails here instead of hanging the build. */
  private static final Duration HANG = Duration.ofMinutes(5);
  private static final byte[][] HUGE = {
      {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07}, // vInt 2^31 - 1
      {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F}, // vInt -1
      {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x01}, // vInt 2^28
      {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x7F}, // int32 2^31 - 1
      {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF}, // int32 -1
      {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
          0x7F}}; // vLong 2^63 - 1
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  static {
    CODECS.put("training", TrainCodec.CODEC);
    CODECS.put("tensor pool", PoolMessages.CODEC);
  }

  /** What decoding an {@code n}-byte frame may allocate: a few copies of its content and 64 KB of fixed costs. */
  static long bytesAllowed(int n) {
    return 4L * n + (64 << 10);
  }

  /** The other codecs' tests' samples (built-in, driver protocol, graph worker, pool) and training's own. */
  static List<Message> samples() {
    List<Message> all = new ArrayList<>();
    all.addAll(MessageCodecTest.samples());
    all.addAll(MalformedFrames.internalSamples());
    all.addAll(ProtocolMessagesTest.samples());
    all.addAll(FrameFuzzTest.samples());
    all.addAll(GraphWorkerDecoderBoundsTest.samples());
    all.addAll(PoolMessagesTest.samples());
    float[] grads = MessageCodecTest.floats(40);
    all.addAll(List.of(
        new PhaseAborted(Phase.FORWARD, 1, "lost worker 2"),
        new PhaseDone(Phase.GRADIENTS, 0, new PhaseResult.TrainStep(0, new WeightGradients(0, grads))),
        new PhaseDone(Phase.LINK_EVALUATE, 0, new PhaseResult.LinkScores(new float[] {0.5f, -1}, new float[] {2, 0},
            new LinkMetrics.RankSums(2, 1.25, 1, 2, 2), new float[0], new float[0], LinkMetrics.RankSums.EMPTY)),
        new Weights(7, grads),
        new TrainRows(2708),
        new TrainRows(Long.MAX_VALUE),
        new LinkMessage(LinkMessage.CANDIDATES, 0, false, new long[] {1, 5, 1L << 40}, LinkMessage.NO_VALUES),
        new LinkMessage(LinkMessage.ROWS, 3, true, LinkMessage.NO_IDS, new float[] {1.5f, -2, 0}),
        new LinkMessage(LinkMessage.MEMBERSHIP_ANSWER, 1, true, LinkMessage.NO_IDS, LinkMessage.NO_VALUES),
        new AsyncMessages.EpochDone(3, 12.5, 1, new WeightGradients(2, grads)),
        new AsyncMessages.VersionAccuracy(4, new PhaseResult.Accuracy(1, 2, 3, 4, 0, 6)),
        new AsyncMessages.EpochLimit(17)));
    return all;
  }

  /** The samples of the types {@code codec} decodes. */
  private static List<Message> samplesOf(MessageCodec codec) {
    int[] types = codec.types();
    return samples().stream().filter(m -> Arrays.binarySearch(types, m.type() & 0xFF) >= 0).toList();
  }

  @Test
  void everyRegisteredTypeHasASample() {
    List<Message> samples = samples();
    CODECS.forEach((name, codec) -> {
      for (int type : codec.types()) {
        assertTrue(samples.stream().anyMatch(m -> (m.type() & 0xFF) == type), "message type " + type
            + " of the " + name + " codec has no sample: add one to TrainWireFuzzTest.samples()");
      }
    });
  }

  @Test
  void everySampleRoundTrips() {
    CODECS.forEach((name, codec) -> {
      for (Message m : samplesOf(codec)) {
        byte[] frame = MalformedFrames.bytes(m);
        Message back = codec.decode(Unpooled.wrappedBuffer(frame));
        assertEquals(m.getClass(), back.getClass(), m::toString);
        if (back instanceof RowBlock) {
          assertEquals(m, back, () -> name + " round trip of " + m); // an inbound block is not sent again
        } else {
          // Compared by wire form: many messages are records holding arrays.
          assertArrayEquals(frame, MalformedFrames.bytes(back), () -> name + " round trip of " + m);
        }
        release(back);
      }
    });
  }

  @Test
  void everyTruncationIsRefusedAsMalformed() {
    assertTimeoutPreemptively(HANG, () -> CODECS.forEach((name, codec) -> {
      for (Message m : samplesOf(codec)) {
        byte[] frame = MalformedFrames.bytes(m);
        for (int n = 1; n < frame.length; n++) {
          int at = n;
          assertFalse(decodes(codec, Arrays.copyOf(frame, n)), () -> name + ": the first " + at + " of "
              + frame.length + " bytes of " + m + " were accepted");
        }
      }
    }));
  }

  @Test
  void randomByteFlipsAreDecodedOrRefusedAsMalformed() {
    SplittableRandom r = new SplittableRandom(20261207);
    int[] outcomes = new int[2];
    assertTimeoutPreemptively(HANG, () -> CODECS.forEach((name, codec) -> {
      for (Message m : samplesOf(codec)) {
        byte[] valid = MalformedFrames.bytes(m);
        for (int i = 0; i < FLIPS_PER_SAMPLE && valid.length > 1; i++) {
          byte[] b = valid.clone();
          for (int e = 1 + r.nextInt(3); e > 0; e--) {
            int at = 1 + r.nextInt(b.length - 1); // the type byte stays: the body is what a decoder must survive
            b[at] = r.nextBoolean() ? (byte) (b[at] ^ (1 << r.nextInt(8))) : (byte) r.nextInt(256);
          }
          outcomes[decodes(codec, b) ? 1 : 0]++;
        }
      }
    }));
    assertTrue(outcomes[0] > 0 && outcomes[1] > 0, "both paths: " + outcomes[0] + " refused, " + outcomes[1]
        + " decoded");
    System.out.printf("TrainWireFuzzTest: %d flipped frames decoded, %d refused%n", outcomes[1], outcomes[0]);
  }

  @Test
  void hugeCountsAtEveryOffsetAreRefusedBeforeAllocating() {
    int[] refused = new int[1];
    assertTimeoutPreemptively(HANG, () -> CODECS.forEach((name, codec) -> {
      for (Message m : samplesOf(codec)) {
        byte[] valid = MalformedFrames.bytes(m);
        // Every offset after the type byte, up to and including the end (a count appended to the frame).
        for (int at = 1; at <= valid.length; at++) {
          for (byte[] huge : HUGE) {
            byte[] b = Arrays.copyOf(valid, Math.max(valid.length, at + huge.length));
            System.arraycopy(huge, 0, b, at, huge.length);
            if (!decodes(codec, b)) {
              refused[0]++;
            }
          }
        }
      }
    }));
    assertTrue(refused[0] > 0, "no huge count was refused");
  }

  /**
   * Decodes {@code frame}: true if it decoded, false if it was refused as malformed. Fails on any other exception
   * or error (an OutOfMemoryError, NegativeArraySizeException or IndexOutOfBoundsException escaping the codec),
   * and on a decode that allocated more than {@link #bytesAllowed} on this thread.
   */
  private static boolean decodes(MessageCodec codec, byte[] frame) {
    Supplier<String> what = () -> "a " + frame.length + "-byte frame " + Arrays.toString(frame);
    long allocated = 0;
    // The first decode down a new path links classes and bootstraps string concatenations, a one-off cost: a
    // decode over the bound is measured once more, and only that second measure counts.
    for (int attempt = 0; attempt < 2; attempt++) {
      ByteBuf buf = Unpooled.wrappedBuffer(frame);
      boolean decoded = false;
      long before = THREADS.getCurrentThreadAllocatedBytes();
      try {
        release(codec.decode(buf));
        decoded = true;
      } catch (MalformedFrameException refused) {
        // the one acceptable failure
      } catch (Throwable e) {
        fail(what.get() + ": " + e, e);
      }
      allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
      if (allocated <= bytesAllowed(frame.length)) {
        return decoded;
      }
    }
    return fail(what.get() + " allocated " + allocated + " bytes, more than " + bytesAllowed(frame.length));
  }

  private static void release(Message m) {
    if (m instanceof StreamedMessage s) {
      s.release();
    }
  }
}
