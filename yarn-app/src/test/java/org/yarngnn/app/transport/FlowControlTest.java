package org.yarngnn.app.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.yarngnn.app.transport.TransportTesting.LOOPBACK;
import static org.yarngnn.app.transport.TransportTesting.nextMessage;

import io.netty.buffer.PooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ThreadLeakCheck.class)
@Timeout(60)
class FlowControlTest {
  private static final int ROWS = 1024;
  private static final int WIDTH = 256; // 1024 x 256 floats = 1 MiB of values per block
  private static final int FRAME = MessageCodec.FRAME_OVERHEAD + RowBlock.HEADER_BYTES + ROWS * 4 + ROWS * WIDTH * 4;

  private static int[] identityRows() {
    int[] rows = new int[ROWS];
    for (int i = 0; i < ROWS; i++) {
      rows[i] = i;
    }
    return rows;
  }

  /** A listener that hands row blocks to a consumer thread and answers nothing. */
  private static final class BlockSink implements TransportListener {
    final BlockingQueue<RowBlock> blocks = new LinkedBlockingQueue<>();
    final AtomicReference<PeerConnection> connection = new AtomicReference<>();

    @Override
    public void onOpened(PeerConnection c) {
      connection.set(c);
    }

    @Override
    public void onMessage(PeerConnection c, Message m) {
      blocks.add((RowBlock) m);
    }

    @Override
    public void onClosed(PeerConnection c, Throwable cause) {}
  }

  @Test
  void slowConsumerBoundsMemoryOnBothSides() throws Exception {
    int credits = 4;
    int blocks = 1000;
    TransportOptions options = TransportTesting.quick().creditsPerStream(credits).build();
    BlockSink sink = new BlockSink();
    AtomicInteger released = new AtomicInteger();
    AtomicLong maxDirect = new AtomicLong();
    AtomicReference<Throwable> consumerFailure = new AtomicReference<>();
    try (TransportServer receiver = new TransportServer(options, sink);
        TransportClient sender = new TransportClient(options, new InboundQueue())) {
      receiver.start();
      sender.start();
      PeerConnection out = sender.connect(LOOPBACK, receiver.port());
      Thread consumer = new Thread(() -> {
        try {
          float[] row = new float[WIDTH];
          for (int i = 0; i < blocks; i++) {
            RowBlock b = sink.blocks.take();
            maxDirect.accumulateAndGet(PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory(), Math::max);
            // The sender rewrote its one array after each sendBlocking: the block must hold the value of its time.
            assertEquals(i, b.chunk());
            b.copyRowTo(ROWS - 1, row, 0);
            assertEquals(i, row[WIDTH - 1]);
            assertEquals(i == blocks - 1, b.last());
            Thread.sleep(1); // the slow part: aggregating a block takes a while
            released.incrementAndGet(); // counted first: release() lets the sender go on
            b.release();
          }
        } catch (Throwable t) {
          consumerFailure.set(t);
        }
      }, "slow-consumer");
      consumer.start();

      int[] rows = identityRows();
      float[] values = new float[ROWS * WIDTH];
      int maxAhead = 0;
      long start = System.nanoTime();
      for (int i = 0; i < blocks; i++) {
        values[values.length - 1] = i;
        out.sendBlocking(new RowBlock(0, 0, i, i == blocks - 1, rows, values, WIDTH));
        maxAhead = Math.max(maxAhead, i + 1 - released.get());
      }
      consumer.join(30_000);
      double seconds = (System.nanoTime() - start) / 1e9;
      assertNull(consumerFailure.get());
      assertEquals(blocks, released.get());

      ConnectionStats recv = sink.connection.get().stats();
      ConnectionStats sent = out.stats();
      System.out.printf("flow control: %d blocks of %d B in %.2f s; sender ahead by <= %d blocks; receiver held"
          + " max %d B; sender queued max %d B; pooled direct memory max %.1f MiB%n", blocks, FRAME, seconds,
          maxAhead, recv.maxHeldInboundBytes(), sent.maxQueuedOutboundBytes(), maxDirect.get() / 1048576.0);
      // A sender can only be `credits` blocks ahead of what the consumer released.
      assertTrue(maxAhead <= credits, "sender ran " + maxAhead + " blocks ahead with " + credits + " credits");
      assertTrue(recv.maxHeldInboundBytes() <= (long) credits * FRAME, recv.toString());
      assertTrue(recv.maxHeldInboundBytes() >= FRAME, "the consumer held at least one block: " + recv);
      assertTrue(sent.maxQueuedOutboundBytes() <= (long) credits * FRAME + 4096, sent.toString());
      assertEquals(0, recv.heldInboundBytes());
      // 1000 MiB went through; the process never needed more than a few blocks' worth of direct memory.
      assertTrue(maxDirect.get() <= 64L << 20, "pooled direct memory reached " + maxDirect.get());
    }
  }

  @Test
  void manyStreamsStillQueueNoMoreThanTheWriteBufferAllows() throws Exception {
    int streams = 16;
    int credits = 4;
    int high = 1 << 20;
    TransportOptions options = TransportTesting.quick().creditsPerStream(credits).writeWaterMarks(high / 2, high)
        .build();
    BlockSink sink = new BlockSink();
    try (TransportServer receiver = new TransportServer(options, sink);
        TransportClient sender = new TransportClient(options, new InboundQueue())) {
      receiver.start();
      sender.start();
      PeerConnection out = sender.connect(LOOPBACK, receiver.port());
      float[] matrix = new float[ROWS * WIDTH];
      int[] rows = identityRows();
      List<CompletableFuture<Void>> writes = new ArrayList<>();
      // 64 MiB of credit across the streams, all sent at once without waiting.
      for (int s = 0; s < streams; s++) {
        for (int c = 0; c < credits; c++) {
          writes.add(out.send(RowBlock.gather(s, 0, c, c == credits - 1, rows, 0, ROWS, matrix, WIDTH)));
        }
      }
      int received = 0;
      while (received < streams * credits) {
        RowBlock b = sink.blocks.poll(10, TimeUnit.SECONDS);
        assertTrue(b != null, "block " + received + " never arrived");
        Thread.sleep(2);
        b.release();
        received++;
      }
      CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
      long queued = out.stats().maxQueuedOutboundBytes();
      System.out.printf("writability: %d streams x %d credits of %d B; sender queued max %d B%n", streams, credits,
          FRAME, queued);
      // Credit alone would allow 64 frames; the write-buffer water mark stops encoding at ~1 MiB + one frame.
      assertTrue(queued <= high + FRAME + 4096, "sender queued " + queued + " bytes");
    }
  }

  @Test
  void creditIsPerStreamAndComesBackOnRelease() throws Exception {
    TransportOptions options = TransportTesting.quick().creditsPerStream(2).build();
    InboundQueue inbound = new InboundQueue();
    try (TransportServer receiver = new TransportServer(options, inbound);
        TransportClient sender = new TransportClient(options, new InboundQueue())) {
      receiver.start();
      sender.start();
      PeerConnection out = sender.connect(LOOPBACK, receiver.port());
      CompletableFuture<?>[] sends = new CompletableFuture<?>[3];
      for (int i = 0; i < 3; i++) {
        sends[i] = out.send(new RowBlock(7, 0, i, false, new int[] {i}, new float[] {i}, 1));
      }
      RowBlock first = (RowBlock) nextMessage(inbound);
      RowBlock second = (RowBlock) nextMessage(inbound);
      assertEquals(List.of(0, 1), List.of(first.chunk(), second.chunk()));
      Thread.sleep(300);
      assertFalse(sends[2].isDone(), "the third block on stream 7 must wait for credit");
      // Another stream has its own credit: a stalled stream does not block it.
      out.send(new RowBlock(8, 0, 0, true, new int[] {9}, new float[] {9}, 1)).get(30, TimeUnit.SECONDS);
      RowBlock other = (RowBlock) nextMessage(inbound);
      assertEquals(8, other.stream());
      other.release();
      // Control messages are never held back by credit.
      out.send(new Failure("control")).get(30, TimeUnit.SECONDS);
      assertEquals(new Failure("control"), nextMessage(inbound));
      assertFalse(sends[2].isDone());
      first.release();
      sends[2].get(30, TimeUnit.SECONDS);
      RowBlock third = (RowBlock) nextMessage(inbound);
      assertEquals(2, third.chunk());
      second.release();
      third.release();
    }
  }

  @Test
  void sendBlockingGivesUpWhenTheReceiverNeverReleases() throws Exception {
    TransportOptions options = TransportTesting.quick().creditsPerStream(1).sendTimeoutMillis(200).build();
    InboundQueue inbound = new InboundQueue();
    try (TransportServer receiver = new TransportServer(options, inbound);
        TransportClient sender = new TransportClient(options, new InboundQueue())) {
      receiver.start();
      sender.start();
      PeerConnection out = sender.connect(LOOPBACK, receiver.port());
      out.sendBlocking(new RowBlock(0, 0, 0, false, new int[] {1}, new float[] {1}, 1));
      RowBlock held = (RowBlock) nextMessage(inbound);
      long start = System.nanoTime();
      TransportException e = assertThrows(TransportException.class,
          () -> out.sendBlocking(new RowBlock(0, 0, 1, false, new int[] {2}, new float[] {2}, 1)));
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(e.getMessage().contains("not releasing row blocks"), e.getMessage());
      assertTrue(millis >= 150 && millis < 5_000, "gave up after " + millis + " ms");
      held.release();
      // The withdrawn block is never sent; the next one is.
      out.sendBlocking(new RowBlock(0, 0, 2, true, new int[] {3}, new float[] {3}, 1));
      RowBlock next = (RowBlock) nextMessage(inbound);
      assertEquals(2, next.chunk());
      next.release();
      assertNull(inbound.poll(200, TimeUnit.MILLISECONDS));
    }
  }

  /** An application block type under credit, as a job's construction blocks are. */
  static final class Chunk implements StreamedMessage {
    static final int TYPE = 50;
    static final MessageCodec CODEC = MessageCodec.builder().register(TYPE, Chunk::read).build();
    final int stream;
    final int seq;
    final byte[] data;
    private final Credit credit = new Credit();

    Chunk(int stream, int seq, byte[] data) {
      this.stream = stream;
      this.seq = seq;
      this.data = data;
    }

    @Override
    public int stream() {
      return stream;
    }

    @Override
    public Credit credit() {
      return credit;
    }

    @Override
    public byte type() {
      return TYPE;
    }

    @Override
    public int bodySizeHint() {
      return 16 + data.length;
    }

    @Override
    public void writeBody(FrameWriter out) {
      out.writeInt(stream);
      out.writeInt(seq);
      out.writeBytes(data);
    }

    static Chunk read(FrameReader in) {
      return new Chunk(in.readInt(), in.readInt(), in.readBytes());
    }
  }

  @Test
  void applicationBlocksAreCreditedLikeRowBlocks() throws Exception {
    int credits = 4;
    int blocks = 200;
    int size = 256 << 10;
    int frame = MessageCodec.FRAME_OVERHEAD + 8 + 3 + size;
    TransportOptions options = TransportTesting.quick().codec(Chunk.CODEC).creditsPerStream(credits).sendTimeoutMillis(20_000).build();
    BlockingQueue<Chunk> chunks = new LinkedBlockingQueue<>();
    AtomicReference<PeerConnection> connection = new AtomicReference<>();
    TransportListener sink = new TransportListener() {
      @Override
      public void onOpened(PeerConnection c) {
        connection.set(c);
      }

      @Override
      public void onMessage(PeerConnection c, Message m) {
        chunks.add((Chunk) m);
      }

      @Override
      public void onClosed(PeerConnection c, Throwable cause) {}
    };
    AtomicInteger released = new AtomicInteger();
    AtomicReference<Throwable> consumerFailure = new AtomicReference<>();
    try (TransportServer receiver = new TransportServer(options, sink);
        TransportClient sender = new TransportClient(options, new InboundQueue())) {
      receiver.start();
      sender.start();
      PeerConnection out = sender.connect(LOOPBACK, receiver.port());
      Thread consumer = new Thread(() -> {
        try {
          for (int i = 0; i < blocks; i++) {
            Chunk c = chunks.take();
            assertEquals(i, c.seq);
            assertEquals((byte) i, c.data[size - 1]);
            Thread.sleep(1);
            released.incrementAndGet();
            c.release();
            assertTrue(c.isReleased());
          }
        } catch (Throwable t) {
          consumerFailure.set(t);
        }
      }, "slow-chunk-consumer");
      consumer.start();
      byte[] data = new byte[size];
      int maxAhead = 0;
      for (int i = 0; i < blocks; i++) {
        data[size - 1] = (byte) i;
        out.sendBlocking(new Chunk(-2, i, data)); // a construction stream: negative, not -1
        maxAhead = Math.max(maxAhead, i + 1 - released.get());
      }
      consumer.join(30_000);
      assertNull(consumerFailure.get());
      assertEquals(blocks, released.get());
      ConnectionStats recv = connection.get().stats();
      assertTrue(maxAhead <= credits, "sender ran " + maxAhead + " blocks ahead with " + credits + " credits");
      assertTrue(recv.maxHeldInboundBytes() <= (long) credits * frame, recv.toString());
      assertTrue(recv.maxHeldInboundBytes() >= frame, recv.toString());
      assertEquals(0, recv.heldInboundBytes());

      // Per stream: a stalled stream holds its fourth-plus blocks back, another stream and control messages pass.
      List<CompletableFuture<Void>> stalled = new ArrayList<>();
      for (int i = 0; i < credits + 1; i++) {
        stalled.add(out.send(new Chunk(5, i, new byte[] {1})));
      }
      List<Chunk> held = new ArrayList<>();
      for (int i = 0; i < credits; i++) {
        held.add(chunks.poll(10, TimeUnit.SECONDS));
      }
      Thread.sleep(200);
      assertFalse(stalled.get(credits).isDone(), "the fifth block on stream 5 waits for credit");
      out.send(new Chunk(6, 0, new byte[0])).get(30, TimeUnit.SECONDS);
      Chunk other = chunks.poll(10, TimeUnit.SECONDS);
      assertEquals(6, other.stream);
      other.release();
      held.get(0).release();
      stalled.get(credits).get(30, TimeUnit.SECONDS);
      Chunk last = chunks.poll(10, TimeUnit.SECONDS);
      assertEquals(credits, last.seq);
      last.release();
      held.forEach(Chunk::release);
      // Stream -1 names every stream in grants: refused before anything is sent.
      Exception refused = assertThrows(Exception.class,
          () -> out.send(new Chunk(-1, 0, new byte[0])).get(30, TimeUnit.SECONDS));
      assertFalse(refused instanceof java.util.concurrent.TimeoutException, "refused, not left waiting");
    }
  }

  @Test
  void applicationBlocksBeyondTheirCreditCloseTheConnection() throws Exception {
    TransportOptions options = TransportTesting.quick().codec(Chunk.CODEC).creditsPerStream(2).build();
    InboundQueue inbound = new InboundQueue();
    try (TransportServer receiver = new TransportServer(options, inbound)) {
      receiver.start();
      try (RawPeer raw = RawPeer.authenticated(LOOPBACK, receiver.port(), TransportTesting.SECRET, "worker 0",
          false)) {
        java.io.ByteArrayOutputStream os = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < 3; i++) {
          io.netty.buffer.ByteBuf f = MessageCodec.encode(new Chunk(4, i, new byte[] {(byte) i}),
              io.netty.buffer.UnpooledByteBufAllocator.DEFAULT);
          byte[] bytes = new byte[f.readableBytes()];
          f.readBytes(bytes);
          f.release();
          os.write(bytes);
        }
        raw.write(os.toByteArray());
        // The two within credit arrive (held, never released); the third closes the connection.
        Chunk first = (Chunk) nextMessage(inbound);
        Chunk second = (Chunk) nextMessage(inbound);
        InboundQueue.Event close = TransportTesting.nextClose(inbound);
        assertTrue(close.cause().getMessage().contains("credited message 3 on stream 4 with only 2 credits"),
            close.cause().getMessage());
        first.release();
        second.release();
      }
    }
  }
}
