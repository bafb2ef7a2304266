package org.yarngnn.app.tensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.yarngnn.app.transport.Endpoint;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.MalformedFrames;
import org.yarngnn.app.transport.Message;
import org.yarngnn.app.transport.MessageCodec;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * The tensor pool's wire messages: exact round trips (by wire form), and every truncated, padded or mis-shaped
 * frame refused before anything is sized by it.
 */
public class PoolMessagesTest {
  private static final MessageCodec CODEC = PoolMessages.CODEC;

  public static List<Message> samples() {
    DenseMatrix rows = new DenseMatrix(2, 3, new float[] {1, 2, 3, 4, 5, -6});
    DenseMatrix lin = new DenseMatrix(2, 2, new float[] {0.5f, 1, 1.5f, 2});
    return List.of(
        TensorTask.forward(7, 0, 3, rows),
        TensorTask.backward(8, 1, 3, rows, lin, true),
        TensorTask.loss(9, 1, 4, lin, new int[] {1, 0}, 1f / 140),
        new TensorResult(7, null, 0, lin, null),
        new TensorResult(8, null, 0, rows, new float[] {1, 2, 3}),
        new TensorResult(9, null, 2.5, lin, null),
        TensorResult.refused(10, "retiring"),
        new PoolMessages.Join(new Endpoint(3, "nm-host", 40123)),
        new PoolMessages.Members(List.of(new Endpoint(0, "a", 1), new Endpoint(5, "b", 65535))),
        new PoolMessages.WeightRequest(12),
        new PoolMessages.Load(3, 1, 250, 99, 1234),
        new PoolMessages.Retire(),
        new PoolMessages.PoolAddress(new Endpoint(0, "am-host", 5000)),
        new PoolMessages.Subscribe(2));
  }

  private static byte[] encode(Message m) {
    return MalformedFrames.bytes(m);
  }


  private static Message decode(byte[] frame) {
    return CODEC.decode(Unpooled.wrappedBuffer(frame));
  }

  @Test
  void everyMessageSurvivesEncodeAndDecode() {
    for (Message m : samples()) {
      Message back = decode(encode(m));
      assertEquals(m.getClass(), back.getClass());
      assertArrayEquals(encode(m), encode(back), () -> "round trip of " + m);
    }
  }

  @Test
  void truncatedAndPaddedFramesAreRefused() {
    for (Message m : samples()) {
      byte[] full = encode(m);
      for (int len = 1; len < full.length; len++) {
        byte[] cut = Arrays.copyOf(full, len);
        int at = len;
        assertThrows(MalformedFrameException.class, () -> decode(cut), () -> m + " cut at " + at);
      }
      assertThrows(MalformedFrameException.class, () -> decode(Arrays.copyOf(full, full.length + 1)),
          m::toString);
    }
  }

  @Test
  void misShapedTasksAndHugeCountsAreRefused() {
    DenseMatrix rows = new DenseMatrix(2, 3);
    // A backward whose gradient rows do not match its input rows; a loss with a label per row missing.
    byte[] backward = encode(TensorTask.backward(1, 0, 0, rows, new DenseMatrix(1, 2), false));
    assertThrows(MalformedFrameException.class, () -> decode(backward));
    byte[] loss = encode(new TensorTask(1, TensorTask.Kind.LOSS, 0, 0, false, 1f, rows, MatrixWire.EMPTY,
        new int[] {0}));
    assertThrows(MalformedFrameException.class, () -> decode(loss));
    // rows x cols of 2^31 - 1 floats claimed in a frame of a few bytes: refused before allocating.
    byte[] huge = {TensorTask.TYPE, 1, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
        0x07, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07};
    assertThrows(MalformedFrameException.class, () -> decode(huge));
    // A task kind that does not exist.
    byte[] kind = encode(TensorTask.forward(1, 0, 0, rows));
    kind[2] = 9;
    assertThrows(MalformedFrameException.class, () -> decode(kind));
  }
}
