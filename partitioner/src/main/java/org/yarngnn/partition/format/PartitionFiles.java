package org.yarngnn.partition.format;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.partition.GraphPartition;
import org.yarngnn.partition.Ownership;
import org.yarngnn.partition.PartitionStats;

/**
 * The three files of one partition, in directory {@code part-NNNNN/} of a partitioned graph. All numbers are
 * little-endian; each file starts with an 8-byte ASCII magic and an int32 format version (1):
 * <ul>
 *   <li>{@code nodes.bin}: magic {@code YGNNNODE}, version, int32 n, int8 hasLabels, int8 hasSplits, then
 *       int64 ids[n] (ascending: local index = position), int32 labels[n] if hasLabels, int8 splits[n] if
 *       hasSplits (0 none, 1 train, 2 val, 3 test);</li>
 *   <li>{@code graph.bin}: magic {@code YGNNCSR_}, version, int32 n, int32 h (halo), int64 m (edges), int8
 *       weighted, then int64 haloIds[h] (ascending), int32 rowPtr[n+1], int32 colIdx[m] (source slot: local
 *       index when &lt; n, else halo index + n; each row ordered by source id), float32 weights[m] if weighted;</li>
 *   <li>{@code features.bin}: magic {@code YGNNFEAT}, version, int32 n, int32 width, then float32 rows[n*width]
 *       row-major in local order.</li>
 * </ul>
 * The manifest records each file's size and CRC-32C; readers verify both.
 */
public final class PartitionFiles {
  static final int VERSION = 1;
  static final String NODES = "nodes.bin";
  static final String GRAPH = "graph.bin";
  static final String FEATURES = "features.bin";

  private PartitionFiles() {}

  public static String dirName(int p) {
    return String.format(Locale.ROOT, "part-%05d", p);
  }

  /** Size and CRC-32C of one file. */
  public record Checksum(long bytes, long crc32c) {
    public Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("bytes", bytes);
      m.put("crc32c", Long.toHexString(crc32c));
      return m;
    }

    public static Checksum fromJson(Object o) {
      Map<?, ?> m = (Map<?, ?>) o;
      return new Checksum(((Number) m.get("bytes")).longValue(), Long.parseLong((String) m.get("crc32c"), 16));
    }
  }

  /** Writes the partition's files under {@code dir}; returns each file's checksum by name. */
  public static Map<String, Checksum> write(FileSystem fs, Path dir, GraphBlock block, DenseMatrix features,
      int[] labels, byte[] splits) throws IOException {
    Map<String, Checksum> sums = new LinkedHashMap<>();
    int n = block.numNodes();
    try (BlockFiles.Out o = new BlockFiles.Out(fs.create(new Path(dir, NODES), true))) {
      o.magic("YGNNNODE").i32(VERSION).i32(n).i8(labels != null ? 1 : 0).i8(splits != null ? 1 : 0);
      o.longs(block.nodeIds(), n);
      if (labels != null) {
        o.ints(labels, n);
      }
      if (splits != null) {
        o.bytes(splits, n);
      }
      o.close();
      sums.put(NODES, new Checksum(o.bytes(), o.crc()));
    }
    Csr csr = block.inEdges();
    int m = (int) csr.numEdges();
    try (BlockFiles.Out o = new BlockFiles.Out(fs.create(new Path(dir, GRAPH), true))) {
      o.magic("YGNNCSR_").i32(VERSION).i32(n).i32(block.haloIds().length).i64(m).i8(csr.weighted() ? 1 : 0);
      o.longs(block.haloIds(), block.haloIds().length);
      o.ints(csr.rowPtr(), n + 1);
      o.ints(csr.colIdx(), m);
      if (csr.weighted()) {
        o.floats(csr.weights(), m);
      }
      o.close();
      sums.put(GRAPH, new Checksum(o.bytes(), o.crc()));
    }
    try (BlockFiles.Out o = new BlockFiles.Out(fs.create(new Path(dir, FEATURES), true))) {
      o.magic("YGNNFEAT").i32(VERSION).i32(n).i32(features.cols());
      o.floats(features.data(), n * features.cols());
      o.close();
      sums.put(FEATURES, new Checksum(o.bytes(), o.crc()));
    }
    return sums;
  }

  /** Reads one partition's files, verifying sizes, checksums and the CSR's bounds. */
  public static GraphPartition read(FileSystem fs, Path dir, int p, Ownership ownership, Map<String, Checksum> sums,
      int width) throws IOException {
    long[] ids;
    int[] labels = null;
    byte[] splits = null;
    try (BlockFiles.In in = open(fs, dir, NODES)) {
      in.magic("YGNNNODE");
      version(in, dir);
      int n = in.i32();
      boolean hasLabels = in.i8() != 0;
      boolean hasSplits = in.i8() != 0;
      ids = in.longs(n);
      if (hasLabels) {
        labels = in.ints(n);
      }
      if (hasSplits) {
        splits = in.bytes(n);
      }
      in.finish(sums.get(NODES).bytes(), sums.get(NODES).crc32c());
    }
    GraphBlock block;
    try (BlockFiles.In in = open(fs, dir, GRAPH)) {
      in.magic("YGNNCSR_");
      version(in, dir);
      int n = in.i32();
      int h = in.i32();
      long m = in.i64();
      boolean weighted = in.i8() != 0;
      if (n != ids.length || m < 0 || m > Integer.MAX_VALUE) {
        throw new IOException(dir + "/" + GRAPH + ": " + n + " rows and " + m + " edges do not fit "
            + ids.length + " nodes");
      }
      long[] halo = in.longs(h);
      int[] rowPtr = in.ints(n + 1);
      int[] col = in.ints((int) m);
      float[] w = weighted ? in.floats((int) m) : null;
      in.finish(sums.get(GRAPH).bytes(), sums.get(GRAPH).crc32c());
      checkCsr(dir, rowPtr, col, m, n + h);
      block = new GraphBlock(ids, halo, new Csr(n, n + h, rowPtr, col, w));
    }
    DenseMatrix features;
    try (BlockFiles.In in = open(fs, dir, FEATURES)) {
      in.magic("YGNNFEAT");
      version(in, dir);
      int n = in.i32();
      int w = in.i32();
      if (n != ids.length || w != width) {
        throw new IOException(dir + "/" + FEATURES + ": " + n + "x" + w + " features, expected "
            + ids.length + "x" + width);
      }
      features = new DenseMatrix(n, w, in.floats(Math.multiplyExact(n, w)));
      in.finish(sums.get(FEATURES).bytes(), sums.get(FEATURES).crc32c());
    }
    return new GraphPartition(p, ownership.parts(), ownership, block, features, labels, splits,
        PartitionStats.of(p, block));
  }

  private static BlockFiles.In open(FileSystem fs, Path dir, String name) throws IOException {
    return new BlockFiles.In(fs.open(new Path(dir, name)), dir + "/" + name);
  }

  private static void version(BlockFiles.In in, Path dir) throws IOException {
    int v = in.i32();
    if (v != VERSION) {
      throw new IOException(dir + ": partition file version " + v + ", this reader knows " + VERSION);
    }
  }

  private static void checkCsr(Path dir, int[] rowPtr, int[] col, long m, int slots) throws IOException {
    if (rowPtr[0] != 0 || rowPtr[rowPtr.length - 1] != m) {
      throw new IOException(dir + "/" + GRAPH + ": row pointers do not span the edges");
    }
    for (int r = 1; r < rowPtr.length; r++) {
      if (rowPtr[r] < rowPtr[r - 1]) {
        throw new IOException(dir + "/" + GRAPH + ": row pointers decrease at row " + r);
      }
    }
    for (int c : col) {
      if (c < 0 || c >= slots) {
        throw new IOException(dir + "/" + GRAPH + ": source slot " + c + " outside 0.." + (slots - 1));
      }
    }
  }
}
