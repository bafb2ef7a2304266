package org.yarngnn.app.transport;

/**
 * One frame's worth of content. A message knows its type byte and writes its body; the matching
 * {@link MessageCodec.Decoder} reads it back. Built-in types are listed in {@link MessageCodec}; applications add
 * their own with {@link MessageCodec.Builder#register}.
 */
public interface Message {
  /** The type byte written first in the frame. */
  byte type();

  /** Writes the body (everything after the type byte). */
  void writeBody(FrameWriter out);

  /** Expected body size in bytes, used to size the frame buffer; exact where cheap, a guess otherwise. */
  default int bodySizeHint() {
    return 64;
  }
}
