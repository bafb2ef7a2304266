package org.yarngnn.app.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.yarngnn.app.runtime.Phase;
import org.yarngnn.app.runtime.PhaseDone;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.app.runtime.WeightGradients;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.MalformedFrames;
import org.yarngnn.app.transport.Message;

/**
 * A loss sum that is NaN or infinite is refused on the wire, in a synchronous epoch's answer
 * ({@link PhaseResult.TrainStep}) and in an asynchronous one ({@link AsyncMessages.EpochDone}); neither can be made
 * with one. A diverging worker fails instead ({@code TrainInputsTest} holds the run's exit 1 naming the epoch).
 */
class NonFiniteLossWireTest {
  /** The loss the samples carry, found in their frames by its bits and overwritten. */
  private static final double LOSS = 12.5;
  private static final WeightGradients GRADS = new WeightGradients(2, new float[] {1, -2, 0.5f});
  private static final List<Message> REPORTS = List.of(
      new PhaseDone(Phase.GRADIENTS, 0, new PhaseResult.TrainStep(LOSS, GRADS)),
      new AsyncMessages.EpochDone(3, LOSS, 1, GRADS));

  @Test
  void aNonFiniteLossSumIsRefusedOnTheWire() {
    for (Message m : REPORTS) {
      for (double loss : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
          Double.longBitsToDouble(0x7ff8_0000_0000_0123L)}) {
        MalformedFrameException e = MalformedFrames.assertRefused(TrainCodec.CODEC,
            Unpooled.wrappedBuffer(withLoss(m, loss)));
        assertTrue(e.getMessage().contains("loss sum of " + loss), e::getMessage);
      }
      // Finite ones, the extremes too, still decode.
      for (double loss : new double[] {0, Double.MAX_VALUE, Double.MIN_VALUE}) {
        Message back = TrainCodec.CODEC.decode(Unpooled.wrappedBuffer(withLoss(m, loss)));
        assertEquals(loss, back instanceof PhaseDone d ? ((PhaseResult.TrainStep) d.result()).lossSum()
            : ((AsyncMessages.EpochDone) back).lossSum());
      }
    }
  }

  @Test
  void noReportCanBeMadeWithANonFiniteLoss() {
    assertThrows(IllegalArgumentException.class, () -> new PhaseResult.TrainStep(Double.NaN, GRADS));
    assertThrows(IllegalArgumentException.class,
        () -> new AsyncMessages.EpochDone(3, Double.POSITIVE_INFINITY, 1, GRADS));
  }

  /** {@code m}'s frame (without its length) with the bits of {@link #LOSS}, found exactly once, set to {@code loss}. */
  private static byte[] withLoss(Message m, double loss) {
    byte[] frame = MalformedFrames.bytes(m);
    long was = Double.doubleToRawLongBits(LOSS);
    int at = -1;
    for (int i = 0; i + Long.BYTES <= frame.length; i++) {
      if (littleEndianLong(frame, i) == was) {
        assertEquals(-1, at, "the loss's bits twice in " + m);
        at = i;
      }
    }
    assertTrue(at > 0, "no loss in the frame of " + m);
    long now = Double.doubleToRawLongBits(loss);
    for (int b = 0; b < Long.BYTES; b++) {
      frame[at + b] = (byte) (now >>> (8 * b));
    }
    return frame;
  }

  private static long littleEndianLong(byte[] b, int at) {
    long v = 0;
    for (int i = Long.BYTES - 1; i >= 0; i--) {
      v = (v << 8) | (b[at + i] & 0xFF);
    }
    return v;
  }
}
