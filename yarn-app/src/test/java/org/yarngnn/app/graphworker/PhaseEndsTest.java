package org.yarngnn.app.graphworker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.yarngnn.app.transport.Failure;
import org.yarngnn.partition.PartitionKey;
import org.yarngnn.app.transport.ProtocolException;

class PhaseEndsTest {
  private static ConstructionBlock block() {
    return new ConstructionBlock(PartitionKey.NODE, new byte[8]);
  }

  @Test
  void endsWhenEveryPeerEndedOnce() {
    PhaseEnds ends = new PhaseEnds("route-nodes", 1, 4, ConstructionBlock.class);
    assertFalse(ends.allEnded());
    ends.data(0, block());
    ends.end(0);
    ends.data(2, block());
    ends.end(2);
    assertFalse(ends.allEnded(), "worker 3 has not ended");
    ends.data(3, block());
    ends.end(3);
    assertTrue(ends.allEnded());
    assertTrue(ends.ended(2));
    assertTrue(new PhaseEnds("edges", 0, 1, ConstructionBlock.class).allEnded(), "a lone worker has no peers to wait for");
  }

  @Test
  void aSecondEndFromOnePeerIsRefusedNotCounted() {
    // Counting markers, two ends from worker 0 would have ended the phase before worker 2's data arrived.
    PhaseEnds ends = new PhaseEnds("edges", 1, 3, ConstructionBlock.class);
    ends.end(0);
    ProtocolException e = assertThrows(ProtocolException.class, () -> ends.end(0));
    assertEquals("worker 1, phase edges: a second end from worker 0", e.getMessage());
    assertFalse(ends.allEnded());
  }

  @Test
  void dataAfterAnEndIsRefusedAndReleased() {
    PhaseEnds ends = new PhaseEnds("route-nodes", 0, 3, ConstructionBlock.class);
    ends.end(2);
    ConstructionBlock late = block();
    ProtocolException e = assertThrows(ProtocolException.class, () -> ends.data(2, late));
    assertTrue(e.getMessage().startsWith("worker 0, phase route-nodes: data from worker 2 after its end"),
        e.getMessage());
    assertTrue(late.isReleased());
    ends.data(1, block());
  }

  @Test
  void otherTypesAndNonPeersAreRefused() {
    PhaseEnds ends = new PhaseEnds("route-nodes", 0, 3, ConstructionBlock.class);
    HaloRequest wrong = new HaloRequest(0, new long[0]);
    assertThrows(ProtocolException.class, () -> ends.data(1, wrong));
    assertThrows(ProtocolException.class, () -> ends.data(1, new Failure("x")));
    assertThrows(ProtocolException.class, () -> ends.data(-1, block()));
    assertThrows(ProtocolException.class, () -> ends.data(0, block()));
    assertThrows(ProtocolException.class, () -> ends.end(3));
    assertThrows(ProtocolException.class, () -> ends.end(0));
  }
}
