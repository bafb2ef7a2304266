package org.yarngnn.app.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import java.io.Closeable;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * What servers and clients share: the lifecycle (start once, stop idempotently, like Hadoop's AbstractService),
 * one small event-loop group for every connection, the pipeline, and connecting with retries. Subclassed only
 * here: {@link TransportServer} and {@link TransportClient}.
 */
public abstract class TransportService implements Closeable {
  /** Lifecycle states; a stopped service cannot be restarted. */
  public enum State { NEW, STARTED, STOPPED }

  private static final AttributeKey<PeerConnection> CONNECTION = AttributeKey.valueOf("yarngnn.connection");
  /** The frame decoder's name in every pipeline (the handshake puts the decryption after it). */
  static final String DECODER = "frames";
  private static final int MAX_BACKOFF_MILLIS = 2_000;
  /** The receive buffer's bounds: small frames (heartbeats, credits) keep it small, row blocks grow it. */
  private static final int MIN_READ_BYTES = 512;
  private static final int FIRST_READ_BYTES = 64 << 10;
  private static final int MAX_READ_BYTES = 1 << 20;

  final TransportOptions options;
  private final TransportListener listener;
  private final String threadPrefix;
  private final Set<PeerConnection> connections = ConcurrentHashMap.newKeySet();
  private volatile State state = State.NEW;
  private EventLoopGroup group;

  TransportService(TransportOptions options, TransportListener listener, String threadPrefix) {
    this.options = options;
    this.listener = listener;
    this.threadPrefix = threadPrefix;
  }

  /** Starts the event loop (and, for a server, binds). Throws if called twice. */
  public final synchronized void start() throws TransportException {
    if (state != State.NEW) {
      throw new IllegalStateException(this + " is " + state + "; a transport starts once");
    }
    // Non-daemon threads: stop() must release them, which the tests check.
    group = new NioEventLoopGroup(options.ioThreads(), new DefaultThreadFactory(threadPrefix, false));
    try {
      doStart(group);
      state = State.STARTED;
    } catch (TransportException | RuntimeException e) {
      state = State.STOPPED;
      shutDownGroup();
      throw e;
    }
  }

  /**
   * Closes every connection (listeners get {@code onClosed(c, null)}), unbinds, and waits for the event-loop
   * threads to end. Idempotent; must not be called from a listener callback.
   */
  public final synchronized void stop() {
    if (state == State.STOPPED) {
      return;
    }
    boolean wasStarted = state == State.STARTED;
    state = State.STOPPED;
    if (!wasStarted) {
      return;
    }
    for (EventExecutor e : group) {
      if (e.inEventLoop()) {
        throw new IllegalStateException("stop() called from an event-loop thread of " + this);
      }
    }
    doStop();
    for (PeerConnection c : List.copyOf(connections)) {
      c.close();
    }
    shutDownGroup();
  }

  /** Same as {@link #stop()}. */
  @Override
  public final void close() {
    stop();
  }

  public final State state() {
    return state;
  }

  /** The open (authenticated) connections, inbound and outbound. */
  public final List<PeerConnection> connections() {
    return connections.stream().filter(PeerConnection::isOpen).toList();
  }

  /**
   * Connects to {@code host:port} and runs the handshake, which must prove the peer to be {@code expectedPeer}
   * (its {@link TransportOptions#identity()}); the returned connection is open.
   *
   * @throws TransportException as {@link #connect(String, int)}, or when the peer proved another identity
   */
  public final PeerConnection connect(String host, int port, String expectedPeer) throws TransportException {
    PeerConnection c = connect(host, port);
    if (!expectedPeer.equals(c.peerIdentity())) {
      c.close();
      throw new TransportException(host + ":" + port + " is '" + c.peerIdentity() + "', not '" + expectedPeer + "'");
    }
    return c;
  }

  /**
   * Connects to {@code host:port}, retrying up to {@link TransportOptions#connectAttempts()} times with growing
   * pauses (the peer may still be starting), and runs the handshake; the returned connection is open, its
   * {@link PeerConnection#peerIdentity()} proven. A failed handshake is not retried.
   *
   * @throws TransportException naming the address, the attempts and the last error, once the budget is spent, or
   *     why the handshake failed
   */
  public final PeerConnection connect(String host, int port) throws TransportException {
    EventLoopGroup g = requireStarted();
    Bootstrap b = new Bootstrap().group(g).channel(NioSocketChannel.class)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, options.connectTimeoutMillis());
    b.handler(initializer(true));
    long start = System.nanoTime();
    long backoff = options.connectBackoffMillis();
    Throwable last = null;
    for (int attempt = 1; attempt <= options.connectAttempts(); attempt++) {
      try {
        ChannelFuture f = b.connect(new InetSocketAddress(host, port)).await();
        if (f.isSuccess()) {
          return opened(connectionOf(f.channel()), host, port);
        }
        last = f.cause();
        connections.remove(connectionOf(f.channel())); // never opened: no close callback will remove it
        if (attempt < options.connectAttempts()) {
          Thread.sleep(backoff);
          backoff = Math.min(2 * backoff, MAX_BACKOFF_MILLIS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TransportException("interrupted while connecting to " + host + ":" + port, e);
      }
      if (state != State.STARTED) {
        throw new TransportException(this + " stopped while connecting to " + host + ":" + port);
      }
    }
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    throw new TransportException("cannot connect to " + host + ":" + port + " after "
        + options.connectAttempts() + " attempts in " + millis + " ms: " + last, last);
  }

  /** Waits for the handshake of a connected channel (bounded by its own timer, plus a margin). */
  private PeerConnection opened(PeerConnection c, String host, int port) throws TransportException,
      InterruptedException {
    try {
      c.handshake().get(options.handshakeTimeoutMillis() + 2_000L, TimeUnit.MILLISECONDS);
      return c;
    } catch (java.util.concurrent.ExecutionException e) {
      c.close();
      Throwable why = e.getCause();
      throw new TransportException("cannot open a connection to " + host + ":" + port + ": " + why.getMessage(), why);
    } catch (java.util.concurrent.TimeoutException e) {
      c.close();
      throw new TransportException("no handshake with " + host + ":" + port + " within "
          + options.handshakeTimeoutMillis() + " ms");
    }
  }

  void doStart(EventLoopGroup group) throws TransportException {}

  void doStop() {}

  final EventLoopGroup requireStarted() {
    if (state != State.STARTED) {
      throw new IllegalStateException(this + " is " + state + ", not started");
    }
    return group;
  }

  /**
   * Per connection: pooled direct buffers, no Nagle delay, bounded write buffer, heartbeats, framing, and the
   * handshake in front of the connection ({@code connector}: this end opened it).
   */
  final ChannelInitializer<SocketChannel> initializer(boolean connector) {
    return new ChannelInitializer<>() {
      @Override
      protected void initChannel(SocketChannel ch) {
        ch.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        ch.config().setTcpNoDelay(true);
        ch.config().setKeepAlive(true);
        // Reads of up to 1 MiB (Netty's default stops at 64 KiB): a stream of MiB-sized row blocks then costs a
        // sixteenth of the read calls through the pipeline, and their decoder's copies are longer.
        ch.config().setRecvByteBufAllocator(new AdaptiveRecvByteBufAllocator(MIN_READ_BYTES, FIRST_READ_BYTES,
            MAX_READ_BYTES));
        ch.config().setWriteBufferWaterMark(
            new WriteBufferWaterMark(options.writeLowWaterMark(), options.writeHighWaterMark()));
        PeerConnection c = new PeerConnection(ch, options, listener, connections::remove);
        connections.add(c);
        ch.attr(CONNECTION).set(c);
        if (options.heartbeatIntervalMillis() > 0) {
          ch.pipeline().addLast(new IdleStateHandler(options.heartbeatTimeoutMillis(),
              options.heartbeatIntervalMillis(), 0, TimeUnit.MILLISECONDS));
        }
        FrameDecoder decoder = new FrameDecoder(options.maxFrameBytes());
        ch.pipeline().addLast(DECODER, decoder);
        ch.pipeline().addLast(new Handshake(options, c, decoder, connector), c.handler());
      }
    };
  }

  /** The connection object of an accepted or connected channel. */
  static PeerConnection connectionOf(Channel ch) {
    return ch.attr(CONNECTION).get();
  }

  private void shutDownGroup() {
    group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly();
  }
}
