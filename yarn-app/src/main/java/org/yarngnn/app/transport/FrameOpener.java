package org.yarngnn.app.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;

/**
 * Inbound, after an encrypting handshake: opens each frame the {@link FrameDecoder} cut (AES-GCM under the peer's
 * direction key and the next counter) into a plaintext frame for the connection. A frame that fails authentication
 * (altered, replayed, dropped or reordered in transit) is a malformed frame: nothing of it is delivered and the
 * connection closes.
 */
final class FrameOpener extends ChannelInboundHandlerAdapter {
  private final FrameCrypto.Direction in;

  FrameOpener(byte[] key) {
    this.in = new FrameCrypto.Direction(key, Cipher.DECRYPT_MODE);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf sealed = (ByteBuf) msg;
    ByteBuf plain = null;
    try {
      int length = sealed.readableBytes() - FrameCrypto.TAG_BYTES;
      if (length < 1) {
        throw new MalformedFrameException("encrypted frame of " + sealed.readableBytes() + " bytes");
      }
      plain = ctx.alloc().directBuffer(length, length);
      long frame = in.counter();
      try {
        plain.writerIndex(in.apply(sealed.nioBuffer(), plain.nioBuffer(0, length)));
      } catch (GeneralSecurityException e) {
        throw new MalformedFrameException("encrypted frame " + frame + " failed authentication (altered, replayed"
            + " or out of order)");
      }
    } catch (RuntimeException e) {
      if (plain != null) {
        plain.release();
      }
      throw e;
    } finally {
      sealed.release();
    }
    ctx.fireChannelRead(plain);
  }
}
