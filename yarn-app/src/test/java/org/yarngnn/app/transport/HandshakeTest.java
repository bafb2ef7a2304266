package org.yarngnn.app.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.yarngnn.app.transport.TransportTesting.LOOPBACK;
import static org.yarngnn.app.transport.TransportTesting.SECRET;
import static org.yarngnn.app.transport.TransportTesting.nextClose;
import static org.yarngnn.app.transport.TransportTesting.nextMessage;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The handshake over real loopback sockets: both ends proven, and every way in without the secret (a wrong key,
 * garbage, a huge length, an oversized or late handshake, a mismatched encryption setting) closed with a warning
 * in the log, the listener never told. With encryption, frames arrive intact and an altered one closes the
 * connection.
 */
@ExtendWith(ThreadLeakCheck.class)
@Timeout(60)
class HandshakeTest {
  private final List<String> warnings = new CopyOnWriteArrayList<>();
  private final AppenderSkeleton capture = new AppenderSkeleton() {
    @Override
    protected void append(LoggingEvent e) {
      if (e.getLevel().isGreaterOrEqual(Level.WARN)) {
        warnings.add(e.getRenderedMessage());
      }
    }

    @Override
    public void close() {}

    @Override
    public boolean requiresLayout() {
      return false;
    }
  };

  @BeforeEach
  void captureWarnings() {
    Logger.getLogger(Handshake.class).addAppender(capture);
  }

  @AfterEach
  void stopCapturing() {
    Logger.getLogger(Handshake.class).removeAppender(capture);
  }

  private static TransportOptions.Builder as(String identity) {
    return TransportTesting.quick().identity(identity);
  }

  @Test
  void bothEndsLearnTheProvenIdentityAndMessagesFlow() throws Exception {
    InboundQueue serverSide = new InboundQueue();
    InboundQueue clientSide = new InboundQueue();
    try (TransportServer server = new TransportServer(as("driver").build(), serverSide);
        TransportClient client = new TransportClient(as("worker 3").build(), clientSide)) {
      server.start();
      client.start();
      PeerConnection c = client.connect(LOOPBACK, server.port(), "driver");
      assertEquals("driver", c.peerIdentity());
      c.sendBlocking(new Failure("ping 7"));
      InboundQueue.Event e = TransportTesting.next(serverSide);
      assertEquals("worker 3", e.connection().peerIdentity());
      assertEquals(new Failure("ping 7"), e.message());
      TransportException wrongPeer = assertThrows(TransportException.class,
          () -> client.connect(LOOPBACK, server.port(), "worker 0"));
      assertTrue(wrongPeer.getMessage().contains("is 'driver', not 'worker 0'"), wrongPeer.getMessage());
    }
    assertTrue(warnings.isEmpty(), warnings::toString);
  }

  @Test
  void aWrongSecretIsRefusedOnBothEndsAndTheListenerNeverHearsOfIt() throws Exception {
    InboundQueue serverSide = new InboundQueue();
    try (TransportServer server = new TransportServer(as("driver").build(), serverSide);
        TransportClient stranger = new TransportClient(as("worker 0").secret(TransportSecret.generate()).build(),
            new InboundQueue())) {
      server.start();
      stranger.start();
      TransportException e = assertThrows(TransportException.class, () -> stranger.connect(LOOPBACK, server.port()));
      assertTrue(e.getMessage().startsWith("cannot open a connection to 127.0.0.1:" + server.port()), e.getMessage());
      // A raw stranger that completes its half: its proof is refused, it receives nothing but the challenge.
      try (RawPeer raw = RawPeer.connect(LOOPBACK, server.port())) {
        assertThrows(IOException.class, () -> raw.handshake(TransportSecret.generate(), "worker 1", false));
      }
      assertNull(serverSide.poll(300, TimeUnit.MILLISECONDS), "no event for a connection that never opened");
      assertTrue(server.connections().isEmpty());
    }
    assertTrue(warnings.stream().anyMatch(w -> w.startsWith("refused connection from /127.0.0.1:")
        && w.contains("claiming to be 'worker 1'") && w.contains("wrong handshake proof")), warnings::toString);
    assertTrue(warnings.stream().anyMatch(w -> w.startsWith("could not authenticate to")), warnings::toString);
  }

  @Test
  void garbageAHugeLengthAnOversizedHandshakeAndSilenceAreClosed() throws Exception {
    InboundQueue serverSide = new InboundQueue();
    try (TransportServer server = new TransportServer(as("worker 1").handshakeTimeoutMillis(400).build(),
        serverSide)) {
      server.start();
      int port = server.port();
      try (RawPeer garbage = RawPeer.connect(LOOPBACK, port)) {
        garbage.send(new Failure("exit 0")); // a well-formed message, but not a challenge
        assertEquals(1, garbage.framesUntilClosed(5_000), "only the server's challenge");
      }
      try (RawPeer huge = RawPeer.connect(LOOPBACK, port)) {
        huge.write(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x7F});
        assertEquals(1, huge.framesUntilClosed(5_000));
      }
      try (RawPeer oversized = RawPeer.connect(LOOPBACK, port)) {
        oversized.write(new byte[] {0, 1, 0, 0, Handshake.CHALLENGE}); // 256 bytes announced: above the bound
        assertEquals(1, oversized.framesUntilClosed(5_000));
      }
      long t0 = System.nanoTime();
      try (RawPeer silent = RawPeer.connect(LOOPBACK, port)) {
        assertEquals(1, silent.framesUntilClosed(5_000));
      }
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      assertTrue(millis >= 300 && millis < 4_000, "closed after the handshake timeout, not " + millis + " ms");
      try (RawPeer halfway = RawPeer.connect(LOOPBACK, port)) {
        // A valid challenge, then nothing: the timer still runs.
        halfway.write(challengeFrame("worker 0"));
        assertEquals(2, halfway.framesUntilClosed(5_000), "the server's challenge and its proof, then the close");
      }
      assertNull(serverSide.poll(200, TimeUnit.MILLISECONDS), "the listener heard of none of them");
    }
    assertTrue(warnings.stream().anyMatch(w -> w.contains("not a handshake challenge")), warnings::toString);
    assertTrue(warnings.stream().anyMatch(w -> w.contains("frame length 2147483647 outside")), warnings::toString);
    assertTrue(warnings.stream().anyMatch(w -> w.contains("frame length 256 outside")), warnings::toString);
    assertTrue(warnings.stream().anyMatch(w -> w.contains("no handshake within 400 ms")), warnings::toString);
  }

  private static byte[] challengeFrame(String identity) {
    byte[] body = Handshake.challenge(new byte[Handshake.NONCE_BYTES], false, identity);
    byte[] f = new byte[5 + body.length];
    f[0] = (byte) (1 + body.length);
    f[4] = Handshake.CHALLENGE;
    System.arraycopy(body, 0, f, 5, body.length);
    return f;
  }

  @Test
  void endsThatDisagreeOnEncryptionDoNotConnect() throws Exception {
    try (TransportServer server = new TransportServer(as("driver").encrypt(true).build(), new InboundQueue());
        TransportClient plain = new TransportClient(as("worker 0").build(), new InboundQueue())) {
      server.start();
      plain.start();
      assertThrows(TransportException.class, () -> plain.connect(LOOPBACK, server.port()));
    }
    assertTrue(warnings.stream().anyMatch(w -> w.contains("yarngnn.transport.encrypt")), warnings::toString);
  }

  @Test
  void encryptedFramesArriveIntactAndAnAlteredOneClosesTheConnection() throws Exception {
    InboundQueue serverSide = new InboundQueue();
    InboundQueue clientSide = new InboundQueue();
    try (TransportServer server = new TransportServer(as("driver").encrypt(true).build(), serverSide);
        TransportClient client = new TransportClient(as("worker 2").encrypt(true).build(), clientSide)) {
      server.start();
      client.start();
      PeerConnection c = client.connect(LOOPBACK, server.port(), "driver");
      float[] values = new float[3 * 1000];
      for (int i = 0; i < values.length; i++) {
        values[i] = i * 0.5f;
      }
      c.sendBlocking(new RowBlock(1, 0, 0, true, new int[] {4, 5, 6}, values, 1000));
      RowBlock got = (RowBlock) nextMessage(serverSide);
      assertArrayEquals(new int[] {4, 5, 6}, got.rows());
      assertArrayEquals(values, got.values());
      got.release();
      PeerConnection back = server.connections().get(0);
      back.sendBlocking(new Failure("reply 1"));
      assertEquals(new Failure("reply 1"), nextMessage(clientSide));

      // A peer with the secret whose second encrypted frame is altered in transit.
      try (RawPeer raw = RawPeer.authenticated(LOOPBACK, server.port(), SECRET, "worker 5", true)) {
        raw.send(new CreditGrant(CreditGrant.EVERY_STREAM, 4));
        raw.send(new Failure("first 1"));
        raw.send(new Failure("second 2"), true);
        InboundQueue.Event opened = TransportTesting.next(serverSide);
        assertEquals(new Failure("first 1"), opened.message());
        assertEquals("worker 5", opened.connection().peerIdentity());
        InboundQueue.Event closed = nextClose(serverSide);
        assertTrue(closed.cause().getMessage().contains("failed authentication"), closed.cause().getMessage());
        assertTrue(raw.closedWithin(5_000));
      }
    }
  }
}
