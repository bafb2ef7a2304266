package org.yarngnn.app.transport;

import java.security.SecureRandom;
import java.util.Arrays;

/**
 * A job's shared key: every connection of the job's transport proves knowledge of it before anything else is read
 * (see {@link Handshake}), and with encryption on, the frames' keys are derived from it. Immutable; never printed.
 * On YARN the client makes one per application and ships it in the application's {@code Credentials}; with
 * {@code --local} the driver makes one in memory.
 */
public final class TransportSecret {
  /** Bytes of a generated secret (256 bits). */
  public static final int BYTES = 32;
  /** The shortest key accepted (128 bits). */
  public static final int MIN_BYTES = 16;

  private static final SecureRandom RANDOM = new SecureRandom();

  private final byte[] key;

  private TransportSecret(byte[] key) {
    this.key = key;
  }

  /** A fresh random secret of {@value #BYTES} bytes. */
  public static TransportSecret generate() {
    byte[] k = new byte[BYTES];
    RANDOM.nextBytes(k);
    return new TransportSecret(k);
  }

  /** A secret from its bytes (copied); at least {@value #MIN_BYTES} of them. */
  public static TransportSecret of(byte[] key) {
    if (key == null || key.length < MIN_BYTES) {
      throw new IllegalArgumentException("a transport secret needs at least " + MIN_BYTES + " bytes, not "
          + (key == null ? "none" : key.length));
    }
    return new TransportSecret(key.clone());
  }

  /** A copy of the key's bytes (to store it in a job's credentials). */
  public byte[] bytes() {
    return key.clone();
  }

  /** The key itself, not copied: for the handshake's MACs only. */
  byte[] key() {
    return key;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TransportSecret s && java.security.MessageDigest.isEqual(key, s.key);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(key);
  }

  @Override
  public String toString() {
    return "TransportSecret(" + key.length + " bytes, not shown)";
  }
}
