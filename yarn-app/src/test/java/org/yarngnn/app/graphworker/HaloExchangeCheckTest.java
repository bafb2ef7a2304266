package org.yarngnn.app.graphworker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.yarngnn.app.transport.MessageCodec;
import org.yarngnn.app.transport.ProtocolException;
import org.yarngnn.app.transport.RowBlock;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.tensor.DenseMatrix;

/** Every row block is checked against the halo plan before it touches the halo rows. */
class HaloExchangeCheckTest {
  static final int LAYER = 1;
  static final int WIDTH = 2;
  static final int CHUNK_ROWS = 2;

  /** Worker 0 of 3: two own nodes, three halo slots all owned by worker 1 (chunks of 2 + 1), none from worker 2. */
  static final class Plan {
    final GraphBlock edges = new GraphBlock(new long[] {10, 11}, new long[] {20, 21, 22},
        new Csr(2, 5, new int[] {0, 2, 4}, new int[] {2, 3, 4, 0}, null));
    final DenseMatrix msg = new DenseMatrix(5, WIDTH);
    final int[][] recvSlots = {new int[0], {2, 3, 4}, new int[0]};
    final HaloExchange exchange =
        new HaloExchange(LAYER, edges, msg, new int[3][0], recvSlots, CHUNK_ROWS);

    Plan() {
      java.util.Arrays.fill(msg.data(), -7f);
    }
  }

  /** A block as a receiver gets it: decoded from its frame, so release() is observable. */
  static RowBlock inbound(int layer, int chunk, int rows, int width) {
    int[] idx = new int[rows];
    float[] values = new float[rows * width];
    for (int i = 0; i < values.length; i++) {
      values[i] = chunk * 100 + i;
    }
    ByteBuf frame = MessageCodec.encode(new RowBlock(layer, layer, chunk, false, idx, values, width),
        UnpooledByteBufAllocator.DEFAULT);
    frame.skipBytes(Integer.BYTES);
    return (RowBlock) MessageCodec.standard().decode(frame);
  }

  private static void assertRefused(Plan p, int from, RowBlock b, String fragment) {
    float[] before = p.msg.data().clone();
    ProtocolException e = assertThrows(ProtocolException.class, () -> p.exchange.accept(from, b));
    assertTrue(e.getMessage().contains(fragment), e.getMessage());
    assertTrue(e.getMessage().contains("worker " + from) && e.getMessage().contains("layer " + LAYER),
        e.getMessage());
    assertTrue(b.isReleased(), "a refused block is released");
    assertArrayEquals(before, p.msg.data(), "a refused block leaves the halo rows as they were");
  }

  @Test
  void planConformingChunksAreCopiedIntoTheirSlots() {
    Plan p = new Plan();
    RowBlock second = inbound(LAYER, 1, 1, WIDTH);
    p.exchange.accept(1, second);
    assertTrue(second.isReleased());
    assertEquals(100f, p.msg.get(4, 0));
    p.exchange.accept(1, inbound(LAYER, 0, 2, WIDTH));
    assertEquals(0f, p.msg.get(2, 0));
    assertEquals(3f, p.msg.get(3, 1));
    assertEquals(-7f, p.msg.get(0, 0), "own rows untouched");
  }

  @Test
  void duplicateChunkIsRefused() {
    Plan p = new Plan();
    p.exchange.accept(1, inbound(LAYER, 0, 2, WIDTH));
    assertRefused(p, 1, inbound(LAYER, 0, 2, WIDTH), "chunk 0 from worker 1 came twice");
  }

  @Test
  void outOfRangeChunksAreRefused() {
    Plan p = new Plan();
    assertRefused(p, 1, inbound(LAYER, 2, 1, WIDTH), "outside the 2 chunks");
    assertRefused(p, 1, inbound(LAYER, -1, 2, WIDTH), "outside the 2 chunks");
    assertRefused(p, 1, inbound(LAYER, Integer.MAX_VALUE, 1, WIDTH), "outside the 2 chunks");
  }

  @Test
  void wrongWidthRowCountLayerAndUnrequestedPeersAreRefused() {
    Plan p = new Plan();
    assertRefused(p, 1, inbound(LAYER, 0, 2, WIDTH + 1), "width 3");
    assertRefused(p, 1, inbound(LAYER, 0, 1, WIDTH), "has 1 rows, 2 requested");
    assertRefused(p, 1, inbound(LAYER, 1, 2, WIDTH), "has 2 rows, 1 requested");
    assertRefused(p, 1, inbound(LAYER + 1, 0, 2, WIDTH), "is of layer 2");
    assertRefused(p, 2, inbound(LAYER, 0, 0, WIDTH), "no rows were requested from worker 2");
    assertRefused(p, 0, inbound(LAYER, 0, 1, WIDTH), "no rows were requested from worker 0");
    assertRefused(p, -1, inbound(LAYER, 0, 2, WIDTH), "not a peer");
    // None of the refusals counted: both chunks are still expected and accepted.
    p.exchange.accept(1, inbound(LAYER, 0, 2, WIDTH));
    p.exchange.accept(1, inbound(LAYER, 1, 1, WIDTH));
  }
}
