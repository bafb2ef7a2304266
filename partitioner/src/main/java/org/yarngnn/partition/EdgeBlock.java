package org.yarngnn.partition;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * Edges of one table file routed to one owner partition, shuffled as a single record: each edge points into the
 * owner's node {@code to} from {@code from}, with its weight and table row; the flag is 1 for the reverse of a
 * table edge under --undirected. Weights are left out when all are 1 (unweighted tables). Wire form: int file,
 * int count, byte weighted, int length, then {@code length} bytes: to ids, from ids (each bit-packed, see
 * {@link ShuffleBlock#packLongs}), weights (float32 big-endian) when weighted, then the rows ({@link ShuffleBlock}).
 */
final class EdgeBlock extends ShuffleBlock {
  long[] to = new long[0];
  long[] from = new long[0];
  float[] weight = new float[0];
  /** False while every weight is 1: the weights are then not written. */
  boolean weighted;

  /** A block with its own encode buffer (the reduce side). */
  EdgeBlock() {
    this(new Scratch());
  }

  EdgeBlock(Scratch scratch) {
    super(scratch);
  }

  @Override
  EdgeBlock copy() {
    EdgeBlock c = copyRowsTo(new EdgeBlock());
    c.to = Arrays.copyOf(to, count);
    c.from = Arrays.copyOf(from, count);
    c.weight = Arrays.copyOf(weight, weighted ? count : 0);
    c.weighted = weighted;
    return c;
  }

  @Override
  void clear(int file) {
    super.clear(file);
    weighted = false;
  }

  @Override
  void ensureCapacity(int n) {
    super.ensureCapacity(n);
    if (to.length < n) {
      to = Arrays.copyOf(to, n);
      from = Arrays.copyOf(from, n);
      weight = Arrays.copyOf(weight, n);
    }
  }

  /** Appends an edge; the caller keeps {@code count} within the capacity it ensured. */
  void add(long to, long from, float weight, boolean reversed, long row) {
    int i = count++;
    this.to[i] = to;
    this.from[i] = from;
    this.weight[i] = weight;
    this.rows[i] = row;
    this.flags[i] = (byte) (reversed ? 1 : 0);
    weighted |= weight != 1f;
  }

  float weight(int i) {
    return weighted ? weight[i] : 1f;
  }

  boolean reversed(int i) {
    return flag(i) == 1;
  }

  @Override
  void writeHeader(DataOutput out) throws IOException {
    out.writeByte(weighted ? 1 : 0);
  }

  @Override
  void readHeader(DataInput in) throws IOException {
    weighted = in.readByte() != 0;
  }

  @Override
  void putHeader(byte[] b, int pos) {
    b[pos] = (byte) (weighted ? 1 : 0);
  }

  @Override
  void readHeader(byte[] b, int pos) {
    weighted = b[pos] != 0;
  }

  @Override
  long minEntryBytes() {
    return weighted ? 5 : 1;
  }

  @Override
  int kindHeaderBytes() {
    return 1;
  }

  @Override
  int maxColumnBytes() {
    return 2 * maxPackedBytes(count) + (weighted ? 4 * count : 0);
  }

  @Override
  int columnBytes() {
    return Math.toIntExact((long) packedBytes(to, count) + packedBytes(from, count) + (weighted ? 4L * count : 0));
  }

  @Override
  int encodeColumns(byte[] b, int pos) {
    pos = packLongs(to, count, b, pos);
    pos = packLongs(from, count, b, pos);
    if (weighted) {
      for (int i = 0; i < count; i++, pos += 4) {
        FLOATS.set(b, pos, weight[i]);
      }
    }
    return pos;
  }

  @Override
  int decodeColumns(byte[] b, int pos, int end) throws IOException {
    pos = unpackLongs(b, pos, to, count, end);
    pos = unpackLongs(b, pos, from, count, end);
    if (weighted) {
      within(pos, 4L * count, end);
      for (int i = 0; i < count; i++, pos += 4) {
        weight[i] = (float) FLOATS.get(b, pos);
      }
    }
    return pos;
  }
}
