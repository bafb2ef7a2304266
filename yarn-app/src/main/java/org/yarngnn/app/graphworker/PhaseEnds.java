package org.yarngnn.app.graphworker;

import java.util.BitSet;
import org.yarngnn.app.transport.Message;
import org.yarngnn.app.transport.ProtocolException;

/**
 * The end markers of one construction phase, per peer: which peers have ended it, so that the phase ends when
 * every peer has, not after some count of markers. A second end from the same peer, a data message from a peer
 * after its end, one of another type than the phase's, or anything from an index that is not a peer is a
 * {@link ProtocolException} naming the peer (a refused data message is released). Not thread-safe: one consumer.
 */
final class PhaseEnds {
  private final String phase;
  private final int self;
  private final int workers;
  private final Class<? extends Message> dataType;
  private final BitSet ended = new BitSet();

  /** A phase of worker {@code self} of {@code workers}, whose data messages are {@code dataType}s. */
  PhaseEnds(String phase, int self, int workers, Class<? extends Message> dataType) {
    this.phase = phase;
    this.self = self;
    this.workers = workers;
    this.dataType = dataType;
  }

  /** Records that peer {@code from} ended the phase. */
  void end(int from) {
    checkPeer(from, "an end");
    if (ended.get(from)) {
      throw violation("a second end from worker " + from);
    }
    ended.set(from);
  }

  /** Checks that data message {@code m} may come from peer {@code from} now; if not, releases it and throws. */
  void data(int from, Message m) {
    try {
      checkPeer(from, "data");
      if (ended.get(from)) {
        throw violation("data from worker " + from + " after its end: " + m);
      }
      if (!dataType.isInstance(m)) {
        throw violation("unexpected message from worker " + from + ": " + m);
      }
    } catch (ProtocolException e) {
      WorkerMesh.releaseQuietly(m);
      throw e;
    }
  }

  /** Whether peer {@code q} has ended the phase. */
  boolean ended(int q) {
    return ended.get(q);
  }

  /** Whether every peer has ended the phase. */
  boolean allEnded() {
    return ended.cardinality() == workers - 1;
  }

  private void checkPeer(int from, String what) {
    if (from < 0 || from >= workers || from == self) {
      throw violation(what + " from " + from + ", not a peer");
    }
  }

  private ProtocolException violation(String what) {
    return new ProtocolException("worker " + self + ", phase " + phase + ": " + what);
  }
}
