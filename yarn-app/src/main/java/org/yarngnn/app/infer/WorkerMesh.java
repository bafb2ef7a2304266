package org.yarngnn.app.infer;

import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.yarngnn.app.transport.Endpoint;
import org.yarngnn.app.transport.Message;
import org.yarngnn.app.transport.PeerConnection;
import org.yarngnn.app.transport.RowBlock;
import org.yarngnn.app.transport.TransportClient;
import org.yarngnn.app.transport.TransportException;
import org.yarngnn.app.transport.TransportListener;
import org.yarngnn.app.transport.TransportOptions;
import org.yarngnn.app.transport.TransportServer;

/**
 * One worker's connections to every other worker: one bidirectional connection per pair (the lower index
 * connects), identified by a {@link WorkerHello}. Inbound data is queued for the worker's consumer thread;
 * construction blocks are windowed (at most {@link #WINDOW} unacknowledged per peer) so a fast reader cannot
 * flood an owner's memory, as row blocks are bounded by the transport's credits.
 */
final class WorkerMesh implements AutoCloseable {
  static final int WINDOW = 8;

  /** A message from peer {@code from}; {@code message} null when the connection closed with {@code cause}. */
  record Inbound(int from, Message message, Throwable cause) {}

  private final int self;
  private final TransportServer server;
  private final TransportClient client;
  private final PeerConnection[] peers;
  private final Semaphore[] window;
  private final Map<PeerConnection, Integer> peerOf = new ConcurrentHashMap<>();
  private final BlockingQueue<Inbound> inbound = new LinkedBlockingQueue<>();
  private volatile boolean closing;

  WorkerMesh(int self, int workers, TransportOptions options) throws TransportException {
    this.self = self;
    this.peers = new PeerConnection[workers];
    this.window = new Semaphore[workers];
    for (int q = 0; q < workers; q++) {
      window[q] = new Semaphore(WINDOW);
    }
    TransportListener listener = new TransportListener() {
      @Override
      public void onMessage(PeerConnection c, Message m) {
        if (m instanceof WorkerHello h) {
          if (h.ack() > 0) {
            window[h.worker()].release((int) h.ack());
          } else {
            peerOf.put(c, h.worker());
            synchronized (peers) {
              peers[h.worker()] = c;
              peers.notifyAll();
            }
          }
          return;
        }
        Integer from = peerOf.get(c);
        inbound.add(new Inbound(from == null ? -1 : from, m, null));
      }

      @Override
      public void onClosed(PeerConnection c, Throwable cause) {
        Integer from = peerOf.get(c);
        if (!closing) {
          inbound.add(new Inbound(from == null ? -1 : from, null,
              cause != null ? cause : new TransportException("connection to worker " + from + " closed")));
        }
      }
    };
    this.server = new TransportServer(options, listener);
    this.client = new TransportClient(options, listener);
    server.start();
    client.start();
  }

  int port() {
    return server.port();
  }

  /** Connects to every higher-numbered worker and waits until every lower-numbered one has connected here. */
  void connect(List<Endpoint> endpoints, long timeoutMillis) throws TransportException, InterruptedException {
    for (Endpoint e : endpoints) {
      if (e.workerIndex() > self) {
        PeerConnection c = client.connect(e.host(), e.port());
        peerOf.put(c, e.workerIndex());
        synchronized (peers) {
          peers[e.workerIndex()] = c;
        }
        c.sendBlocking(new WorkerHello(self, 0));
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

  int workers() {
    return peers.length;
  }

  /** Sends a construction message to {@code q}, waiting while {@link #WINDOW} of them are unacknowledged. */
  void sendWindowed(int q, Message m) throws TransportException, InterruptedException {
    while (!window[q].tryAcquire(1, TimeUnit.SECONDS)) {
      if (!peers[q].isOpen()) {
        throw new TransportException("connection to worker " + q + " closed");
      }
    }
    peers[q].sendBlocking(m);
  }

  /** Acknowledges one construction message received from {@code q}. */
  void ack(int q) {
    peers[q].send(new WorkerHello(self, 1));
  }

  /** Sends a message outside the window (control markers, halo requests) or a row block (credit-limited). */
  void send(int q, Message m) throws TransportException, InterruptedException {
    peers[q].sendBlocking(m);
  }

  /** The next inbound message, or null after {@code timeoutMillis}; a closed connection throws. */
  Inbound poll(long timeoutMillis) throws InterruptedException, TransportException {
    Inbound in = inbound.poll(timeoutMillis, TimeUnit.MILLISECONDS);
    if (in != null && in.message() == null) {
      throw new TransportException("worker " + self + " lost worker " + in.from() + ": " + in.cause().getMessage(),
          in.cause());
    }
    return in;
  }

  /** The next inbound message; a closed connection becomes an exception naming the peer. */
  Inbound take(long timeoutMillis) throws InterruptedException, TransportException {
    Inbound in = inbound.poll(timeoutMillis, TimeUnit.MILLISECONDS);
    if (in == null) {
      throw new TransportException("worker " + self + ": no data from peers within " + timeoutMillis + " ms");
    }
    if (in.message() == null) {
      throw new TransportException("worker " + self + " lost worker " + in.from() + ": " + in.cause().getMessage(),
          in.cause());
    }
    return in;
  }

  /** Bytes written to and read from peers so far. */
  long[] bytes() {
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

  static void releaseQuietly(Message m) {
    if (m instanceof RowBlock b) {
      b.release();
    }
  }
}
