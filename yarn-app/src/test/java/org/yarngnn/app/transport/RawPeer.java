package org.yarngnn.app.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Cipher;

/**
 * A peer on a plain socket, for the tests that play an intruder: it may run the handshake (with any secret and
 * identity, as the connecting end), then writes whatever bytes or frames it likes and reads what comes back.
 */
public final class RawPeer implements AutoCloseable {
  private final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;
  private FrameCrypto.Direction send;
  private FrameCrypto.Direction receive;

  private RawPeer(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new DataInputStream(socket.getInputStream());
    this.out = socket.getOutputStream();
  }

  /** A plain TCP connection, no handshake yet. */
  public static RawPeer connect(String host, int port) throws IOException {
    return new RawPeer(new Socket(host, port));
  }

  /** Connects and completes the handshake as {@code identity} with {@code secret}. */
  public static RawPeer authenticated(String host, int port, TransportSecret secret, String identity,
      boolean encrypt) throws IOException {
    RawPeer p = connect(host, port);
    p.handshake(secret, identity, encrypt);
    return p;
  }

  /**
   * The connecting end's handshake. Throws when the peer closes the connection or its proof is wrong (with a
   * wrong secret, the peer closes on this end's proof: the exception then is an EOF).
   */
  public void handshake(TransportSecret secret, String identity, boolean encrypt) throws IOException {
    byte[] nonce = new byte[Handshake.NONCE_BYTES];
    new SecureRandom().nextBytes(nonce);
    byte[] own = Handshake.challenge(nonce, encrypt, identity);
    writeFrame(Handshake.CHALLENGE, own);
    byte[] peer = body(readPlainFrame(), Handshake.CHALLENGE);
    writeFrame(Handshake.PROOF, Handshake.proof(secret.key(), false, peer, own));
    byte[] proof = body(readPlainFrame(), Handshake.PROOF);
    if (!MessageDigest.isEqual(proof, Handshake.proof(secret.key(), true, peer, own))) {
      throw new IOException("the peer's proof is wrong");
    }
    if (encrypt) {
      send = new FrameCrypto.Direction(Handshake.frameKey(secret.key(), false, peer, own), Cipher.ENCRYPT_MODE);
      receive = new FrameCrypto.Direction(Handshake.frameKey(secret.key(), true, peer, own), Cipher.DECRYPT_MODE);
    }
  }

  private static byte[] body(byte[] frame, byte type) throws IOException {
    if (frame[0] != type) {
      throw new IOException("expected a frame of type " + type + ", got " + frame[0]);
    }
    byte[] b = new byte[frame.length - 1];
    System.arraycopy(frame, 1, b, 0, b.length);
    return b;
  }

  private void writeFrame(byte type, byte[] body) throws IOException {
    ByteBuffer f = ByteBuffer.allocate(5 + body.length).order(ByteOrder.LITTLE_ENDIAN);
    f.putInt(1 + body.length).put(type).put(body);
    write(f.array());
  }

  /** Raw bytes, as they are. */
  public void write(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** {@code m} as a frame, encrypted when the handshake said so; {@code tamper} flips one bit of it on the way. */
  public void send(Message m, boolean tamper) throws IOException {
    ByteBuf f = MessageCodec.encode(m, UnpooledByteBufAllocator.DEFAULT);
    byte[] frame = new byte[f.readableBytes()];
    f.readBytes(frame);
    f.release();
    if (send != null) {
      byte[] sealed = new byte[frame.length + FrameCrypto.TAG_BYTES];
      ByteBuffer.wrap(sealed).order(ByteOrder.LITTLE_ENDIAN).putInt(frame.length - 4 + FrameCrypto.TAG_BYTES);
      try {
        send.apply(ByteBuffer.wrap(frame, 4, frame.length - 4), ByteBuffer.wrap(sealed, 4, sealed.length - 4));
      } catch (GeneralSecurityException e) {
        throw new IOException(e);
      }
      frame = sealed;
    }
    if (tamper) {
      frame[frame.length - 1 - FrameCrypto.TAG_BYTES] ^= 1;
    }
    write(frame);
  }

  public void send(Message m) throws IOException {
    send(m, false);
  }

  /** The next frame without its length (type byte first), decrypted when the handshake said so. */
  public byte[] readFrame() throws IOException {
    byte[] f = readPlainFrame();
    if (receive == null) {
      return f;
    }
    byte[] plain = new byte[f.length - FrameCrypto.TAG_BYTES];
    try {
      receive.apply(ByteBuffer.wrap(f), ByteBuffer.wrap(plain));
    } catch (GeneralSecurityException e) {
      throw new IOException(e);
    }
    return plain;
  }

  private byte[] readPlainFrame() throws IOException {
    int length = Integer.reverseBytes(in.readInt());
    if (length < 1 || length > (1 << 20)) {
      throw new IOException("frame length " + length);
    }
    byte[] f = new byte[length];
    in.readFully(f);
    return f;
  }

  /**
   * Reads and drops whatever arrives until the peer closes the connection; true when it did so within
   * {@code millis}, false when it was still open then.
   */
  public boolean closedWithin(long millis) throws IOException {
    long deadline = System.currentTimeMillis() + millis;
    byte[] buf = new byte[4096];
    while (true) {
      long left = deadline - System.currentTimeMillis();
      if (left <= 0) {
        return false;
      }
      socket.setSoTimeout((int) left);
      try {
        if (socket.getInputStream().read(buf) < 0) {
          return true;
        }
      } catch (SocketTimeoutException e) {
        return false;
      } catch (IOException e) {
        return true; // reset by the peer: closed as well
      }
    }
  }

  /**
   * Reads whole frames (not decrypted) until the peer closes the connection: how many came, or -1 when it was
   * still open after {@code millis}.
   */
  public int framesUntilClosed(long millis) throws IOException {
    socket.setSoTimeout((int) millis);
    int n = 0;
    try {
      while (true) {
        readPlainFrame();
        n++;
      }
    } catch (SocketTimeoutException e) {
      return -1;
    } catch (IOException e) {
      return n; // EOF or reset: closed
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
