package org.yarngnn.app.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.yarngnn.app.transport.TransportException;
import org.yarngnn.compute.model.ModelFormatException;
import org.yarngnn.io.table.InputException;

class FailuresTest {
  private static final TransportException LOST = new TransportException("worker 0 lost worker 1: connection closed");

  @Test
  void aTransportExceptionAtTheTopIsALostPeer() {
    assertEquals(FailureKind.WORKER_LOST, Failures.kindOf(LOST));
  }

  @Test
  void aTransportExceptionUnderAWorkersOwnExceptionIsALostPeerToo() {
    // As a routing thread reports it: WorkerConstruction.sendBlock wraps the transport's exception.
    Exception routing = new IllegalStateException("routing to worker 1: " + LOST.getMessage(), LOST);
    assertEquals(FailureKind.WORKER_LOST, Failures.kindOf(routing));
    assertEquals(FailureKind.WORKER_LOST, Failures.kindOf(new ExecutionException(routing)));
    assertEquals(FailureKind.WORKER_LOST, Failures.kindOf(new RuntimeException("outer", new ExecutionException(
        new IllegalStateException("middle", LOST)))));
  }

  @Test
  void badInputComesFirst() {
    assertEquals(FailureKind.BAD_INPUT, Failures.kindOf(new InputException("e.tsv: row 3: bad")));
    assertEquals(FailureKind.BAD_INPUT, Failures.kindOf(new ModelFormatException("model.json: bad")));
    // Carried by a lost-peer exception or an ExecutionException: still bad input, which a new run meets again.
    assertEquals(FailureKind.BAD_INPUT, Failures.kindOf(new TransportException("peer",
        new InputException("n.tsv: row 7: duplicate id"))));
    assertEquals(FailureKind.BAD_INPUT, Failures.kindOf(new ExecutionException(
        new InputException("n.tsv: row 7: duplicate id"))));
  }

  @Test
  void anythingElseIsInternal() {
    assertEquals(FailureKind.INTERNAL, Failures.kindOf(new IllegalStateException("a bug")));
    assertEquals(FailureKind.INTERNAL, Failures.kindOf(new IllegalStateException("outer",
        new IllegalArgumentException("inner"))));
    assertEquals(FailureKind.INTERNAL, Failures.kindOf(new OutOfMemoryError("Java heap space")));
  }

  @Test
  void aCyclicChainEnds() {
    Exception a = new IllegalStateException("a");
    Exception b = new IllegalStateException("b", a);
    a.initCause(b);
    assertEquals(FailureKind.INTERNAL, Failures.kindOf(a));
  }
}
