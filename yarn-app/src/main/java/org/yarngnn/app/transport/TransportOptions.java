package org.yarngnn.app.transport;

/**
 * Settings of a transport, immutable; the defaults suit a container with 1-2 vcores. Times in milliseconds, sizes
 * in bytes. Every transport authenticates: {@link #secret()} and {@link #identity()} are required, so a participant
 * that builds its transport from the job's options (see {@code runtime.JobTransport}) proves it belongs to the job
 * on every connection without code of its own, and one that forgets them cannot start.
 *
 * @param bindHost the address the server binds; default 127.0.0.1 (loopback). A container binds the host it
 *     advertises (its NodeManager's), never all interfaces
 * @param port default 0: any free port (read it back from {@link TransportServer#port()})
 * @param ioThreads event-loop threads shared by the server and all its connections; default min(2, cores)
 * @param creditsPerStream row blocks a receiver lets each sender have in flight per stream (sent, not yet
 *     released); default 4
 * @param maxFrameBytes the largest frame accepted; a longer one closes the connection. Default 256 MiB
 * @param writeLowWaterMark Netty's write buffer: sending resumes below it. Default 1 MiB
 * @param writeHighWaterMark row blocks wait above it. Default 4 MiB
 * @param connectTimeoutMillis one connection attempt's timeout; default 5 s
 * @param connectAttempts before giving up; default 10
 * @param connectBackoffMillis the pause after the first failed attempt, doubled after each further one up to
 *     2 s; default 100 ms
 * @param heartbeatIntervalMillis a heartbeat is sent after this long without writing; 0 disables heartbeats.
 *     Default 1 s
 * @param heartbeatTimeoutMillis the connection is closed as dead after this long without any frame from the
 *     peer; default 15 s
 * @param sendTimeoutMillis the longest {@link PeerConnection#sendBlocking} waits for credit; default 10 min
 * @param secret the job's key, proven by both ends of every connection before any message is read
 * @param identity who this participant is ({@code driver}, {@code worker 3}): claimed in the handshake and bound
 *     to the proof of the key, so the other end learns it from {@link PeerConnection#peerIdentity()}. At most
 *     {@value #MAX_IDENTITY_BYTES} bytes of UTF-8
 * @param encrypt whether frames after the handshake are encrypted and authenticated (AES-GCM, per-direction keys
 *     derived from the secret and both handshake nonces); both ends must agree. Default off
 * @param handshakeTimeoutMillis a connection that has not completed the handshake this long after it opened is
 *     closed; default 5 s
 */
public record TransportOptions(String bindHost, int port, int ioThreads, int creditsPerStream, int maxFrameBytes,
    int writeLowWaterMark, int writeHighWaterMark, int connectTimeoutMillis, int connectAttempts,
    int connectBackoffMillis, int heartbeatIntervalMillis, int heartbeatTimeoutMillis, long sendTimeoutMillis,
    MessageCodec codec, TransportSecret secret, String identity, boolean encrypt, int handshakeTimeoutMillis) {
  public static Builder builder() {
    return new Builder();
  }

  /** Longest identity a handshake carries. */
  public static final int MAX_IDENTITY_BYTES = 64;

  /** 1..{@value #MAX_IDENTITY_BYTES} bytes of UTF-8 without control characters (it is logged). */
  static boolean validIdentity(String id) {
    if (id == null || id.isEmpty() || id.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_IDENTITY_BYTES) {
      return false;
    }
    return id.chars().noneMatch(Character::isISOControl);
  }

  public static final class Builder {
    private String bindHost = "127.0.0.1";
    private int port = 0;
    private int ioThreads = Math.min(2, Runtime.getRuntime().availableProcessors());
    private int creditsPerStream = 4;
    private int maxFrameBytes = 256 << 20;
    private int writeLowWaterMark = 1 << 20;
    private int writeHighWaterMark = 4 << 20;
    private int connectTimeoutMillis = 5_000;
    private int connectAttempts = 10;
    private int connectBackoffMillis = 100;
    private int heartbeatIntervalMillis = 1_000;
    private int heartbeatTimeoutMillis = 15_000;
    private long sendTimeoutMillis = 600_000;
    private MessageCodec codec = MessageCodec.standard();
    private TransportSecret secret;
    private String identity;
    private boolean encrypt;
    private int handshakeTimeoutMillis = 5_000;

    private Builder() {}

    public Builder bindHost(String v) {
      bindHost = v;
      return this;
    }

    public Builder port(int v) {
      port = v;
      return this;
    }

    public Builder ioThreads(int v) {
      ioThreads = v;
      return this;
    }

    public Builder creditsPerStream(int v) {
      creditsPerStream = v;
      return this;
    }

    public Builder maxFrameBytes(int v) {
      maxFrameBytes = v;
      return this;
    }

    public Builder writeWaterMarks(int low, int high) {
      writeLowWaterMark = low;
      writeHighWaterMark = high;
      return this;
    }

    public Builder connectTimeoutMillis(int v) {
      connectTimeoutMillis = v;
      return this;
    }

    public Builder connectAttempts(int v) {
      connectAttempts = v;
      return this;
    }

    public Builder connectBackoffMillis(int v) {
      connectBackoffMillis = v;
      return this;
    }

    /** Heartbeat interval and dead-peer timeout; the timeout must exceed the interval (0, 0 disables both). */
    public Builder heartbeat(int intervalMillis, int timeoutMillis) {
      heartbeatIntervalMillis = intervalMillis;
      heartbeatTimeoutMillis = timeoutMillis;
      return this;
    }

    public Builder sendTimeoutMillis(long v) {
      sendTimeoutMillis = v;
      return this;
    }

    public Builder codec(MessageCodec v) {
      codec = v;
      return this;
    }

    public Builder secret(TransportSecret v) {
      secret = v;
      return this;
    }

    public Builder identity(String v) {
      identity = v;
      return this;
    }

    public Builder encrypt(boolean v) {
      encrypt = v;
      return this;
    }

    public Builder handshakeTimeoutMillis(int v) {
      handshakeTimeoutMillis = v;
      return this;
    }

    public TransportOptions build() {
      require(bindHost != null && !bindHost.isEmpty(), "bindHost is empty");
      require(port >= 0 && port <= 0xFFFF, "port " + port);
      require(ioThreads >= 1, "ioThreads " + ioThreads);
      require(creditsPerStream >= 1, "creditsPerStream " + creditsPerStream);
      require(maxFrameBytes >= 64, "maxFrameBytes " + maxFrameBytes);
      require(writeLowWaterMark > 0 && writeHighWaterMark >= writeLowWaterMark,
          "write water marks " + writeLowWaterMark + ".." + writeHighWaterMark);
      require(connectTimeoutMillis > 0, "connectTimeoutMillis " + connectTimeoutMillis);
      require(connectAttempts >= 1, "connectAttempts " + connectAttempts);
      require(connectBackoffMillis >= 0, "connectBackoffMillis " + connectBackoffMillis);
      require(heartbeatIntervalMillis >= 0 && (heartbeatIntervalMillis == 0 ? heartbeatTimeoutMillis == 0
          : heartbeatTimeoutMillis > heartbeatIntervalMillis),
          "heartbeat every " + heartbeatIntervalMillis + " ms with timeout " + heartbeatTimeoutMillis + " ms");
      require(sendTimeoutMillis > 0, "sendTimeoutMillis " + sendTimeoutMillis);
      require(codec != null, "codec is null");
      require(secret != null, "no secret (every connection authenticates: build the options from the job's"
          + " JobTransport, or give a test its own TransportSecret)");
      require(validIdentity(identity), "identity '" + identity + "' (1.." + MAX_IDENTITY_BYTES
          + " bytes of UTF-8, no control characters)");
      require(handshakeTimeoutMillis > 0, "handshakeTimeoutMillis " + handshakeTimeoutMillis);
      return new TransportOptions(bindHost, port, ioThreads, creditsPerStream, maxFrameBytes, writeLowWaterMark,
          writeHighWaterMark, connectTimeoutMillis, connectAttempts, connectBackoffMillis, heartbeatIntervalMillis,
          heartbeatTimeoutMillis, sendTimeoutMillis, codec, secret, identity, encrypt, handshakeTimeoutMillis);
    }

    private static void require(boolean ok, String what) {
      if (!ok) {
        throw new IllegalArgumentException("bad transport option: " + what);
      }
    }
  }
}
