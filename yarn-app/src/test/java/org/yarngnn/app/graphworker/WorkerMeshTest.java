package org.yarngnn.app.graphworker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.yarngnn.partition.PartitionKey;
import org.junit.jupiter.api.Timeout;
import org.yarngnn.app.transport.Endpoint;
import org.yarngnn.app.transport.InboundQueue;
import org.yarngnn.app.transport.Message;
import org.yarngnn.app.transport.MessageCodec;
import org.yarngnn.app.transport.PeerConnection;
import org.yarngnn.app.transport.ProtocolException;
import org.yarngnn.app.transport.TransportClient;
import org.yarngnn.app.transport.TransportException;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.runtime.Participants;
import org.yarngnn.app.transport.TransportOptions;
import org.yarngnn.app.transport.RawPeer;
import org.yarngnn.app.transport.TransportSecret;

/** WorkerMesh over loopback sockets: registration, refusals that leave the job going, failures naming the peer. */
@Timeout(60)
class WorkerMeshTest {
  private static final String LOOPBACK = "127.0.0.1";
  static final TransportSecret SECRET = TransportSecret.generate();
  static final JobTransport JOB = new JobTransport(SECRET, false, LOOPBACK);

  /** Worker {@code i}'s options: the job's secret, quick retries. */
  static TransportOptions options(int i) {
    return JOB.builder(GraphWorkerCodec.CODEC, Participants.worker(i)).ioThreads(1).heartbeat(200, 3_000)
        .connectBackoffMillis(20).connectAttempts(3).connectTimeoutMillis(2_000).build();
  }

  /** {@code n} meshes connected to each other; {@code logs} collects what each logs. */
  private static WorkerMesh[] meshes(int n, List<String> logs) throws Exception {
    WorkerMesh[] m = new WorkerMesh[n];
    List<Endpoint> endpoints = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      m[i] = new WorkerMesh(i, n, options(i), logs::add);
      endpoints.add(new Endpoint(i, LOOPBACK, m[i].port()));
    }
    List<Background> connecting = new ArrayList<>();
    for (WorkerMesh w : m) {
      connecting.add(new Background("connect", () -> w.connect(endpoints, 10_000)));
    }
    for (Background b : connecting) {
      b.join();
    }
    return m;
  }

  private static void closeAll(WorkerMesh[] meshes) {
    for (WorkerMesh m : meshes) {
      m.close();
    }
  }

  /** A credited construction block whose 8 bytes carry {@code id} (the mesh never looks inside). */
  private static ConstructionBlock block(long id) {
    return new ConstructionBlock(PartitionKey.NODE, java.nio.ByteBuffer.allocate(8).putLong(id).array());
  }

  private static long idOf(ConstructionBlock b) {
    return java.nio.ByteBuffer.wrap(b.bytes()).getLong();
  }

  /**
   * Sends {@code messages} from a connection that holds the job's secret and proves {@code worker as}, but is not a
   * registered peer, and waits until the mesh closes it.
   */
  private static void intrude(int port, int as, Message... messages) throws Exception {
    try (TransportClient intruder = new TransportClient(options(as), new InboundQueue())) {
      intruder.start();
      PeerConnection c = intruder.connect(LOOPBACK, port);
      for (Message m : messages) {
        c.send(m);
      }
      c.closeFuture().get(10, TimeUnit.SECONDS);
    }
  }

  private static void assertDeliveredFrom(WorkerMesh to, int from, long id) throws Exception {
    WorkerMesh.Inbound in = to.take(10_000);
    assertEquals(from, in.from());
    ConstructionBlock b = assertInstanceOf(ConstructionBlock.class, in.message());
    assertEquals(id, idOf(b));
    WorkerMesh.release(b);
  }

  @Test
  void unregisteredConnectionsAreClosedAndNeverDelivered() throws Exception {
    List<String> logs = new CopyOnWriteArrayList<>();
    WorkerMesh[] m = meshes(3, logs);
    try {
      int port = m[1].port();
      intrude(port, 0, block(99));
      intrude(port, 7, new WorkerHello(7)); // out of range
      intrude(port, 1, new WorkerHello(1)); // the mesh's own index
      intrude(port, 0, new WorkerHello(0)); // connected already: it cannot replace worker 0's connection
      intrude(port, 2, new WorkerHello(2)); // a higher worker: worker 1 connects to it itself
      // A malformed frame before any hello: a 10-byte halo request claiming 2^28 ids.
      try (RawPeer raw = RawPeer.authenticated(LOOPBACK, port, SECRET, Participants.worker(0), false)) {
        raw.write(new byte[] {10, 0, 0, 0, HaloRequest.TYPE, 0, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
            1, 0, 0, 0});
        assertTrue(raw.closedWithin(10_000)); // once the mesh has closed the connection
      }
      intrude(port, 2, new WorkerHello(0)); // a hello naming another worker than the connection proved
      // Without the secret: refused by the handshake before the mesh sees anything.
      try (RawPeer raw = RawPeer.connect(LOOPBACK, port)) {
        assertThrows(java.io.IOException.class,
            () -> raw.handshake(TransportSecret.generate(), Participants.worker(0), false));
      }
      try (RawPeer raw = RawPeer.connect(LOOPBACK, port)) {
        raw.write(frame(new WorkerHello(0)));
        assertEquals(1, raw.framesUntilClosed(10_000), "nothing but the mesh's handshake challenge");
      }
      assertNull(m[1].poll(300), "nothing of an unregistered connection is delivered, and no failure either");
      assertEquals(7, waitForLines(logs, 7).size(), () -> String.join("\n", logs));
      assertTrue(logs.get(0).startsWith("yarn-gnn worker 1: closing unregistered connection from /127.0.0.1:"),
          logs.get(0));
      assertTrue(logs.get(0).contains("message before its hello: ConstructionBlock(kind " + PartitionKey.NODE + ", 8 bytes)"), logs.get(0));
      assertTrue(logs.get(1).contains("hello from worker 7 of a 3-worker job"), logs.get(1));
      assertTrue(logs.get(2).contains("hello naming this worker (1)"), logs.get(2));
      assertTrue(logs.get(3).contains("hello from worker 0, which is connected already"), logs.get(3));
      assertTrue(logs.get(4).contains("hello from worker 2, which this worker connects to itself"), logs.get(4));
      assertTrue(logs.get(5).contains("malformed frame") && logs.get(5).contains("halo request ids"), logs.get(5));
      assertTrue(logs.get(6).contains("hello from worker 0 on a connection authenticated as 'worker 2'"),
          logs.get(6));
      for (String line : logs) {
        assertTrue(!line.contains("\n") && !line.contains("\tat "), "one line, no stack trace: " + line);
      }
      // The registered peers still work, both ways, construction blocks credited and released.
      // 20 blocks on 4 credits per stream: the senders wait for the consumer's releases.
      Background s0 = new Background("send-0", () -> {
        for (int i = 0; i < 20; i++) {
          m[0].send(1, block(i));
        }
      });
      Background s2 = new Background("send-2", () -> {
        for (int i = 0; i < 20; i++) {
          m[2].send(1, block(100 + i));
        }
      });
      Background s1 = new Background("send-1", () -> {
        for (int i = 0; i < 20; i++) {
          m[1].send(0, block(200 + i));
        }
      });
      List<Long> from0 = new ArrayList<>();
      List<Long> from2 = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        WorkerMesh.Inbound in = m[1].take(10_000);
        ConstructionBlock b = (ConstructionBlock) in.message();
        (in.from() == 0 ? from0 : from2).add(idOf(b));
        WorkerMesh.release(b);
      }
      assertEquals(20, from0.size());
      assertEquals(100L, from2.get(0));
      for (int i = 0; i < 20; i++) {
        assertDeliveredFrom(m[0], 1, 200 + i);
      }
      s0.join();
      s1.join();
      s2.join();
    } finally {
      closeAll(m);
    }
  }

  private static List<String> waitForLines(List<String> logs, int n) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 10_000;
    while (logs.size() < n && System.currentTimeMillis() < deadline) {
      Thread.sleep(20);
    }
    return logs;
  }

  @Test
  void aMalformedFrameFromARegisteredPeerFailsTheWorkerNamingThePeer() throws Exception {
    List<String> logs = new CopyOnWriteArrayList<>();
    // Worker 2 of 3 (never connected as such): a raw socket registers as worker 0, then sends a bad frame.
    try (WorkerMesh two = new WorkerMesh(2, 3, options(2), logs::add);
        RawPeer raw = RawPeer.authenticated(LOOPBACK, two.port(), SECRET, Participants.worker(0), false)) {
      raw.write(frame(new WorkerHello(0)));
      raw.write(frame(block(5)));
      raw.write(new byte[] {6, 0, 0, 0, ConstructionBlock.TYPE, PartitionKey.NODE, (byte) 0x80, (byte) 0x80, (byte) 0x80,
          1});
      assertDeliveredFrom(two, 0, 5);
      TransportException e = assertThrows(TransportException.class, () -> two.take(10_000));
      assertTrue(e.getMessage().startsWith("worker 2: malformed frame from worker 0: "), e.getMessage());
      assertTrue(logs.isEmpty(), () -> String.join("\n", logs));
    }
  }

  @Test
  void aSecondHelloFromARegisteredPeerFailsTheWorker() throws Exception {
    try (WorkerMesh two = new WorkerMesh(2, 3, options(2), line -> {});
        RawPeer raw = RawPeer.authenticated(LOOPBACK, two.port(), SECRET, Participants.worker(1), false)) {
      raw.write(frame(new WorkerHello(1)));
      raw.write(frame(new WorkerHello(0)));
      TransportException e = assertThrows(TransportException.class, () -> two.take(10_000));
      assertTrue(e.getMessage().contains("worker 1 sent a second hello"), e.getMessage());
    }
  }

  @Test
  void haloExchangeOverTheMeshRefusesADuplicateChunkNamingThePeer() throws Exception {
    WorkerMesh[] m = meshes(2, new CopyOnWriteArrayList<>());
    try {
      HaloExchangeCheckTest.Plan p = new HaloExchangeCheckTest.Plan();
      HaloExchange exchange = new HaloExchange(HaloExchangeCheckTest.LAYER, p.edges, p.msg, new int[3][0],
          new int[][] {new int[0], {2, 3, 4}}, HaloExchangeCheckTest.CHUNK_ROWS);
      int layer = HaloExchangeCheckTest.LAYER;
      float[] rows = new float[4];
      m[1].send(0, new org.yarngnn.app.transport.RowBlock(layer, layer, 0, false, new int[2], rows, 2));
      m[1].send(0, new org.yarngnn.app.transport.RowBlock(layer, layer, 0, false, new int[2], rows, 2));
      Background idle = new Background("idle", () -> {});
      ProtocolException e = assertThrows(ProtocolException.class, () -> exchange.receiveAll(m[0], idle));
      assertEquals("layer 1: chunk 0 from worker 1 came twice", e.getMessage());
    } finally {
      closeAll(m);
    }
  }

  private static byte[] frame(Message msg) {
    ByteBuf f = MessageCodec.encode(msg, UnpooledByteBufAllocator.DEFAULT);
    byte[] b = new byte[f.readableBytes()];
    f.readBytes(b);
    f.release();
    return b;
  }

  @Test
  void aReplacedWorkerRejoinsAtANewGenerationAndWhatTheOldConnectionsCarriedIsDropped() throws Exception {
    List<String> logs = new CopyOnWriteArrayList<>();
    WorkerMesh[] m = meshes(3, logs);
    WorkerMesh replacement = null;
    try {
      m[1].close();
      TransportException lost = assertThrows(TransportException.class, () -> {
        while (true) {
          WorkerMesh.Inbound in = m[2].take(10_000);
          WorkerMesh.release(in.message());
        }
      });
      assertTrue(lost.getMessage().contains("lost worker 1"), lost.getMessage());
      // Sent on a generation-0 connection and not consumed before the rejoin: stale after it.
      m[0].send(2, block(1));
      replacement = new WorkerMesh(1, 3, options(1), logs::add);
      List<Endpoint> endpoints = List.of(new Endpoint(0, LOOPBACK, m[0].port()),
          new Endpoint(1, LOOPBACK, replacement.port()), new Endpoint(2, LOOPBACK, m[2].port()));
      WorkerMesh[] now = {m[0], replacement, m[2]};
      List<Background> rejoining = new ArrayList<>();
      for (WorkerMesh w : now) {
        rejoining.add(new Background("rejoin", () -> w.reconnect(endpoints, 1, 10_000)));
      }
      for (Background b : rejoining) {
        b.join();
      }
      m[0].send(2, block(2));
      replacement.send(2, block(3));
      m[0].send(1, block(4));
      // Two peers' blocks may arrive in either order; each must come from its sender at the new generation.
      Map<Integer, Long> got = new java.util.HashMap<>();
      for (int i = 0; i < 2; i++) {
        WorkerMesh.Inbound in = m[2].take(10_000);
        got.put(in.from(), idOf(assertInstanceOf(ConstructionBlock.class, in.message())));
        WorkerMesh.release(in.message());
      }
      assertEquals(Map.of(0, 2L, 1, 3L), got);
      assertDeliveredFrom(replacement, 0, 4);
      assertNull(m[2].poll(300), "the stale block and the old connections' closes are dropped");
      // A hello at a generation that is not newer cannot take worker 0's place, even from a proven worker 0.
      intrude(m[2].port(), 0, new WorkerHello(0, 1));
      intrude(m[2].port(), 0, new WorkerHello(0, 0));
      assertTrue(logs.stream().anyMatch(l -> l.contains("hello from worker 0, which is connected already "
          + "(at generation 1; the hello's is 1)")), String.join("\n", logs));
      assertTrue(logs.stream().anyMatch(l -> l.contains("(at generation 1; the hello's is 0)")),
          String.join("\n", logs));
      m[0].send(2, block(5));
      assertDeliveredFrom(m[2], 0, 5);
    } finally {
      closeAll(m);
      if (replacement != null) {
        replacement.close();
      }
    }
  }
}
