package org.yarngnn.app.transport;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;

/**
 * Accepts connections on {@link TransportOptions#bindHost()}:{@link TransportOptions#port()} (port 0 by default:
 * read the bound one from {@link #port()} and publish it, e.g. in a {@link Hello}). Its event loop also serves
 * the connections it opens with {@link #connect}, so a worker needs one server and nothing else. An accepted
 * connection reaches the listener only once its {@link Handshake} proved the peer.
 *
 * <pre>{@code
 * TransportOptions options = TransportOptions.builder().secret(jobSecret).identity("worker 3").build();
 * try (TransportServer server = new TransportServer(options, listener)) {
 *   server.start();
 *   PeerConnection driver = server.connect(driverHost, driverPort);
 *   driver.send(new Hello(index, myHost, server.port()));
 *   ...
 * }
 * }</pre>
 */
public final class TransportServer extends TransportService {
  private Channel serverChannel;

  public TransportServer(TransportOptions options, TransportListener listener) {
    super(options, listener, "yarngnn-net-server");
  }

  @Override
  void doStart(EventLoopGroup group) throws TransportException {
    ServerBootstrap b = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
        .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
        .childHandler(initializer(false));
    ChannelFuture f = b.bind(options.bindHost(), options.port()).awaitUninterruptibly();
    if (!f.isSuccess()) {
      throw new TransportException("cannot listen on " + options.bindHost() + ":" + options.port() + ": "
          + f.cause(), f.cause());
    }
    serverChannel = f.channel();
  }

  @Override
  void doStop() {
    serverChannel.close().awaitUninterruptibly();
  }

  /** The bound address. */
  public InetSocketAddress address() {
    requireStarted();
    return (InetSocketAddress) serverChannel.localAddress();
  }

  /** The bound port. */
  public int port() {
    return address().getPort();
  }

  @Override
  public String toString() {
    return "transport server" + (serverChannel == null ? "" : " on " + serverChannel.localAddress());
  }
}
