package org.yarngnn.app.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;

/**
 * Outbound, after an encrypting handshake: each frame {@code [int32 length][type, body]} leaves as
 * {@code [int32 length + 16][AES-GCM(type, body), tag]}, under this direction's key and the frame's counter.
 */
final class FrameSealer extends ChannelOutboundHandlerAdapter {
  private final FrameCrypto.Direction out;

  FrameSealer(byte[] key) {
    this.out = new FrameCrypto.Direction(key, Cipher.ENCRYPT_MODE);
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (!(msg instanceof ByteBuf frame)) {
      ctx.write(msg, promise);
      return;
    }
    int plain = frame.readableBytes() - Integer.BYTES;
    ByteBuf sealed = ctx.alloc().directBuffer(Integer.BYTES + plain + FrameCrypto.TAG_BYTES);
    try {
      sealed.writeIntLE(plain + FrameCrypto.TAG_BYTES);
      int n = out.apply(frame.nioBuffer(frame.readerIndex() + Integer.BYTES, plain),
          sealed.nioBuffer(Integer.BYTES, plain + FrameCrypto.TAG_BYTES));
      sealed.writerIndex(Integer.BYTES + n);
    } catch (GeneralSecurityException | RuntimeException e) {
      sealed.release();
      promise.setFailure(new TransportException("cannot encrypt a frame: " + e, e));
      return;
    } finally {
      frame.release();
    }
    ctx.write(sealed, promise);
  }
}
