package org.yarngnn.app.runtime;

import org.yarngnn.app.options.RuntimeKeys;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.transport.MessageCodec;
import org.yarngnn.app.transport.TransportOptions;
import org.yarngnn.app.transport.TransportSecret;

/**
 * What every transport of one job shares: the job's secret, whether frames are encrypted
 * ({@code yarngnn.transport.encrypt}), and the host this participant listens on and advertises (its NodeManager's host in a
 * container, loopback with {@code --local}; never all interfaces). Every participant builds its transport from
 * {@link #options}, so each connection of the job authenticates, whatever role opens it. Immutable.
 */
public final class JobTransport {
  /** {@code -D yarngnn.transport.encrypt=true}: AES-GCM on every frame after the handshake (default off). */
  public static final String ENCRYPT_KEY = RuntimeKeys.TRANSPORT_ENCRYPT.key();
  public static final String LOOPBACK = "127.0.0.1";

  private final TransportSecret secret;
  private final boolean encrypt;
  private final String host;

  public JobTransport(TransportSecret secret, boolean encrypt, String host) {
    if (secret == null || host == null || host.isEmpty()) {
      throw new IllegalArgumentException("a job transport needs a secret and a host");
    }
    this.secret = secret;
    this.encrypt = encrypt;
    this.host = host;
  }

  /** {@code --local}: a fresh in-memory secret, loopback only. */
  public static JobTransport local(Configuration conf) {
    return new JobTransport(TransportSecret.generate(), RuntimeKeys.TRANSPORT_ENCRYPT.get(conf), LOOPBACK);
  }

  /** In a YARN container: the secret from the container's credentials, listening on {@code host}. */
  public static JobTransport inContainer(Configuration conf, String host) throws IOException {
    return new JobTransport(JobSecretKey.ofCurrentUser(), RuntimeKeys.TRANSPORT_ENCRYPT.get(conf), host);
  }

  /** The host this participant binds and advertises. */
  public String host() {
    return host;
  }

  public boolean encrypt() {
    return encrypt;
  }

  /** Options of a transport of this job for the participant {@code identity} (see {@link Participants}). */
  public TransportOptions options(MessageCodec codec, String identity) {
    return builder(codec, identity).build();
  }

  /** As {@link #options}, to change other settings first. */
  public TransportOptions.Builder builder(MessageCodec codec, String identity) {
    return TransportOptions.builder().codec(codec).secret(secret).identity(identity).encrypt(encrypt)
        .bindHost(host);
  }

  @Override
  public String toString() {
    return "job transport on " + host + (encrypt ? ", encrypted" : "");
  }
}
