package org.yarngnn.app.graphworker;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.yarngnn.app.runtime.FailureKind;
import org.yarngnn.app.runtime.Phase;
import org.yarngnn.app.runtime.PhaseCommand;
import org.yarngnn.app.runtime.PhaseDone;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.app.runtime.WorkerFailure;
import org.yarngnn.app.transport.Endpoint;
import org.yarngnn.app.transport.Failure;
import org.yarngnn.app.transport.Hello;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.MalformedFrames;
import org.yarngnn.app.transport.Message;
import org.yarngnn.app.transport.MessageCodec;
import org.yarngnn.app.transport.PeerTable;
import org.yarngnn.app.transport.RowBlock;
import org.yarngnn.app.transport.StreamedMessage;
import org.yarngnn.partition.InputFinding;
import org.yarngnn.partition.Ownership;
import org.yarngnn.partition.PartitionKey;

/**
 * The frame decoder of every message a worker or driver accepts, fuzzed: thousands of seeded mutations of valid
 * frames (bit flips, random bytes, varint bytes maxed out, insertions, deletions, truncations), each decoded or
 * refused with {@link MalformedFrameException}, never another exception, and no decode allocating more than
 * {@link #bytesAllowed} for its frame.
 */
public class FrameFuzzTest {
  private static final MessageCodec CODEC = GraphWorkerCodec.CODEC;
  private static final int MUTATIONS_PER_SAMPLE = 400;
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  public static List<Message> samples() {
    Map<String, Double> figures = new LinkedHashMap<>();
    figures.put("t.layer0", 1.5);
    figures.put("bytesSent", 1e9);
    return List.of(
        new Hello(3, "node-7.example.org", 45_123),
        new PeerTable(List.of(new Endpoint(0, "a", 1), new Endpoint(1, "b.example", 65_535))),
        new Hello(2, "node-1", 40_000, new Hello.Survivor(1, 3, "container_1700000000000_0001_01_000004")),
        new Failure(""),
        new Failure("worker 2: out of memory"),
        new RowBlock(0, 1, 2, false, new int[] {4, 1, 9}, new float[21], 7),
        new PhaseCommand(Phase.ROUTE_NODES, 0, Ownership.ranges(3, 2708)),
        new PhaseCommand(Phase.LAYER, 1, null),
        new PhaseDone(Phase.READ_NODES, 0, new PhaseResult.NodeCounts(2708, 0, 2707, 1433)),
        new PhaseDone(Phase.BUILD_EDGES, 0, new PhaseResult.PartitionSizes(10, 20, 30)),
        new PhaseDone(Phase.EXIT, 0, new PhaseResult.WorkerReport(figures)),
        new WorkerFailure(FailureKind.BAD_INPUT, 1, Phase.BUILD_EDGES, "edges.tsv:3: dst 99 has no row"),
        new HaloRequest(1, new long[] {4, 1L << 50, -2}),
        new WorkerHello(2),
        new PhaseEnd(1),
        new ConstructionBlock(PartitionKey.EDGE, new byte[] {0, 0, 0, 1, 0, 0, 0, 2, 5, 6, 7, 8}),
        new ConstructionFinding(null),
        new ConstructionFinding(new InputFinding(InputFinding.EDGES, 0, 41, 1, "dst 99 has no row", false)));
  }

  /** What decoding a frame of {@code n} bytes may allocate: copies of its content and small fixed costs. */
  static long bytesAllowed(int n) {
    return 16L * n + (1 << 20);
  }

  private static byte[] encode(Message m) {
    return MalformedFrames.bytes(m);
  }


  private static byte[] mutate(byte[] valid, SplittableRandom r) {
    byte[] b = valid.clone();
    int edits = 1 + r.nextInt(4);
    for (int e = 0; e < edits; e++) {
      // The type byte stays (mostly): mutations are of the body a decoder must survive.
      int at = b.length <= 1 ? 0 : 1 + r.nextInt(b.length - 1);
      switch (r.nextInt(7)) {
        case 0:
          if (b.length > 0) {
            b[Math.min(at, b.length - 1)] ^= (byte) (1 << r.nextInt(8));
          }
          break;
        case 1:
          if (b.length > 0) {
            b[Math.min(at, b.length - 1)] = (byte) r.nextInt(256);
          }
          break;
        case 2: // a varint byte maxed out: huge counts and lengths
          if (b.length > 0) {
            b[Math.min(at, b.length - 1)] = (byte) 0xFF;
          }
          break;
        case 3:
          b = Arrays.copyOf(b, Math.max(1, at));
          break;
        case 4: {
          byte[] longer = new byte[b.length + 1 + r.nextInt(8)];
          int pos = Math.min(at, b.length);
          System.arraycopy(b, 0, longer, 0, pos);
          for (int i = pos; i < pos + longer.length - b.length; i++) {
            longer[i] = (byte) r.nextInt(256);
          }
          System.arraycopy(b, pos, longer, pos + longer.length - b.length, b.length - pos);
          b = longer;
          break;
        }
        case 5:
          if (b.length > 2) {
            int pos = Math.min(at, b.length - 1);
            byte[] shorter = new byte[b.length - 1];
            System.arraycopy(b, 0, shorter, 0, pos);
            System.arraycopy(b, pos + 1, shorter, pos, b.length - pos - 1);
            b = shorter;
          }
          break;
        default:
          b[0] = (byte) r.nextInt(128); // now and then, another type entirely
          break;
      }
    }
    return b;
  }

  @Test
  void mutatedFramesAreDecodedOrRefusedCleanlyWithinTheirAllocationBound() {
    SplittableRandom r = new SplittableRandom(20261201);
    int decoded = 0;
    int refused = 0;
    long worst = 0;
    // Once unmeasured: class loading is not the decoders' allocation.
    for (Message m : samples()) {
      release(CODEC.decode(Unpooled.wrappedBuffer(encode(m))));
    }
    for (Message m : samples()) {
      byte[] valid = encode(m);
      for (int i = 0; i < MUTATIONS_PER_SAMPLE; i++) {
        byte[] frame = mutate(valid, r);
        long before = THREADS.getCurrentThreadAllocatedBytes();
        try {
          release(CODEC.decode(Unpooled.wrappedBuffer(frame)));
          decoded++;
        } catch (MalformedFrameException expected) {
          refused++;
        } catch (RuntimeException | Error e) {
          fail("mutation " + i + " of " + m + " (" + Arrays.toString(frame) + "): " + e, e);
        }
        long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
        worst = Math.max(worst, allocated);
        assertTrue(allocated <= bytesAllowed(frame.length), "mutation " + i + " of " + m + " allocated " + allocated
            + " bytes for a " + frame.length + "-byte frame");
      }
    }
    assertTrue(refused > decoded / 10 && decoded > 0, "a fuzz run that exercises both paths: decoded " + decoded
        + ", refused " + refused);
    System.out.printf("FrameFuzzTest: %d decoded, %d refused, worst allocation %d bytes%n", decoded, refused, worst);
  }

  private static void release(Message m) {
    if (m instanceof StreamedMessage s) {
      s.release();
    }
  }
}
