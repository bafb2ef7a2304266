package org.yarngnn.app.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.yarngnn.app.graphworker.WorkerMesh;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.runtime.Participants;
import org.yarngnn.app.transport.MessageCodec;
import org.yarngnn.app.transport.ProtocolException;
import org.yarngnn.app.transport.RowBlock;
import org.yarngnn.app.transport.TransportException;
import org.yarngnn.app.transport.TransportSecret;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * The epoch-tagged exchange of bounded asynchrony: a gather takes each peer's newest complete copy inside the
 * window (never one too old or from a later epoch, never a partial one), and every block is checked before it is
 * filed: its stream, width, chunk and row count, duplicates, and the number of epochs a peer may have in flight.
 */
@Timeout(30)
class StaleHaloTest {
  static final int WIDTH = 2;
  static final int S = 1;
  /** Worker 0 of 2, one layer: three halo slots (2, 3, 4) filled by worker 1 in chunks of 2 + 1. */
  static final int[][][] SEND = {{new int[0], {0, 1}}};
  static final int[][][] RECV = {{new int[0], {2, 3, 4}}};

  WorkerMesh mesh;
  StaleHalo halo;

  @BeforeEach
  void setUp() throws Exception {
    JobTransport job = new JobTransport(TransportSecret.generate(), false, "127.0.0.1");
    mesh = new WorkerMesh(0, 2, job.options(TrainCodec.CODEC, Participants.worker(0)));
    halo = new StaleHalo(mesh, 0, SEND, RECV, new int[] {WIDTH}, S, 2);
  }

  @AfterEach
  void tearDown() {
    halo.close();
    mesh.close();
  }

  /** A forward block as a receiver decodes it; its values are {@code epoch * 100 + chunk * 10 + i}. */
  static RowBlock block(int direction, int epoch, int chunk, int rows, int width) {
    float[] v = new float[rows * width];
    for (int i = 0; i < v.length; i++) {
      v[i] = epoch * 100 + chunk * 10 + i;
    }
    ByteBuf frame = MessageCodec.encode(new RowBlock(StaleHalo.STREAMS + direction * 4096, epoch, chunk, false,
        new int[rows], v, width), UnpooledByteBufAllocator.DEFAULT);
    frame.skipBytes(Integer.BYTES);
    return (RowBlock) TrainCodec.CODEC.decode(frame);
  }

  void fileEpoch(int epoch) {
    halo.file(1, block(StaleHalo.FORWARD, epoch, 0, 2, WIDTH));
    halo.file(1, block(StaleHalo.FORWARD, epoch, 1, 1, WIDTH));
  }

  @Test
  void aGatherTakesTheNewestCompleteCopyInsideTheWindow() throws Exception {
    DenseMatrix msg = new DenseMatrix(5, WIDTH);
    fileEpoch(1);
    halo.file(1, block(StaleHalo.FORWARD, 2, 0, 2, WIDTH)); // epoch 2 is not complete yet
    assertEquals(1, halo.fill(StaleHalo.FORWARD, 0, 2, 2 - S, msg, 1000), "epoch 1's rows, one epoch old");
    assertEquals(100f, msg.get(2, 0));
    assertEquals(110f, msg.get(4, 0));
    assertEquals(0f, msg.get(0, 0), "own rows untouched");
    halo.file(1, block(StaleHalo.FORWARD, 2, 1, 1, WIDTH));
    fileEpoch(3); // a peer ahead: never read by epoch 2
    assertEquals(0, halo.fill(StaleHalo.FORWARD, 0, 2, 2 - S, msg, 1000));
    assertEquals(200f, msg.get(2, 0));
  }

  @Test
  void aGatherWaitsForRowsFreshEnoughAndGivesUpAtTheTimeout() {
    fileEpoch(1);
    DenseMatrix msg = new DenseMatrix(5, WIDTH);
    TransportException e = assertThrows(TransportException.class,
        () -> halo.fill(StaleHalo.FORWARD, 0, 3, 3 - S, msg, 300));
    assertTrue(e.getMessage().contains("no rows of layer 0 from worker 1 for epoch 2..3"), e.getMessage());
  }

  @Test
  void blocksOutsideThePlanAreRefused() {
    assertRefused(block(StaleHalo.FORWARD, 1, 0, 2, WIDTH + 1), "width 3");
    assertRefused(block(StaleHalo.FORWARD, 1, 2, 1, WIDTH), "outside the 2 chunks");
    assertRefused(block(StaleHalo.FORWARD, 1, 1, 2, WIDTH), "has 2 rows, 1 requested");
    assertRefused(block(StaleHalo.FORWARD, 0, 0, 2, WIDTH), "no such epoch");
    assertRefused(block(7, 1, 0, 2, WIDTH), "which no exchange uses");
    halo.file(1, block(StaleHalo.FORWARD, 1, 0, 2, WIDTH));
    assertRefused(block(StaleHalo.FORWARD, 1, 0, 2, WIDTH), "came twice");
    ProtocolException self = assertThrows(ProtocolException.class,
        () -> halo.file(0, block(StaleHalo.FORWARD, 1, 0, 2, WIDTH)));
    assertTrue(self.getMessage().contains("not a peer"), self.getMessage());
  }

  @Test
  void aPeerCannotKeepMoreEpochsInFlightThanTheBoundAllows() {
    for (int e = 1; e <= 2 * S + 2; e++) {
      halo.file(1, block(StaleHalo.FORWARD, e, 0, 2, WIDTH));
    }
    assertRefused(block(StaleHalo.FORWARD, 2 * S + 3, 0, 2, WIDTH), "more than 4 epochs of layer 0 in flight");
  }

  private void assertRefused(RowBlock b, String fragment) {
    ProtocolException e = assertThrows(ProtocolException.class, () -> halo.file(1, b));
    assertTrue(e.getMessage().contains(fragment), e.getMessage());
  }
}
