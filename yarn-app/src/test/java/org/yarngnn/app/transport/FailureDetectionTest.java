package org.yarngnn.app.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.yarngnn.app.transport.TransportTesting.LOOPBACK;
import static org.yarngnn.app.transport.TransportTesting.nextClose;
import static org.yarngnn.app.transport.TransportTesting.nextMessage;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.File;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ThreadLeakCheck.class)
@Timeout(60)
class FailureDetectionTest {
  @Test
  void aKilledWorkerProcessIsNoticedAtOnce() throws Exception {
    InboundQueue driverSide = new InboundQueue();
    try (TransportServer driver = new TransportServer(TransportTesting.quick().heartbeat(1_000, 120_000).build(),
        driverSide)) {
      driver.start();
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
      Process worker = new ProcessBuilder(java, "-cp", classpath, PeerProcess.class.getName(), LOOPBACK,
          Integer.toString(driver.port())).redirectErrorStream(true).redirectOutput(new File("/dev/null")).start();
      try {
        Hello hello = (Hello) nextMessage(driverSide);
        assertEquals(7, hello.workerIndex());
        long killed = System.nanoTime();
        worker.destroyForcibly(); // SIGKILL: no shutdown hook, no goodbye
        InboundQueue.Event closed = nextClose(driverSide);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
        System.out.println("killed worker noticed after " + millis + " ms: " + closed.cause());
        assertInstanceOf(TransportException.class, closed.cause());
        // The heartbeat timeout is 120 s: this must come from the socket closing, well before, however loaded.
        assertTrue(millis < 30_000, "noticed after " + millis + " ms");
        assertEquals(List.of(), driver.connections());
      } finally {
        worker.destroyForcibly().waitFor();
      }
    }
  }

  @Test
  void aSilentPeerIsDeclaredDeadAfterTheHeartbeatTimeout() throws Exception {
    InboundQueue inbound = new InboundQueue();
    try (TransportServer server = new TransportServer(TransportTesting.quick().heartbeat(100, 500).build(), inbound)) {
      server.start();
      // A peer whose process hangs (or whose host vanished) keeps the socket open and sends nothing.
      RawPeer hung = RawPeer.authenticated(LOOPBACK, server.port(), TransportTesting.SECRET, "worker 0", false);
      long start = System.nanoTime();
      InboundQueue.Event closed = nextClose(inbound);
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(closed.cause().getMessage().contains("peer presumed dead"), closed.cause().getMessage());
      assertTrue(millis >= 400 && millis < 30_000, "declared dead after " + millis + " ms");
      hung.close();
    }
  }

  @Test
  void heartbeatsKeepAnIdleConnectionAlive() throws Exception {
    InboundQueue serverSide = new InboundQueue();
    InboundQueue clientSide = new InboundQueue();
    // Idle for more than twice the timeout, so only heartbeats keep it open; 15 of them fit in the timeout, so a
    // loaded machine's late one does not end it.
    TransportOptions options = TransportTesting.quick().heartbeat(100, 1_500).build();
    try (TransportServer server = new TransportServer(options, serverSide);
        TransportClient client = new TransportClient(options, clientSide)) {
      server.start();
      client.start();
      PeerConnection c = client.connect(LOOPBACK, server.port());
      assertEquals(null, serverSide.poll(4_000, TimeUnit.MILLISECONDS), "nothing happens on an idle link");
      assertTrue(c.isOpen());
      c.sendBlocking(new Failure("probe"));
      assertEquals(new Failure("probe"), nextMessage(serverSide));
    }
  }

  @Test
  void malformedFramesAndCreditViolationsCloseTheConnectionWithTheReason() throws Exception {
    TransportOptions options = TransportTesting.quick().creditsPerStream(4).maxFrameBytes(1 << 20).build();
    InboundQueue inbound = new InboundQueue();
    try (TransportServer server = new TransportServer(options, inbound)) {
      server.start();
      assertEquals("unknown message type 99", closeReason(server, inbound, frame(99)).getCause().getMessage());
      ByteBuf huge = Unpooled.buffer().writeIntLE(2 << 20).writeByte(MessageCodec.FAILURE);
      assertTrue(closeReason(server, inbound, huge).getMessage().contains("frame length 2097152 outside"));
      // A sender ignoring credit: five blocks on one stream where four were granted.
      ByteBuf blocks = Unpooled.buffer();
      for (int i = 0; i < 5; i++) {
        ByteBuf frame = MessageCodec.encode(new RowBlock(3, 0, i, false, new int[] {i}, new float[] {i}, 1),
            UnpooledByteBufAllocator.DEFAULT);
        blocks.writeBytes(frame);
        frame.release();
      }
      Throwable cause = closeReason(server, inbound, blocks);
      assertTrue(cause.getMessage().contains("only 4 credits granted"), cause.getMessage());
    }
  }

  /** Writes raw bytes after the handshake and returns the cause of the close the server reports. */
  private static Throwable closeReason(TransportServer server, InboundQueue inbound, ByteBuf bytes)
      throws Exception {
    try (RawPeer s = RawPeer.authenticated(LOOPBACK, server.port(), TransportTesting.SECRET, "worker 0", false)) {
      byte[] b = new byte[bytes.readableBytes()];
      bytes.readBytes(b);
      s.write(b);
      InboundQueue.Event e;
      do {
        e = TransportTesting.next(inbound);
        if (e.message() instanceof RowBlock r) {
          r.release(); // the blocks within credit arrive before the violation
        }
      } while (!e.isClose());
      assertInstanceOf(TransportException.class, e.cause());
      return e.cause();
    }
  }

  private static ByteBuf frame(int type) {
    return Unpooled.buffer().writeIntLE(1).writeByte(type);
  }

  @Test
  void connectingToADeadPortFailsClearlyAfterTheRetryBudget() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    try (TransportClient client = new TransportClient(
        TransportTesting.quick().connectAttempts(4).connectBackoffMillis(50).build(), new InboundQueue())) {
      client.start();
      long start = System.nanoTime();
      int dead = port;
      TransportException e = assertThrows(TransportException.class, () -> client.connect(LOOPBACK, dead));
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(e.getMessage().startsWith("cannot connect to 127.0.0.1:" + port + " after 4 attempts in "),
          e.getMessage());
      assertTrue(e.getMessage().contains("Connection refused"), e.getMessage());
      // Backoff 50 + 100 + 200 ms between the four attempts.
      assertTrue(millis >= 340 && millis < 30_000, "gave up after " + millis + " ms");
      assertEquals(List.of(), client.connections());
    }
  }
}
