package org.yarngnn.app.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first thing on every connection, both ends at once: mutual challenge-response over the job's
 * {@link TransportSecret} before any message is read. Each end sends a challenge (version, flags, a fresh 32-byte
 * nonce, the identity it claims); on the peer's challenge it answers with its proof, HMAC-SHA256 under the secret
 * of the direction and both challenges (so both nonces and both identities); it checks the peer's proof in
 * constant time. Then the connection opens ({@link TransportListener#onOpened}) with the peer's identity proven,
 * and, when both asked for it, every later frame is encrypted ({@link FrameSealer}, {@link FrameOpener}) under
 * per-direction keys derived from the secret and both nonces.
 *
 * <p>Bounded: frames of at most {@value #MAX_FRAME_BYTES} bytes until it completes, and at most
 * {@link TransportOptions#handshakeTimeoutMillis()} for all of it. Anything else (a wrong proof, another
 * version, a garbage or oversized frame, silence, a mismatched encryption setting) closes the connection with a
 * warning in the log; the listener never hears of it, so it cannot fail a job.
 */
final class Handshake extends ChannelInboundHandlerAdapter {
  static final byte CHALLENGE = 8;
  static final byte PROOF = 9;
  static final int VERSION = 1;
  static final int NONCE_BYTES = 32;
  static final int PROOF_BYTES = 32;
  static final int FLAG_ENCRYPT = 1;
  /** Largest handshake frame (type byte included): a challenge with the longest identity. */
  static final int MAX_FRAME_BYTES = 1 + 1 + 1 + NONCE_BYTES + 1 + TransportOptions.MAX_IDENTITY_BYTES;

  private static final Logger LOG = LoggerFactory.getLogger(Handshake.class);
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final byte[] PROOF_LABEL = FrameCrypto.ascii("yarn-gnn transport proof 1");

  private enum State { CHALLENGED, PROVED, DONE, FAILED }

  private final TransportOptions options;
  private final PeerConnection connection;
  private final FrameDecoder decoder;
  /** This end connected (false: it accepted): fixes which challenge comes first in the proofs and keys. */
  private final boolean connector;
  private final byte[] ownChallenge;
  private byte[] peerChallenge;
  private String peerIdentity;
  private State state = State.CHALLENGED;
  private ScheduledFuture<?> timeout;

  Handshake(TransportOptions options, PeerConnection connection, FrameDecoder decoder, boolean connector) {
    this.options = options;
    this.connection = connection;
    this.decoder = decoder;
    this.connector = connector;
    byte[] nonce = new byte[NONCE_BYTES];
    RANDOM.nextBytes(nonce);
    ownChallenge = challenge(nonce, options.encrypt(), options.identity());
    decoder.maxFrameBytes(MAX_FRAME_BYTES);
  }

  /** A challenge body: byte version, byte flags, nonce, string identity. */
  static byte[] challenge(byte[] nonce, boolean encrypt, String identity) {
    byte[] id = identity.getBytes(StandardCharsets.UTF_8);
    byte[] b = new byte[3 + NONCE_BYTES + id.length];
    b[0] = (byte) VERSION;
    b[1] = (byte) (encrypt ? FLAG_ENCRYPT : 0);
    System.arraycopy(nonce, 0, b, 2, NONCE_BYTES);
    b[2 + NONCE_BYTES] = (byte) id.length; // a one-byte vInt: identities are at most 64 bytes
    System.arraycopy(id, 0, b, 3 + NONCE_BYTES, id.length);
    return b;
  }

  /** The proof of the end in direction {@code acceptor} (true) or connector, over both challenges. */
  static byte[] proof(byte[] key, boolean acceptor, byte[] acceptorChallenge, byte[] connectorChallenge) {
    return FrameCrypto.hmac(key, PROOF_LABEL, new byte[] {(byte) (acceptor ? 'A' : 'C')},
        lengthOf(acceptorChallenge), acceptorChallenge, lengthOf(connectorChallenge), connectorChallenge);
  }

  /** The AES key of frames sent by the acceptor (true) or the connector. */
  static byte[] frameKey(byte[] key, boolean fromAcceptor, byte[] acceptorChallenge, byte[] connectorChallenge) {
    byte[] salt = new byte[2 * NONCE_BYTES];
    System.arraycopy(acceptorChallenge, 2, salt, 0, NONCE_BYTES);
    System.arraycopy(connectorChallenge, 2, salt, NONCE_BYTES, NONCE_BYTES);
    return FrameCrypto.hkdf(key, salt, "yarn-gnn transport frames 1 from " + (fromAcceptor ? "acceptor" : "connector"));
  }

  private static byte[] lengthOf(byte[] b) {
    return new byte[] {(byte) b.length};
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    // Held back from the connection until the peer is proven; the timer bounds how long that may take.
    timeout = ctx.executor().schedule(() -> fail(ctx, "no handshake within " + options.handshakeTimeoutMillis()
        + " ms"), options.handshakeTimeoutMillis(), TimeUnit.MILLISECONDS);
    ctx.writeAndFlush(frame(ctx, CHALLENGE, ownChallenge));
  }

  private static ByteBuf frame(ChannelHandlerContext ctx, byte type, byte[] body) {
    ByteBuf f = ctx.alloc().directBuffer(Integer.BYTES + 1 + body.length);
    f.writeIntLE(1 + body.length);
    f.writeByte(type);
    f.writeBytes(body);
    return f;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf frame = (ByteBuf) msg;
    try {
      if (state == State.CHALLENGED) {
        readChallenge(ctx, frame);
      } else if (state == State.PROVED) {
        readProof(ctx, frame);
      }
      // FAILED: the channel is closing; what is still buffered is dropped.
    } catch (MalformedFrameException e) {
      fail(ctx, e.getMessage());
    } finally {
      frame.release();
    }
  }

  private void readChallenge(ChannelHandlerContext ctx, ByteBuf frame) {
    FrameReader in = new FrameReader(frame);
    byte type = in.readByte();
    if (type != CHALLENGE) {
      throw new MalformedFrameException("first frame of type " + (type & 0xFF) + ", not a handshake challenge"
          + " (a peer without the transport's authentication, or not one of ours)");
    }
    byte[] body = new byte[in.remaining()];
    frame.getBytes(frame.readerIndex(), body);
    int version = in.readByte() & 0xFF;
    if (version != VERSION) {
      throw new MalformedFrameException("handshake version " + version + ", this end speaks " + VERSION);
    }
    int flags = in.readByte() & 0xFF;
    if ((flags & ~FLAG_ENCRYPT) != 0) {
      throw new MalformedFrameException("unknown handshake flags " + flags);
    }
    in.skip(NONCE_BYTES);
    String identity = in.readString();
    if (in.remaining() != 0 || !TransportOptions.validIdentity(identity)) {
      throw new MalformedFrameException("malformed handshake challenge");
    }
    boolean peerEncrypts = (flags & FLAG_ENCRYPT) != 0;
    if (peerEncrypts != options.encrypt()) {
      throw new MalformedFrameException("the peer " + (peerEncrypts ? "encrypts" : "does not encrypt")
          + " frames and this end " + (options.encrypt() ? "does" : "does not") + " (yarngnn.transport.encrypt)");
    }
    peerChallenge = body;
    peerIdentity = identity;
    state = State.PROVED;
    ctx.writeAndFlush(frame(ctx, PROOF, proof(options.secret().key(), !connector, acceptorChallenge(),
        connectorChallenge())));
  }

  private void readProof(ChannelHandlerContext ctx, ByteBuf frame) {
    FrameReader in = new FrameReader(frame);
    byte type = in.readByte();
    if (type != PROOF || in.remaining() != PROOF_BYTES) {
      throw new MalformedFrameException("expected a handshake proof, got a frame of type " + (type & 0xFF) + " with "
          + in.remaining() + " bytes");
    }
    byte[] got = new byte[PROOF_BYTES];
    frame.readBytes(got);
    byte[] expected = proof(options.secret().key(), connector, acceptorChallenge(), connectorChallenge());
    if (!MessageDigest.isEqual(expected, got)) {
      throw new MalformedFrameException("wrong handshake proof for '" + peerIdentity
          + "' (the peer does not hold this job's secret)");
    }
    state = State.DONE;
    timeout.cancel(false);
    if (options.encrypt()) {
      byte[] key = options.secret().key();
      byte[] send = frameKey(key, !connector, acceptorChallenge(), connectorChallenge());
      byte[] receive = frameKey(key, connector, acceptorChallenge(), connectorChallenge());
      ctx.pipeline().addAfter(TransportService.DECODER, "opener", new FrameOpener(receive));
      ctx.pipeline().addFirst("sealer", new FrameSealer(send));
      decoder.maxFrameBytes(options.maxFrameBytes() + FrameCrypto.TAG_BYTES);
    } else {
      decoder.maxFrameBytes(options.maxFrameBytes());
    }
    connection.authenticated(peerIdentity);
    ctx.fireChannelActive();
    ctx.pipeline().remove(this);
  }

  private byte[] acceptorChallenge() {
    return connector ? peerChallenge : ownChallenge;
  }

  private byte[] connectorChallenge() {
    return connector ? ownChallenge : peerChallenge;
  }

  private void fail(ChannelHandlerContext ctx, String reason) {
    if (state == State.DONE || state == State.FAILED) {
      return;
    }
    state = State.FAILED;
    if (timeout != null) {
      timeout.cancel(false);
    }
    String who = peerIdentity == null ? "" : " (claiming to be '" + peerIdentity + "')";
    String what = connector ? "could not authenticate to " + ctx.channel().remoteAddress() + who
        : "refused connection from " + ctx.channel().remoteAddress() + who;
    LOG.warn("{}: {}", what, reason);
    connection.handshakeFailed(new TransportException(what + ": " + reason));
    ctx.close();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    Throwable c = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
    fail(ctx, c instanceof MalformedFrameException ? c.getMessage() : c.toString());
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (!(evt instanceof IdleStateEvent)) {
      ctx.fireUserEventTriggered(evt); // heartbeats start once the connection is open; the timer covers silence
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    fail(ctx, "closed by the peer during the handshake");
    ctx.fireChannelInactive();
  }
}
