package org.yarngnn.app.graphworker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.io.table.NodeSplit;
import org.yarngnn.partition.GraphPartition;
import org.yarngnn.partition.GraphRecord;
import org.yarngnn.partition.MissingFeatures;
import org.yarngnn.partition.Ownership;
import org.yarngnn.partition.PartitionAssembler;
import org.yarngnn.partition.PartitionKey;
import org.yarngnn.partition.RecordRouter;

/** The construction core's transport adapter: blocks survive a frame; corrupt frames are refused before allocating. */
class ConstructionBlockTest {
  private static final int WIDTH = 3;

  /** The blocks one router emits for partition 0 of 1: nodes 10..14, then edges among them. */
  private static List<ConstructionBlock> blocks(boolean weighted) {
    List<ConstructionBlock> out = new ArrayList<>();
    RecordRouter r = new RecordRouter(Ownership.hash(1), false, MissingFeatures.ERROR, WIDTH, 0, 64,
        (key, rec) -> out.add(ConstructionBlock.of(rec)));
    float[] f = new float[3 * 5];
    for (int i = 0; i < f.length; i++) {
      f[i] = i;
    }
    for (int i = 0; i < 5; i++) {
      r.node(10 + i, -1, NodeSplit.NONE, f, i * WIDTH, i + 1);
    }
    r.file(1);
    for (int i = 0; i < 5; i++) {
      r.edge(10 + i, 10 + (i + 1) % 5, weighted ? 2f : 1f, i + 1);
    }
    r.finish();
    return out;
  }

  private static byte[] frame(ConstructionBlock b) {
    ByteBuf buf = Unpooled.buffer();
    b.writeBody(new FrameWriter(buf));
    byte[] bytes = new byte[buf.readableBytes()];
    buf.readBytes(bytes);
    return bytes;
  }

  private static ConstructionBlock read(byte[] frame) {
    return ConstructionBlock.read(new FrameReader(Unpooled.wrappedBuffer(frame)));
  }

  @Test
  void blocksSurviveAFrameAndAssemble() throws Exception {
    for (boolean weighted : new boolean[] {false, true}) {
      PartitionAssembler a = new PartitionAssembler(0, Ownership.hash(1), WIDTH, weighted, false, false,
          MissingFeatures.ERROR);
      GraphRecord into = new GraphRecord();
      List<ConstructionBlock> blocks = blocks(weighted);
      assertEquals(PartitionKey.NODE, blocks.get(0).kind());
      for (ConstructionBlock b : blocks) {
        a.accept(read(frame(b)).toRecord(into, WIDTH));
      }
      assertEquals(null, a.error());
      GraphPartition p = a.finish();
      assertEquals(5, p.block().numNodes());
      assertEquals(5, p.block().inEdges().numEdges());
      assertEquals(4f, p.features().row(1)[1]);
    }
  }

  @Test
  void truncatedFrameRefused() {
    for (ConstructionBlock b : blocks(true)) {
      byte[] whole = frame(b);
      for (int cut = 1; cut < whole.length; cut += Math.max(1, whole.length / 17)) {
        byte[] part = Arrays.copyOf(whole, whole.length - cut);
        assertThrows(MalformedFrameException.class, () -> read(part), "cut " + cut);
      }
      // A block whose own bytes end early, in a frame that is whole.
      byte[] inner = Arrays.copyOf(b.bytes(), b.bytes().length - 3);
      assertThrows(IOException.class,
          () -> read(frame(new ConstructionBlock(b.kind(), inner))).toRecord(new GraphRecord(), WIDTH));
    }
  }

  private static long allocated() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
  }

  @Test
  void countLargerThanTheFrameRefusedWithoutAllocating() throws Exception {
    GraphRecord into = new GraphRecord();
    for (ConstructionBlock b : blocks(false)) {
      // int file, int count, ...: claim 2^28 entries (an edge block of them would take gigabytes).
      byte[] lying = b.bytes().clone();
      ByteBuffer.wrap(lying).putInt(4, 1 << 28);
      ConstructionBlock bad = read(frame(new ConstructionBlock(b.kind(), lying)));
      long before = allocated();
      IOException e = assertThrows(IOException.class, () -> bad.toRecord(into, WIDTH));
      long used = allocated() - before;
      assertTrue(used < 1 << 20, "allocated " + used + " bytes before refusing: " + e.getMessage());
      // And a block length beyond the bytes there are.
      byte[] longer = b.bytes().clone();
      int lengthAt = 8 + (b.kind() == PartitionKey.NODE ? 5 : b.kind() == PartitionKey.EDGE ? 1 : 0);
      ByteBuffer.wrap(longer).putInt(lengthAt, Integer.MAX_VALUE - 64);
      ConstructionBlock bad2 = read(frame(new ConstructionBlock(b.kind(), longer)));
      long before2 = allocated();
      assertThrows(IOException.class, () -> bad2.toRecord(into, WIDTH));
      assertTrue(allocated() - before2 < 1 << 20, "allocated before refusing a long length");
    }
    // A frame whose byte count exceeds the frame itself.
    ByteBuf buf = Unpooled.buffer();
    FrameWriter w = new FrameWriter(buf);
    w.writeByte(PartitionKey.EDGE);
    w.writeVInt(1 << 30);
    buf.writeBytes(new byte[16]);
    byte[] frame = new byte[buf.readableBytes()];
    buf.readBytes(frame);
    long before = allocated();
    assertThrows(MalformedFrameException.class, () -> read(frame));
    assertTrue(allocated() - before < 1 << 20);
  }

  @Test
  void nodeRowsOfTheWrongWidthRefused() {
    ConstructionBlock nodes = blocks(false).get(0);
    assertEquals(PartitionKey.NODE, nodes.kind());
    IOException e = assertThrows(IOException.class,
        () -> read(frame(nodes)).toRecord(new GraphRecord(), WIDTH + 1));
    assertTrue(e.getMessage().contains("width"), e.getMessage());
  }

  @Test
  void unknownKindRefused() {
    byte[] f = frame(blocks(false).get(0));
    f[0] = 7;
    assertThrows(MalformedFrameException.class, () -> read(f));
  }
}
