package org.yarngnn.app.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.MalformedFrames;
import org.yarngnn.app.transport.Message;
import org.yarngnn.app.transport.MessageCodec;
import org.yarngnn.partition.Ownership;

/** The driver protocol's messages: exact round trips, and every malformed frame refused before it allocates. */
public class ProtocolMessagesTest {
  private static final MessageCodec CODEC = MessageCodec.builder()
      .register(PhaseCommand.TYPE, PhaseCommand::read)
      .register(PhaseDone.TYPE, PhaseDone::read)
      .register(Weights.TYPE, Weights::read)
      .register(WeightGradients.TYPE, WeightGradients::read)
      .register(WorkerFailure.TYPE, WorkerFailure::read)
      .build();

  public static List<Message> samples() {
    Map<String, Double> figures = new LinkedHashMap<>();
    figures.put("t.layer0", 1.25);
    figures.put("bytesSent", 1e12);
    figures.put("nan", Double.NaN);
    return List.of(
        new PhaseCommand(Phase.JOB),
        new PhaseCommand(Phase.LAYER, 3, null),
        new PhaseCommand(Phase.ROUTE_NODES, 0, Ownership.hash(7)),
        new PhaseCommand(Phase.ROUTE_NODES, 0, Ownership.ranges(3, 2708)),
        new PhaseCommand(Phase.ROUTE_NODES, 0, Ownership.ranges(2, 0)),
        new PhaseDone(Phase.PLAN, 0, PhaseResult.EMPTY),
        new PhaseDone(Phase.READ_NODES, 0, new PhaseResult.NodeCounts(2708, Long.MIN_VALUE, Long.MAX_VALUE, 1433)),
        new PhaseDone(Phase.BUILD_EDGES, 0, new PhaseResult.PartitionSizes(10, 20, 30)),
        new PhaseDone(Phase.EXIT, 0, new PhaseResult.WorkerReport(figures)),
        new PhaseDone(Phase.LAYER, 1, PhaseResult.EMPTY),
        new PhaseDone(Phase.FORWARD, 2, PhaseResult.EMPTY, figures),
        new PhaseDone(Phase.BUILD_EDGES, 0, new PhaseResult.PartitionSizes(1, 2, 3), Map.of("heapUsedBytes", 5e8)),
        new WorkerFailure(FailureKind.BAD_INPUT, 2, Phase.BUILD_EDGES, "edges.tsv:5279: src 5000 has no row"),
        new WorkerFailure(FailureKind.INTERNAL, 0, Phase.JOB, ""),
        new PhaseCommand(Phase.FORWARD, 1, 17, null),
        new PhaseCommand(Phase.EVALUATE, 0, 200, null),
        new PhaseDone(Phase.LABELS, 0, new PhaseResult.LabelCounts(140, 500, 1000)),
        new PhaseDone(Phase.EVALUATE, 1, new PhaseResult.Accuracy(1, 2, 3, 4, 5, 6)),
        new PhaseDone(Phase.GRADIENTS, 0, new PhaseResult.TrainStep(12.5,
            new WeightGradients(3, new float[] {1f, -2.5f, Float.MIN_VALUE}))),
        new Weights(0, new float[] {0.25f, 7f}),
        new WeightGradients(9, new float[0]));
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
      if (m instanceof PhaseDone d && d.result() instanceof PhaseResult.WorkerReport r) {
        PhaseResult.WorkerReport got = (PhaseResult.WorkerReport) ((PhaseDone) back).result();
        assertEquals(List.copyOf(r.figures().keySet()), List.copyOf(got.figures().keySet()), "figure order");
        r.figures().forEach((k, v) -> assertEquals(v, got.figures().get(k), k));
      } else if (m instanceof Weights || m instanceof WeightGradients
          || m instanceof PhaseDone d2 && d2.result() instanceof PhaseResult.TrainStep) {
        // Records holding arrays: compared by their wire form.
        org.junit.jupiter.api.Assertions.assertArrayEquals(encode(m), encode(back), () -> "round trip of " + m);
        assertEquals(m.getClass(), back.getClass());
      } else {
        assertEquals(m, back, () -> "round trip of " + m);
      }
    }
  }

  @Test
  void everyTruncatedFrameIsRefused() {
    for (Message m : samples()) {
      byte[] full = encode(m);
      for (int len = 1; len < full.length; len++) {
        byte[] cut = java.util.Arrays.copyOf(full, len);
        int at = len;
        assertThrows(MalformedFrameException.class, () -> decode(cut), () -> m + " cut at " + at);
      }
    }
  }

  @Test
  void trailingBytesAreRefused() {
    for (Message m : samples()) {
      byte[] full = encode(m);
      byte[] longer = java.util.Arrays.copyOf(full, full.length + 1);
      assertThrows(MalformedFrameException.class, () -> decode(longer), m::toString);
    }
  }

  @Test
  void unknownCodesAndBadNumbersAreRefused() {
    // Phase code 99; a layer for a phase without layers; ownership of 0 and of 2^21 parts; result kind 9.
    assertThrows(MalformedFrameException.class, () -> decode(new byte[] {PhaseCommand.TYPE, 99, 0}));
    assertThrows(MalformedFrameException.class,
        () -> decode(new byte[] {PhaseCommand.TYPE, (byte) Phase.PLAN.ordinal(), 1}));
    assertThrows(MalformedFrameException.class,
        () -> decode(new byte[] {PhaseCommand.TYPE, (byte) Phase.ROUTE_NODES.ordinal(), 0, 0, 0}));
    assertThrows(MalformedFrameException.class, () -> decode(new byte[] {PhaseCommand.TYPE,
        (byte) Phase.ROUTE_NODES.ordinal(), 0, (byte) 0x80, (byte) 0x80, (byte) 0x80, 1, 0}));
    assertThrows(MalformedFrameException.class,
        () -> decode(new byte[] {PhaseDone.TYPE, (byte) Phase.PLAN.ordinal(), 0, 9}));
    assertThrows(MalformedFrameException.class,
        () -> decode(new byte[] {WorkerFailure.TYPE, 7, 0, 0, 0}));
  }

  @Test
  void aHugeFigureCountIsRefusedWithoutAllocating() {
    // A 10-byte frame claiming 2^28 figures.
    byte[] frame = {PhaseDone.TYPE, (byte) Phase.EXIT.ordinal(), 0, 3, (byte) 0x80, (byte) 0x80, (byte) 0x80,
        (byte) 0x80, 1, 0};
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadAllocatedBytes();
    MalformedFrameException e = assertThrows(MalformedFrameException.class, () -> decode(frame));
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;
    assertTrue(e.getMessage().contains("figures"), e.getMessage());
    assertTrue(allocated < 1 << 20, "decoding allocated " + allocated + " bytes");
  }

  @Test
  void aHugeWeightCountIsRefusedWithoutAllocating() {
    // Weights of version 1 claiming 2^28 floats in a 9-byte frame, alone and inside a TrainStep.
    byte[] alone = {Weights.TYPE, 1, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 1, 0, 0};
    byte[] inside = {PhaseDone.TYPE, (byte) Phase.GRADIENTS.ordinal(), 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 1, (byte) 0x80,
        (byte) 0x80, (byte) 0x80, (byte) 0x80, 1};
    for (byte[] frame : new byte[][] {alone, inside}) {
      com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
      long before = threads.getCurrentThreadAllocatedBytes();
      MalformedFrameException e = assertThrows(MalformedFrameException.class, () -> decode(frame));
      long allocated = threads.getCurrentThreadAllocatedBytes() - before;
      assertTrue(e.getMessage().contains("floats"), e.getMessage());
      assertTrue(allocated < 1 << 20, "decoding allocated " + allocated + " bytes");
    }
  }

  @Test
  void aRepeatedFigureIsRefused() {
    Map<String, Double> one = new LinkedHashMap<>();
    one.put("a", 1.0);
    one.put("b", 2.0);
    byte[] frame = encode(new PhaseDone(Phase.EXIT, 0, new PhaseResult.WorkerReport(one)));
    // Rename "b" to "a": same length, so the frame stays well formed apart from the repeat.
    for (int i = frame.length - 9; i > 0; i--) {
      if (frame[i] == 'b') {
        frame[i] = 'a';
        break;
      }
    }
    assertThrows(MalformedFrameException.class, () -> decode(frame));
  }

  @Test
  void failuresKeepOneBoundedLine() {
    WorkerFailure f = new WorkerFailure(FailureKind.INTERNAL, 1, Phase.LAYER, "x".repeat(100_000));
    assertEquals(WorkerFailure.MAX_MESSAGE_CHARS, f.message().length());
    assertEquals("a: b", Failures.describe(new IllegalStateException("a", new RuntimeException("b"))));
    assertEquals("worker 1 lost: closed",
        Failures.describe(new IllegalStateException("worker 1 lost: closed", new RuntimeException("closed"))));
    assertEquals(FailureKind.BAD_INPUT, Failures.kindOf(new org.yarngnn.io.table.InputException("f:1: bad")));
    assertEquals(FailureKind.INTERNAL, Failures.kindOf(new IllegalStateException("x")));
  }
}
