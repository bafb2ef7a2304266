package org.yarngnn.partition;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import org.yarngnn.io.table.NodeSplit;

/**
 * Node rows of one table file owned by one partition, shuffled as a single record, in table order: ids, labels,
 * splits and feature rows (row-major, {@code width} floats each), with their table rows for error messages.
 * Labels and splits are left out while all are absent (-1, {@link NodeSplit#NONE}). Wire form: int file, int
 * count, int width, byte (1 labels, 2 splits), int length, then {@code length} bytes: ids (bit-packed, see
 * {@link ShuffleBlock#packLongs}), labels (int32) and splits (int8) when present, features (float32; big-endian), then
 * the rows ({@link ShuffleBlock}).
 */
final class NodeBlock extends ShuffleBlock {
  private static final int LABELS = 1;
  private static final int SPLITS = 2;

  int width;
  long[] ids = new long[0];
  int[] labels = new int[0];
  byte[] splits = new byte[0];
  float[] features = new float[0];
  /**
   * Where row 0's features start in {@link #features}: 0 but in a block {@link #over} a slice of a reader's larger
   * array, which only its own worker's assembler takes (never encoded).
   */
  int featureOffset;
  private int present;
  /**
   * Whether the block's arrays are its consumer's alone (made {@link #over} a reader's arrays, or taken from its
   * router): the assembler may then keep the feature array rather than copy it.
   */
  boolean owned;
  /** The width blocks read here must have, or -1 for any. */
  private int expectedWidth = -1;

  /** A block with its own encode buffer (the reduce side). */
  NodeBlock(int width) {
    this(width, new Scratch());
  }

  NodeBlock(int width, Scratch scratch) {
    super(scratch);
    this.width = width;
  }

  /**
   * A block over the caller's arrays, not copied (the caller gives them up): {@code count} rows of {@code file};
   * labels and splits may be null (all absent).
   */
  static NodeBlock over(int file, int count, long[] ids, long[] rows, int width, float[] features, int offset,
      int[] labels, byte[] splits) {
    if (offset < 0 || ids.length < count || rows.length < count
        || features.length - (long) offset < (long) count * width
        || (labels != null && labels.length < count) || (splits != null && splits.length < count)) {
      throw new IllegalArgumentException("arrays shorter than " + count + " rows of width " + width);
    }
    NodeBlock b = new NodeBlock(width);
    b.owned = true;
    b.file = file;
    b.count = count;
    b.ids = ids;
    b.rows = rows;
    b.flags = new byte[count];
    b.features = features;
    b.featureOffset = offset;
    if (labels != null) {
      b.labels = labels;
      for (int i = 0; i < count && (b.present & LABELS) == 0; i++) {
        b.present |= labels[i] != -1 ? LABELS : 0;
      }
    }
    if (splits != null) {
      b.splits = splits;
      for (int i = 0; i < count && (b.present & SPLITS) == 0; i++) {
        b.present |= splits[i] != NodeSplit.NONE ? SPLITS : 0;
      }
    }
    return b;
  }

  @Override
  NodeBlock copy() {
    NodeBlock c = copyRowsTo(new NodeBlock(width));
    c.ids = Arrays.copyOf(ids, count);
    c.labels = Arrays.copyOf(labels, (present & LABELS) != 0 ? count : 0);
    c.splits = Arrays.copyOf(splits, (present & SPLITS) != 0 ? count : 0);
    c.features = Arrays.copyOfRange(features, featureOffset, featureOffset + count * width);
    c.present = present;
    return c;
  }

  @Override
  void clear(int file) {
    super.clear(file);
    present = 0;
  }

  @Override
  void ensureCapacity(int n) {
    super.ensureCapacity(n);
    if (ids.length < n) {
      ids = Arrays.copyOf(ids, n);
      labels = Arrays.copyOf(labels, n);
      splits = Arrays.copyOf(splits, n);
    }
    if (features.length < (long) n * width) {
      features = Arrays.copyOf(features, Math.multiplyExact(n, width));
    }
  }

  /** Appends a node row; the caller keeps {@code count} within the capacity it ensured. */
  void add(long id, int label, byte split, float[] f, long row) {
    add(id, label, split, f, 0, row);
  }

  /** Appends a node row whose features are {@code f[offset, offset + width)}. */
  void add(long id, int label, byte split, float[] f, int offset, long row) {
    int i = count++;
    ids[i] = id;
    labels[i] = label;
    splits[i] = split;
    System.arraycopy(f, offset, features, i * width, width);
    rows[i] = row;
    flags[i] = 0;
    present |= (label != -1 ? LABELS : 0) | (split != NodeSplit.NONE ? SPLITS : 0);
  }

  int label(int i) {
    return (present & LABELS) != 0 ? labels[i] : -1;
  }

  byte split(int i) {
    return (present & SPLITS) != 0 ? splits[i] : NodeSplit.NONE;
  }

  @Override
  void writeHeader(DataOutput out) throws IOException {
    out.writeInt(width);
    out.writeByte(present);
  }

  @Override
  void readHeader(DataInput in) throws IOException {
    header(in.readInt(), in.readByte());
  }

  @Override
  void putHeader(byte[] b, int pos) {
    INTS.set(b, pos, width);
    b[pos + 4] = (byte) present;
  }

  @Override
  void readHeader(byte[] b, int pos) throws IOException {
    header((int) INTS.get(b, pos), b[pos + 4]);
  }

  private void header(int width, int present) throws IOException {
    this.width = width;
    this.present = present;
    if (width < 0 || (expectedWidth >= 0 && width != expectedWidth)) {
      throw new IOException("corrupt node block of width " + width
          + (expectedWidth >= 0 ? " (rows here are " + expectedWidth + " wide)" : ""));
    }
    if ((present & ~(LABELS | SPLITS)) != 0) {
      throw new IOException("corrupt node block: columns " + present);
    }
  }

  @Override
  int kindHeaderBytes() {
    return 5;
  }

  @Override
  long minEntryBytes() {
    return 1 + 4L * width;
  }

  /** Refuses blocks whose rows are not {@code width} floats wide (-1: any width, as written). */
  NodeBlock expectWidth(int width) {
    this.expectedWidth = width;
    return this;
  }

  @Override
  int maxColumnBytes() {
    return maxPackedBytes(count) + count * (((present & LABELS) != 0 ? 4 : 0) + ((present & SPLITS) != 0 ? 1 : 0)
        + 4 * width);
  }

  @Override
  int columnBytes() {
    return Math.toIntExact(packedBytes(ids, count) + (long) count * (((present & LABELS) != 0 ? 4 : 0)
        + ((present & SPLITS) != 0 ? 1 : 0) + 4L * width));
  }

  @Override
  int encodeColumns(byte[] b, int pos) {
    pos = packLongs(ids, count, b, pos);
    if ((present & LABELS) != 0) {
      for (int i = 0; i < count; i++, pos += 4) {
        INTS.set(b, pos, labels[i]);
      }
    }
    if ((present & SPLITS) != 0) {
      System.arraycopy(splits, 0, b, pos, count);
      pos += count;
    }
    int n = count * width;
    // Bulk big-endian copy (a byte-swapping memory copy), not a store per value: node rows are most of the bytes.
    java.nio.ByteBuffer.wrap(b, pos, 4 * n).asFloatBuffer().put(features, featureOffset, n);
    return pos + 4 * n;
  }

  @Override
  int decodeColumns(byte[] b, int pos, int end) throws IOException {
    pos = unpackLongs(b, pos, ids, count, end);
    within(pos, (long) count * (((present & LABELS) != 0 ? 4 : 0) + ((present & SPLITS) != 0 ? 1 : 0)
        + 4L * width), end);
    if ((present & LABELS) != 0) {
      for (int i = 0; i < count; i++, pos += 4) {
        labels[i] = (int) INTS.get(b, pos);
      }
    }
    if ((present & SPLITS) != 0) {
      System.arraycopy(b, pos, splits, 0, count);
      pos += count;
    }
    int n = count * width;
    java.nio.ByteBuffer.wrap(b, pos, 4 * n).asFloatBuffer().get(features, 0, n);
    return pos + 4 * n;
  }
}
