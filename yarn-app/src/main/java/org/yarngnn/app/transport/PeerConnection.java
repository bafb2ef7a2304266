package org.yarngnn.app.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.collection.IntObjectHashMap;
import java.net.SocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One TCP connection to a peer, opened by {@link TransportServer#connect} or accepted by a server. Sending is
 * thread-safe. Control messages go out at once; credited messages ({@link StreamedMessage}: {@link RowBlock}s and
 * application block types) wait for credit on their stream (the receiver lets
 * {@link TransportOptions#creditsPerStream()} of them be in flight per stream and returns one per
 * {@link StreamedMessage#release()}) and for the socket to be writable, so neither side buffers without bound. A
 * control message may overtake credited messages still waiting for credit, not one whose
 * {@link #sendBlocking} has returned; mark a stream's end with {@link RowBlock#last()} or a control message sent
 * after the last blocking send.
 */
public final class PeerConnection implements AutoCloseable {
  private static final Object LOCAL_CLOSE = new Object();

  private final Channel channel;
  private final TransportOptions options;
  private final TransportListener listener;
  private final Consumer<PeerConnection> onClosed;
  private final ConnectionStats stats = new ConnectionStats();
  private final SendQueue sendQueue;
  /** Credited messages delivered and not yet released, per stream; event-loop confined. */
  private final IntObjectHashMap<int[]> held = new IntObjectHashMap<>();
  /** Why the connection ends: a Throwable, LOCAL_CLOSE, or null while open. First writer wins. */
  private final AtomicReference<Object> ending = new AtomicReference<>();
  private final CompletableFuture<Void> closed = new CompletableFuture<>();
  /** Completes with the peer's proven identity once the connection is open, or fails with why it never was. */
  private final CompletableFuture<String> handshake = new CompletableFuture<>();
  private volatile boolean opened;
  private volatile String peerIdentity;
  private final String description;

  PeerConnection(Channel channel, TransportOptions options, TransportListener listener,
      Consumer<PeerConnection> onClosed) {
    this.channel = channel;
    this.options = options;
    this.listener = listener;
    this.onClosed = onClosed;
    this.sendQueue = new SendQueue(this, channel);
    this.description = "connection " + channel.id().asShortText();
  }

  /** The handler that connects this object to its channel's pipeline. */
  ChannelInboundHandlerAdapter handler() {
    return new Handler();
  }

  public SocketAddress remoteAddress() {
    return channel.remoteAddress();
  }

  public SocketAddress localAddress() {
    return channel.localAddress();
  }

  public boolean isOpen() {
    return opened && channel.isActive() && ending.get() == null;
  }

  /**
   * Who the peer proved to be in the handshake ({@link TransportOptions#identity()} of its end, e.g.
   * {@code worker 3}); set before the listener hears of the connection.
   */
  public String peerIdentity() {
    return peerIdentity;
  }

  /** The handshake's outcome: the peer's identity once the connection is open. */
  CompletableFuture<String> handshake() {
    return handshake;
  }

  /** The handshake proved the peer: the connection opens next (the Handler's channelActive). */
  void authenticated(String identity) {
    peerIdentity = identity;
  }

  /** The handshake failed: the connection closes without the listener ever hearing of it. */
  void handshakeFailed(Throwable why) {
    ending.compareAndSet(null, why);
    handshake.completeExceptionally(why);
    channel.close();
  }

  public ConnectionStats stats() {
    return stats;
  }

  /** Completes when the connection is closed and the listener has been told. */
  public CompletableFuture<Void> closeFuture() {
    return closed;
  }

  /**
   * Sends {@code m} without blocking. The future completes when the frame has been written to the socket (a row
   * block's arrays may then be reused) and fails with a {@link TransportException} if the connection closes first.
   */
  public CompletableFuture<Void> send(Message m) {
    CompletableFuture<Void> written = new CompletableFuture<>();
    submit(m, new CompletableFuture<>(), written);
    return written;
  }

  /**
   * Sends {@code m}, blocking while its stream has no credit (the back-pressure path). Returns once the message is
   * encoded into a transport buffer: a row block's arrays may be reused right away.
   *
   * @throws TransportException if the connection closes first, or no credit came within
   *     {@link TransportOptions#sendTimeoutMillis()}
   */
  public void sendBlocking(Message m) throws TransportException, InterruptedException {
    CompletableFuture<Void> accepted = new CompletableFuture<>();
    submit(m, accepted, new CompletableFuture<>());
    try {
      accepted.get(options.sendTimeoutMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      TransportException t = new TransportException("no credit from " + this + " for " + m + " within "
          + options.sendTimeoutMillis() + " ms: the receiver is not releasing row blocks");
      if (accepted.completeExceptionally(t)) {
        throw t;
      }
    } catch (ExecutionException e) {
      throw asTransportException(e.getCause());
    }
  }

  private void submit(Message m, CompletableFuture<Void> accepted, CompletableFuture<Void> written) {
    if (m instanceof StreamedMessage b) {
      if (b.stream() == CreditGrant.EVERY_STREAM) {
        IllegalArgumentException e = new IllegalArgumentException("stream -1 is reserved: " + m);
        accepted.completeExceptionally(e);
        written.completeExceptionally(e);
        return;
      }
      SendQueue.Pending p = new SendQueue.Pending(b, accepted, written);
      try {
        channel.eventLoop().execute(() -> sendQueue.enqueue(p));
      } catch (RejectedExecutionException e) {
        TransportException t = closedException();
        accepted.completeExceptionally(t);
        written.completeExceptionally(t);
      }
      return;
    }
    ByteBuf frame;
    try {
      frame = MessageCodec.encode(m, channel.alloc());
    } catch (RuntimeException e) {
      accepted.completeExceptionally(e);
      written.completeExceptionally(e);
      return;
    }
    accepted.complete(null);
    writeFrame(frame, written, true);
  }

  /** Writes one encoded frame (taking ownership of it), keeping the outbound byte counters. */
  void writeFrame(ByteBuf frame, CompletableFuture<Void> written, boolean flush) {
    int bytes = frame.readableBytes();
    stats.frameQueued(bytes);
    (flush ? channel.writeAndFlush(frame) : channel.write(frame)).addListener(f -> {
      if (f.isSuccess()) {
        stats.frameWritten(bytes);
        written.complete(null);
      } else {
        stats.frameDropped(bytes);
        written.completeExceptionally(asTransportException(f.cause()));
      }
    });
  }

  /**
   * Closes the connection; idempotent. Waits briefly for the close to finish unless called on an event-loop
   * thread. The listener gets {@code onClosed(this, null)} (if it heard of the connection).
   */
  @Override
  public void close() {
    ending.compareAndSet(null, LOCAL_CLOSE);
    channel.close();
    if (opened && !channel.eventLoop().inEventLoop()) {
      try {
        closed.get(options.connectTimeoutMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (ExecutionException | TimeoutException e) {
        // The channel is closing regardless; nothing more to wait for.
      }
    }
  }

  /** Closes with {@code cause}, which the listener will see (unless a cause was recorded already). */
  void closeWith(Throwable cause) {
    ending.compareAndSet(null, cause);
    channel.close();
  }

  private TransportException asTransportException(Throwable t) {
    if (t instanceof TransportException te) {
      return te;
    }
    if (t instanceof ClosedChannelException) {
      return closedException();
    }
    return new TransportException(this + ": " + t, t);
  }

  private TransportException closedException() {
    Object why = ending.get();
    return why instanceof Throwable t
        ? new TransportException(this + " is closed: " + t.getMessage(), t)
        : new TransportException(this + " is closed");
  }

  private void returnCredit(int stream, int bytes) {
    stats.blockReleased(bytes);
    try {
      channel.eventLoop().execute(() -> {
        held.get(stream)[0]--;
        if (channel.isActive()) {
          writeFrame(MessageCodec.encode(new CreditGrant(stream, 1), channel.alloc()), new CompletableFuture<>(), true);
        }
      });
    } catch (RejectedExecutionException e) {
      // The transport stopped: no one is waiting for this credit any more.
    }
  }

  /** Counts a credited message against its stream's credit; {@code bytes} is its frame's size. */
  private void deliver(StreamedMessage b, int bytes) {
    if (b.stream() == CreditGrant.EVERY_STREAM) {
      b.release();
      throw new MalformedFrameException("peer sent " + b + " on the reserved stream -1");
    }
    int[] count = held.get(b.stream());
    if (count == null) {
      count = new int[1];
      held.put(b.stream(), count);
    }
    if (++count[0] > options.creditsPerStream()) {
      b.release();
      throw new MalformedFrameException("peer sent " + (b instanceof RowBlock ? "row block" : "credited message")
          + " " + count[0] + " on stream " + b.stream() + " with only " + options.creditsPerStream()
          + " credits granted");
    }
    stats.blockHeld(bytes);
    b.credit().onRelease(() -> returnCredit(b.stream(), bytes));
  }

  @Override
  public String toString() {
    SocketAddress remote = channel.remoteAddress();
    return description + (remote == null ? "" : " to " + remote) + (peerIdentity == null ? "" : " (" + peerIdentity
        + ")");
  }

  /** Pipeline end: decodes frames, runs credit and heartbeats, and tells the listener. */
  private final class Handler extends ChannelInboundHandlerAdapter {
    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      opened = true;
      writeFrame(MessageCodec.encode(new CreditGrant(CreditGrant.EVERY_STREAM, options.creditsPerStream()),
          ctx.alloc()), new CompletableFuture<>(), true);
      listener.onOpened(PeerConnection.this);
      handshake.complete(peerIdentity);
      ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf frame = (ByteBuf) msg;
      int frameBytes = frame.readableBytes() + Integer.BYTES;
      stats.frameReceived(frameBytes);
      Message m;
      try {
        m = options.codec().decode(frame);
      } catch (RuntimeException e) {
        frame.release();
        throw e;
      }
      if (!(m instanceof RowBlock)) {
        frame.release(); // a row block is a view of its frame and owns it now; other messages were copied out
      }
      if (m instanceof StreamedMessage b) {
        deliver(b, frameBytes);
      }
      if (ending.get() != null) {
        if (m instanceof StreamedMessage b) {
          b.release();
        }
        return; // closing: deliver nothing more
      }
      if (m instanceof CreditGrant g) {
        sendQueue.grant(g);
      } else if (m != Heartbeat.INSTANCE) {
        listener.onMessage(PeerConnection.this, m);
      }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
      sendQueue.drain();
      ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof IdleStateEvent e) {
        if (e.state() == IdleState.READER_IDLE) {
          closeWith(new TransportException(PeerConnection.this + ": nothing received for "
              + options.heartbeatTimeoutMillis() + " ms, peer presumed dead"));
        } else if (e.state() == IdleState.WRITER_IDLE) {
          writeFrame(MessageCodec.encode(Heartbeat.INSTANCE, ctx.alloc()), new CompletableFuture<>(), true);
        }
      } else {
        ctx.fireUserEventTriggered(evt);
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      Throwable c = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
      if (c instanceof MalformedFrameException) {
        // A frame that does not decode (or breaks the credit protocol): the connection ends with the reason, which
        // the listener sees as the close cause; nothing of the frame was delivered.
        closeWith(new TransportException(PeerConnection.this + ": malformed frame: " + c.getMessage(), c));
      } else {
        closeWith(c instanceof TransportException ? c
            : new TransportException(PeerConnection.this + " lost: " + c, c));
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      ending.compareAndSet(null, new TransportException(PeerConnection.this + " closed by the peer"));
      Object why = ending.get();
      Throwable cause = why instanceof Throwable t ? t : null;
      sendQueue.failAll(cause != null ? cause : new TransportException(PeerConnection.this + " closed locally"));
      onClosed.accept(PeerConnection.this); // gone from connections() before the listener hears of it
      if (!opened) {
        // Never authenticated: the listener never heard of it, so it hears nothing of its end either.
        handshake.completeExceptionally(cause != null ? cause
            : new TransportException(PeerConnection.this + " closed during the handshake"));
        closed.complete(null);
        ctx.fireChannelInactive();
        return;
      }
      try {
        listener.onClosed(PeerConnection.this, cause);
      } finally {
        closed.complete(null);
        ctx.fireChannelInactive();
      }
    }
  }
}
