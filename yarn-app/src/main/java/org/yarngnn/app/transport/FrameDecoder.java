package org.yarngnn.app.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Splits the byte stream into frames, each copied once into its own exactly sized pooled direct buffer as the
 * bytes arrive. Unlike LengthFieldBasedFrameDecoder this never grows a cumulation buffer to a whole large frame nor
 * hands out slices that pin it, so the memory a delivered-but-unreleased row block holds is exactly its frame.
 * Emits frames without the length prefix (type byte first), one per {@code decode} call, so a handler that changes
 * the pipeline or the {@link #maxFrameBytes limit} on one frame (the {@link Handshake}) does so before the next
 * frame's length is read. A length outside the limit is refused before anything is allocated for it.
 */
final class FrameDecoder extends ByteToMessageDecoder {
  private int maxFrameBytes;
  private ByteBuf frame;

  FrameDecoder(int maxFrameBytes) {
    this.maxFrameBytes = maxFrameBytes;
  }

  /** Sets the longest frame accepted from the next frame on (the handshake's bound is small, the stream's large). */
  void maxFrameBytes(int v) {
    maxFrameBytes = v;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (frame == null) {
      if (in.readableBytes() < Integer.BYTES) {
        return;
      }
      int length = in.readIntLE();
      if (length < 1 || length > maxFrameBytes) {
        throw new MalformedFrameException("frame length " + length + " outside 1.." + maxFrameBytes);
      }
      frame = ctx.alloc().directBuffer(length, length);
    }
    frame.writeBytes(in, Math.min(in.readableBytes(), frame.writableBytes()));
    if (frame.isWritable()) {
      return;
    }
    out.add(frame);
    frame = null;
  }

  @Override
  protected void handlerRemoved0(ChannelHandlerContext ctx) {
    if (frame != null) {
      frame.release();
      frame = null;
    }
  }
}
