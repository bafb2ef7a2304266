package org.yarngnn.app.train;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yarngnn.app.graphworker.WorkerMesh;
import org.yarngnn.app.transport.ProtocolException;

/**
 * The link-prediction exchanges of one graph worker with its peers ({@link LinkMessage}s), inside a phase in which
 * no other message is sent between workers (the driver's rounds are barriers). Payloads go in chunks of at most
 * 2 MiB; what arrives is kept by (kind, round, sender) until asked for, so a peer that is ahead (already answering,
 * or sending gradients) never confuses one that is behind. Each payload is checked against the count its receiver
 * expects, or the bound it gives, once its last chunk is in: the chunks' sizes are bounded by their frames.
 */
final class LinkExchange {
  private static final int IDS_PER_CHUNK = 1 << 18;
  private static final int VALUES_PER_CHUNK = 1 << 19;

  private final WorkerMesh mesh;
  private final int self;
  private final long timeoutMillis;
  private final Map<Long, List<LinkMessage>> pending = new HashMap<>();
  private final Map<Long, Boolean> complete = new HashMap<>();

  LinkExchange(WorkerMesh mesh, int self, long timeoutMillis) {
    this.mesh = mesh;
    this.self = self;
    this.timeoutMillis = timeoutMillis;
  }

  int workers() {
    return mesh.workers();
  }

  /** Sends {@code ids[from..to)} to worker {@code q} as one payload of {@code kind} in {@code round}. */
  void sendIds(int q, byte kind, int round, long[] ids, int from, int to) throws Exception {
    int at = from;
    do {
      int end = Math.min(to, at + IDS_PER_CHUNK);
      mesh.send(q, new LinkMessage(kind, round, end == to, java.util.Arrays.copyOfRange(ids, at, end),
          LinkMessage.NO_VALUES));
      at = end;
    } while (at < to);
  }

  /** Sends {@code values[from..to)} to worker {@code q} as one payload of {@code kind} in {@code round}. */
  void sendValues(int q, byte kind, int round, float[] values, int from, int to) throws Exception {
    int at = from;
    do {
      int end = Math.min(to, at + VALUES_PER_CHUNK);
      mesh.send(q, new LinkMessage(kind, round, end == to, LinkMessage.NO_IDS,
          java.util.Arrays.copyOfRange(values, at, end)));
      at = end;
    } while (at < to);
  }

  /** Worker {@code q}'s ids of {@code kind} in {@code round}: at most {@code max} of them, else a protocol error. */
  long[] ids(byte kind, int round, int q, long max) throws Exception {
    List<LinkMessage> chunks = await(kind, round, q);
    long n = 0;
    for (LinkMessage m : chunks) {
      n += m.ids().length + m.values().length;
    }
    if (n > max) {
      throw new ProtocolException("worker " + q + " sent " + n + " ids of link message kind " + kind + ", at most "
          + max + " expected");
    }
    long[] out = new long[(int) n];
    int at = 0;
    for (LinkMessage m : chunks) {
      if (m.values().length > 0) {
        throw new ProtocolException("worker " + q + " sent rows where ids were expected (link kind " + kind + ")");
      }
      System.arraycopy(m.ids(), 0, out, at, m.ids().length);
      at += m.ids().length;
    }
    return out;
  }

  /** Worker {@code q}'s values of {@code kind} in {@code round}: exactly {@code count}, else a protocol error. */
  float[] values(byte kind, int round, int q, long count) throws Exception {
    List<LinkMessage> chunks = await(kind, round, q);
    long n = 0;
    for (LinkMessage m : chunks) {
      n += m.values().length + m.ids().length;
    }
    if (n != count) {
      throw new ProtocolException("worker " + q + " sent " + n + " values of link message kind " + kind + ", "
          + count + " expected");
    }
    float[] out = new float[(int) n];
    int at = 0;
    for (LinkMessage m : chunks) {
      if (m.ids().length > 0) {
        throw new ProtocolException("worker " + q + " sent ids where rows were expected (link kind " + kind + ")");
      }
      System.arraycopy(m.values(), 0, out, at, m.values().length);
      at += m.values().length;
    }
    return out;
  }

  private static long key(byte kind, int round, int q) {
    return ((long) round << 24) | ((long) kind << 16) | q;
  }

  /** Receives until worker {@code q}'s payload of {@code kind} in {@code round} is complete; hands it over. */
  private List<LinkMessage> await(byte kind, int round, int q) throws Exception {
    if (q == self || q < 0 || q >= mesh.workers()) {
      throw new IllegalArgumentException("worker " + self + " awaits link messages from worker " + q);
    }
    long k = key(kind, round, q);
    while (!complete.getOrDefault(k, false)) {
      WorkerMesh.Inbound in = mesh.take(timeoutMillis);
      if (!(in.message() instanceof LinkMessage m)) {
        WorkerMesh.releaseQuietly(in.message());
        throw new ProtocolException("worker " + self + " expected link-prediction messages, got "
            + in.message().getClass().getSimpleName() + " from worker " + in.from());
      }
      long mk = key(m.kind(), m.round(), in.from());
      if (complete.getOrDefault(mk, false)) {
        throw new ProtocolException("worker " + in.from() + " sent link kind " + m.kind() + " of round "
            + m.round() + " after its last chunk");
      }
      pending.computeIfAbsent(mk, x -> new ArrayList<>()).add(m);
      if (m.last()) {
        complete.put(mk, true);
      }
    }
    complete.remove(k);
    List<LinkMessage> chunks = pending.remove(k);
    return chunks == null ? List.of() : chunks;
  }

  /** Throws when messages arrived that no one asked for (a peer out of step); call at a phase's end. */
  void checkDrained() {
    if (!pending.isEmpty()) {
      throw new ProtocolException("worker " + self + ": " + pending.size() + " unexpected link-prediction payloads");
    }
  }
}
