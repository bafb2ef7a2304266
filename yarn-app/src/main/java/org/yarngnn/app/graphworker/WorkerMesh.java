package org.yarngnn.app.graphworker;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.yarngnn.app.runtime.Participants;
import org.yarngnn.app.transport.Endpoint;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.Message;
import org.yarngnn.app.transport.PeerConnection;
import org.yarngnn.app.transport.ProtocolException;
import org.yarngnn.app.transport.StreamedMessage;
import org.yarngnn.app.transport.TransportClient;
import org.yarngnn.app.transport.TransportException;
import org.yarngnn.app.transport.TransportListener;
import org.yarngnn.app.transport.TransportOptions;
import org.yarngnn.app.transport.TransportServer;

/**
 * One worker's connections to every other worker: one bidirectional connection per pair (the lower index
 * connects and says who it is with a {@link WorkerHello}). Inbound messages of registered peers are queued for the
 * worker's consumer thread, each with the index of its sender.
 *
 * <p>Registration: every connection is authenticated by the transport's handshake with the job's secret before
 * anything is read from it, and proves a {@link Participants participant identity}. A connection counts as a peer
 * once it is one this worker opened to a higher-numbered worker (which proved to be that worker), or an accepted
 * one whose first message is a hello naming a lower-numbered worker not yet connected, the worker its handshake
 * proved. Anything else
 * from an unregistered connection (a message before the hello; a hello naming an index out of range, this worker's
 * own, a higher one or one already connected; a malformed frame) is never delivered: the connection is closed with
 * a one-line reason on standard error and the job goes on. From a registered peer, a malformed frame, a second
 * hello or a lost connection fails the worker, naming the peer (the next {@link #poll}/{@link #take} throws). A
 * higher-numbered worker sends nothing before it has the hello, so an opened connection is registered before
 * anything can arrive on it.
 *
 * <p>Flow control is the transport's alone: construction blocks are {@link StreamedMessage}s credited per stream
 * like row blocks, so a receiver holds at most {@link TransportOptions#creditsPerStream()} of each kind per peer;
 * the consumer {@link #release}s each one it has consumed.
 */
public final class WorkerMesh implements AutoCloseable {
  /** How long a worker waits for a peer's connection or next message before the job fails naming it. */
  public static final long PEER_TIMEOUT_MS = TimeUnit.MINUTES.toMillis(10);
  /** A message from peer {@code from}; {@code message} null when the worker must fail with {@code cause}. */
  public record Inbound(int from, Message message, Throwable cause, PeerConnection via) {}

  private final int self;
  private final TransportServer server;
  private final TransportClient client;
  private final PeerConnection[] peers;
  /** The generation each peer's current connection was made at (see {@link #reconnect}). */
  private final int[] generations;
  /** Connections replaced by newer ones or closed on purpose: whatever they still deliver is dropped quietly. */
  private final Set<PeerConnection> retired = ConcurrentHashMap.newKeySet();
  private final Map<PeerConnection, Integer> peerOf = new ConcurrentHashMap<>();
  /** Unregistered connections this mesh closed; their close is no one's loss. */
  private final Set<PeerConnection> refused = ConcurrentHashMap.newKeySet();
  private final BlockingQueue<Inbound> inbound = new LinkedBlockingQueue<>();
  private final Consumer<String> log;
  private volatile boolean closing;

  /** Worker {@code self}'s mesh; {@code options} are the job's for this worker (identity {@code worker self}). */
  public WorkerMesh(int self, int workers, TransportOptions options) throws TransportException {
    this(self, workers, options, System.err::println);
  }

  /** With {@code log} receiving the one-line reasons for refused connections (standard error by default). */
  WorkerMesh(int self, int workers, TransportOptions options, Consumer<String> log) throws TransportException {
    if (!Participants.worker(self).equals(options.identity())) {
      throw new IllegalArgumentException("worker " + self + "'s mesh with the identity '" + options.identity() + "'");
    }
    this.self = self;
    this.peers = new PeerConnection[workers];
    this.generations = new int[workers];
    this.log = log;
    TransportListener listener = new TransportListener() {
      @Override
      public void onMessage(PeerConnection c, Message m) {
        if (retired.contains(c)) {
          releaseQuietly(m);
          return;
        }
        Integer from = peerOf.get(c);
        if (from == null) {
          releaseQuietly(m);
          if (m instanceof WorkerHello h) {
            String refusal = register(c, h.worker(), h.generation());
            if (refusal != null) {
              refuse(c, refusal);
            }
          } else {
            refuse(c, "message before its hello: " + m);
          }
          return;
        }
        if (m instanceof WorkerHello h) {
          fail(from, c, new ProtocolException("worker " + self + ": worker " + from + " sent a second hello (as worker "
              + h.worker() + ")"));
          c.close();
          return;
        }
        inbound.add(new Inbound(from, m, null, c));
      }

      @Override
      public void onClosed(PeerConnection c, Throwable cause) {
        if (retired.remove(c)) {
          return;
        }
        Integer from = peerOf.get(c);
        if (from == null) {
          if (!refused.remove(c) && cause != null && !closing) {
            // E.g. a malformed frame before any hello: the transport closed it; the job goes on.
            log.accept("yarn-gnn worker " + self + ": closed unregistered connection from " + c.remoteAddress()
                + ": " + cause.getMessage());
          }
          return;
        }
        if (closing) {
          return;
        }
        Throwable malformed = malformedIn(cause);
        if (malformed != null) {
          fail(from, c, new TransportException("worker " + self + ": malformed frame from worker " + from + ": "
              + malformed.getMessage(), cause));
        } else {
          fail(from, c, new TransportException("worker " + self + " lost worker " + from + ": "
              + (cause != null ? cause.getMessage() : "connection closed"), cause));
        }
      }
    };
    this.server = new TransportServer(options, listener);
    this.client = new TransportClient(options, listener);
    server.start();
    client.start();
  }

  /**
   * Registers an accepted connection as worker {@code q} at {@code generation}, replacing an older generation's
   * connection of that worker (a replaced worker's, or a survivor's before the mesh was made anew); returns why
   * not, or null.
   */
  private String register(PeerConnection c, int q, int generation) {
    synchronized (peers) {
      if (q < 0 || q >= peers.length) {
        return "hello from worker " + q + " of a " + peers.length + "-worker job";
      }
      if (q == self) {
        return "hello naming this worker (" + q + ")";
      }
      if (q > self) {
        return "hello from worker " + q + ", which this worker connects to itself";
      }
      if (!Participants.worker(q).equals(c.peerIdentity())) {
        return "hello from worker " + q + " on a connection authenticated as '" + c.peerIdentity() + "'";
      }
      if (peers[q] != null && generation <= generations[q]) {
        return "hello from worker " + q + ", which is connected already (at generation " + generations[q]
            + "; the hello's is " + generation + ")";
      }
      retire(peers[q]);
      peerOf.put(c, q);
      peers[q] = c;
      generations[q] = generation;
      peers.notifyAll();
      return null;
    }
  }

  /** Closes an unregistered connection, with a one-line reason in the log; the job goes on. */
  private void refuse(PeerConnection c, String reason) {
    if (refused.add(c)) {
      log.accept("yarn-gnn worker " + self + ": closing unregistered connection from " + c.remoteAddress() + ": "
          + reason);
    }
    c.close(); // on the event loop: does not wait
  }

  private void fail(int from, PeerConnection via, Throwable cause) {
    inbound.add(new Inbound(from, null, cause, via));
  }

  /** Drops {@code c} (held under {@link #peers}' lock): closed quietly, its late messages discarded. */
  private void retire(PeerConnection c) {
    if (c != null) {
      peerOf.remove(c);
      retired.add(c);
      c.close();
    }
  }

  /**
   * Closes every peer connection, as a worker does that stopped a phase for a lost peer: each peer still
   * exchanging with this worker notices and stops too, so none waits for rows that will not come.
   */
  public void closePeers() {
    synchronized (peers) {
      for (PeerConnection c : peers) {
        if (c != null && !retired.contains(c)) {
          retired.add(c);
          c.close();
        }
      }
    }
  }

  /**
   * Makes every peer connection anew at {@code generation} (newer than any before): connects to every
   * higher-numbered worker (replacing its old connection) and waits until every lower-numbered one has connected
   * at this generation. Whatever older connections delivered and this worker has not consumed is dropped (and
   * its credit released) now, not when the next phase comes across it: an abandoned construction's blocks may
   * be many.
   */
  public void reconnect(List<Endpoint> endpoints, int generation, long timeoutMillis)
      throws TransportException, InterruptedException {
    for (Endpoint e : endpoints) {
      int q = e.workerIndex();
      if (q > self && q < peers.length) {
        PeerConnection c = client.connect(e.host(), e.port(), Participants.worker(q));
        synchronized (peers) {
          retire(peers[q]);
          peerOf.put(c, q);
          peers[q] = c;
          generations[q] = generation;
        }
        c.sendBlocking(new WorkerHello(self, generation));
      }
    }
    awaitLower(generation, timeoutMillis);
    inbound.removeIf(in -> {
      boolean stale = in.via() != null && peers[in.from()] != in.via();
      if (stale) {
        releaseQuietly(in.message());
      }
      return stale;
    });
  }

  private void awaitLower(int generation, long timeoutMillis) throws TransportException, InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMillis;
    synchronized (peers) {
      for (int q = 0; q < self; q++) {
        while (peers[q] == null || generations[q] < generation) {
          long left = deadline - System.currentTimeMillis();
          if (left <= 0) {
            throw new TransportException("worker " + q + " did not connect to worker " + self + " at generation "
                + generation);
          }
          peers.wait(left);
        }
      }
    }
  }

  private static Throwable malformedIn(Throwable t) {
    for (int depth = 0; t != null && depth < 8; t = t.getCause(), depth++) {
      if (t instanceof MalformedFrameException) {
        return t;
      }
    }
    return null;
  }

  public int port() {
    return server.port();
  }

  /** Connects to every higher-numbered worker and waits until every lower-numbered one has connected here. */
  public void connect(List<Endpoint> endpoints, long timeoutMillis) throws TransportException, InterruptedException {
    for (Endpoint e : endpoints) {
      int q = e.workerIndex();
      if (q > self && q < peers.length) {
        PeerConnection c = client.connect(e.host(), e.port(), Participants.worker(q));
        synchronized (peers) {
          if (peers[q] != null) {
            c.close();
            throw new TransportException("worker " + self + ": worker " + q + " is listed twice");
          }
          peerOf.put(c, q);
          peers[q] = c;
        }
        c.sendBlocking(new WorkerHello(self));
      }
    }
    long deadline = System.currentTimeMillis() + timeoutMillis;
    synchronized (peers) {
      for (int q = 0; q < peers.length; q++) {
        while (q != self && peers[q] == null) {
          long left = deadline - System.currentTimeMillis();
          if (left <= 0) {
            throw new TransportException("worker " + q + " did not connect to worker " + self);
          }
          peers.wait(left);
        }
      }
    }
  }

  public int workers() {
    return peers.length;
  }

  /**
   * Sends {@code m} to worker {@code q}: a control message at once, a credited one ({@link StreamedMessage}: row
   * blocks, construction blocks) once its stream has credit, blocking until then. Anything sent after this returns
   * arrives after {@code m}.
   */
  public void send(int q, Message m) throws TransportException, InterruptedException {
    PeerConnection c = q == self || q < 0 || q >= peers.length ? null : peers[q];
    if (c == null) {
      throw new IllegalArgumentException("worker " + self + " has no connection to worker " + q);
    }
    c.sendBlocking(m);
  }

  /** The next inbound message, or null after {@code timeoutMillis}; a lost or misbehaving peer throws. */
  public Inbound poll(long timeoutMillis) throws InterruptedException, TransportException {
    Inbound in = current(timeoutMillis);
    if (in != null && in.message() == null) {
      throw failure(in);
    }
    return in;
  }

  /**
   * The next inbound of a peer's current connection within {@code timeoutMillis}, or null: what a replaced
   * connection delivered before it was replaced (an aborted phase's blocks, its close) is released and skipped.
   */
  private Inbound current(long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (true) {
      Inbound in = inbound.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (in == null || in.via() == null || peers[in.from()] == in.via()) {
        return in;
      }
      releaseQuietly(in.message());
    }
  }

  /** The next inbound message; a lost or misbehaving peer becomes an exception naming it. */
  public Inbound take(long timeoutMillis) throws InterruptedException, TransportException {
    Inbound in = current(timeoutMillis);
    if (in == null) {
      throw new TransportException("worker " + self + ": no data from peers within " + timeoutMillis + " ms");
    }
    if (in.message() == null) {
      throw failure(in);
    }
    return in;
  }

  private static TransportException failure(Inbound in) {
    Throwable c = in.cause();
    return c instanceof TransportException t ? t : new TransportException(c.getMessage(), c);
  }

  /** Bytes written to and read from peers so far. */
  public long[] bytes() {
    long sent = 0;
    long received = 0;
    for (PeerConnection c : peers) {
      if (c != null) {
        sent += c.stats().bytesSent();
        received += c.stats().bytesReceived();
      }
    }
    return new long[] {sent, received};
  }

  @Override
  public void close() {
    closing = true;
    client.close();
    server.close();
  }

  /** Returns the credit of a consumed credited message (construction or row block) to its sender. */
  public static void release(Message m) {
    if (m instanceof StreamedMessage b) {
      b.release();
    }
  }

  /** As {@link #release}: for messages dropped on an error path. */
  public static void releaseQuietly(Message m) {
    release(m);
  }
}
