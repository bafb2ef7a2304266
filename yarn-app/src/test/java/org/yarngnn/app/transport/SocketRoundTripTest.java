package org.yarngnn.app.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.yarngnn.app.transport.TransportTesting.LOOPBACK;
import static org.yarngnn.app.transport.TransportTesting.nextClose;
import static org.yarngnn.app.transport.TransportTesting.nextMessage;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ThreadLeakCheck.class)
@Timeout(30)
class SocketRoundTripTest {
  @Test
  void everyMessageTypeCrossesASocketBothWays() throws Exception {
    InboundQueue serverSide = new InboundQueue();
    InboundQueue clientSide = new InboundQueue();
    try (TransportServer server = new TransportServer(TransportTesting.quick().build(), serverSide);
        TransportClient client = new TransportClient(TransportTesting.quick().build(), clientSide)) {
      server.start();
      client.start();
      assertTrue(server.port() > 0);
      PeerConnection out = client.connect(LOOPBACK, server.port());
      for (Message m : MessageCodecTest.samples()) {
        out.send(m).get(30, TimeUnit.SECONDS);
        InboundQueue.Event e = TransportTesting.next(serverSide);
        assertEquals(m, e.message(), () -> "over the socket: " + m);
        if (e.message() instanceof RowBlock b) {
          b.release();
        }
        // And back on the accepted side's connection object.
        e.connection().sendBlocking(e.message() instanceof RowBlock ? m : e.message());
        Message back = nextMessage(clientSide);
        assertEquals(m, back);
        if (back instanceof RowBlock b) {
          b.release();
        }
      }
      assertEquals(1, server.connections().size());
      assertTrue(out.stats().framesSent() >= MessageCodecTest.samples().size());
      out.close();
      assertNull(nextClose(clientSide).cause(), "a local close has no cause");
      InboundQueue.Event remoteClose = nextClose(serverSide);
      assertTrue(remoteClose.cause() instanceof TransportException);
      assertTrue(remoteClose.cause().getMessage().contains("closed by the peer"), remoteClose.cause().getMessage());
      Exception refused = assertThrows(Exception.class, () -> out.send(new Failure("late")).get(30, TimeUnit.SECONDS));
      assertFalse(refused instanceof java.util.concurrent.TimeoutException, "refused, not left waiting");
    }
  }

  @Test
  void stopIsIdempotentClosesConnectionsAndReleasesThreads() throws Exception {
    InboundQueue serverSide = new InboundQueue();
    InboundQueue clientSide = new InboundQueue();
    TransportServer server = new TransportServer(TransportTesting.quick().build(), serverSide);
    TransportServer peer = new TransportServer(TransportTesting.quick().build(), clientSide);
    server.start();
    peer.start();
    assertThrows(IllegalStateException.class, server::start);
    PeerConnection c = peer.connect(LOOPBACK, server.port());
    c.sendBlocking(new Failure("noop 0"));
    assertEquals(new Failure("noop 0"), nextMessage(serverSide));
    server.stop();
    assertNull(nextClose(serverSide).cause());
    assertTrue(nextClose(clientSide).cause() instanceof TransportException, "the peer sees the stop as a loss");
    server.stop();
    server.close();
    assertSame(TransportService.State.STOPPED, server.state());
    assertThrows(IllegalStateException.class, server::port);
    assertThrows(IllegalStateException.class, () -> server.connect(LOOPBACK, 1));
    peer.close();
    new TransportClient(TransportTesting.quick().build(), clientSide).close(); // never started: nothing to release
  }
}
