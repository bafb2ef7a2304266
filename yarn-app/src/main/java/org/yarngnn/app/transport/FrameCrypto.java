package org.yarngnn.app.transport;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The handshake's and the frames' cryptography, JDK only: HMAC-SHA256 proofs, HKDF-SHA256 (RFC 5869) for the
 * per-direction AES-256 keys, and AES-GCM with a 96-bit nonce that is the frame's 64-bit counter in its direction
 * (each key serves one direction of one connection, so a counter never repeats under a key).
 */
final class FrameCrypto {
  /** Bytes of a GCM tag: the growth of every encrypted frame. */
  static final int TAG_BYTES = 16;
  static final int KEY_BYTES = 32;
  private static final int NONCE_BYTES = 12;

  private FrameCrypto() {}

  static byte[] hmac(byte[] key, byte[]... parts) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      for (byte[] p : parts) {
        mac.update(p);
      }
      return mac.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
    }
  }

  /** HKDF-SHA256 with one output block: extract with {@code salt}, expand with {@code info}. */
  static byte[] hkdf(byte[] secret, byte[] salt, String info) {
    byte[] prk = hmac(salt, secret);
    return hmac(prk, ascii(info), new byte[] {1});
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** One direction's AES-GCM state: the key and the next frame's counter; confined to the event loop. */
  static final class Direction {
    private final SecretKeySpec key;
    private final Cipher cipher;
    private final int mode;
    private long counter;

    Direction(byte[] key, int mode) {
      this.key = new SecretKeySpec(key, "AES");
      this.mode = mode;
      try {
        this.cipher = Cipher.getInstance("AES/GCM/NoPadding");
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("AES/GCM is not available in this JVM", e);
      }
    }

    /** Frames processed so far: the counter of the next one. */
    long counter() {
      return counter;
    }

    /**
     * Seals or opens {@code in} into {@code out} under the next counter; returns the bytes written. Throws
     * {@link javax.crypto.AEADBadTagException} when an opened frame fails authentication.
     */
    int apply(ByteBuffer in, ByteBuffer out) throws GeneralSecurityException {
      byte[] nonce = new byte[NONCE_BYTES];
      long c = counter++;
      for (int i = 0; i < Long.BYTES; i++) {
        nonce[NONCE_BYTES - 1 - i] = (byte) (c >>> (8 * i));
      }
      cipher.init(mode, key, new GCMParameterSpec(TAG_BYTES * 8, nonce));
      return cipher.doFinal(in, out);
    }
  }
}
