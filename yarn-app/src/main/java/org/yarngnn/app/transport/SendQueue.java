package org.yarngnn.app.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.util.collection.IntObjectHashMap;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;

/**
 * Credited messages ({@link StreamedMessage}) waiting for credit or for the channel to become writable, per stream. Confined to the connection's
 * event loop. A stream may have {@code window + balance} blocks in flight: the window is the peer's first grant,
 * each block sent takes one, each block the peer releases gives one back.
 */
final class SendQueue {
  /** One queued block: accepted once encoded (caller arrays free again), written once on the socket. */
  record Pending(StreamedMessage block, CompletableFuture<Void> accepted, CompletableFuture<Void> written) {}

  private static final class Stream {
    int balance;
    final ArrayDeque<Pending> queue = new ArrayDeque<>();
  }

  private final PeerConnection connection;
  private final Channel channel;
  private final IntObjectHashMap<Stream> streams = new IntObjectHashMap<>();
  private int window = -1;
  private Throwable closed;

  SendQueue(PeerConnection connection, Channel channel) {
    this.connection = connection;
    this.channel = channel;
  }

  void enqueue(Pending p) {
    if (closed != null) {
      p.accepted().completeExceptionally(closed);
      p.written().completeExceptionally(closed);
      return;
    }
    stream(p.block().stream()).queue.add(p);
    drain();
  }

  /** Applies a grant from the peer; a grant beyond what was taken is a protocol error. */
  void grant(CreditGrant g) {
    if (g.stream() == CreditGrant.EVERY_STREAM) {
      if (window >= 0) {
        throw new MalformedFrameException("second initial credit window");
      }
      window = g.credits();
    } else {
      Stream s = stream(g.stream());
      s.balance += g.credits();
      if (s.balance > 0) {
        throw new MalformedFrameException("credit for stream " + g.stream() + " beyond the blocks sent on it");
      }
    }
    drain();
  }

  /** Sends what credit and writability allow, then flushes once. */
  void drain() {
    if (window < 0 || closed != null) {
      return;
    }
    boolean wrote = false;
    for (Stream s : streams.values()) {
      while (!s.queue.isEmpty() && window + s.balance > 0 && channel.isWritable()) {
        Pending p = s.queue.poll();
        if (p.accepted().isDone()) {
          // sendBlocking timed out and withdrew it.
          p.written().completeExceptionally(new TransportException("send withdrawn after its timeout"));
          continue;
        }
        ByteBuf frame;
        try {
          frame = MessageCodec.encode(p.block(), channel.alloc());
        } catch (RuntimeException e) {
          p.accepted().completeExceptionally(e);
          p.written().completeExceptionally(e);
          continue;
        }
        if (!p.accepted().complete(null)) {
          frame.release();
          p.written().completeExceptionally(new TransportException("send withdrawn after its timeout"));
          continue;
        }
        s.balance--;
        connection.writeFrame(frame, p.written(), false);
        wrote = true;
      }
    }
    if (wrote) {
      channel.flush();
    }
  }

  void failAll(Throwable cause) {
    closed = cause;
    for (Stream s : streams.values()) {
      for (Pending p; (p = s.queue.poll()) != null; ) {
        p.accepted().completeExceptionally(cause);
        p.written().completeExceptionally(cause);
      }
    }
  }

  private Stream stream(int id) {
    Stream s = streams.get(id);
    if (s == null) {
      s = new Stream();
      streams.put(id, s);
    }
    return s;
  }
}
