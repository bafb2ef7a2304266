package org.yarngnn.partition;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * Node ids that edges of one table file need checked by their owner partition, shuffled as a single record.
 * Each id is kept once per block, with the smallest (row, column) it was seen at, so the owner can still name
 * the first offending row in table order; the flag is the column (0 src, 1 dst). Ids stay in first-seen order.
 * Wire form: int file, int count, int length, then {@code length} bytes: ids (int64 big-endian), then the rows
 * ({@link RowBlock}).
 */
final class RefBlock extends RowBlock {
  long[] ids = new long[0];
  /** Open addressing over {@code ids}: entry index + 1, 0 for empty; sized for the block's capacity. */
  private int[] slots = new int[0];
  private int mask;

  @Override
  void clear(int file) {
    super.clear(file);
    Arrays.fill(slots, 0);
  }

  @Override
  void ensureCapacity(int n) {
    super.ensureCapacity(n);
    if (ids.length < n) {
      ids = Arrays.copyOf(ids, n);
    }
  }

  /** Sizes the block for {@code capacity} distinct ids, empty, for rows of {@code file}. */
  void reserve(int capacity, int file) {
    ensureCapacity(capacity);
    int size = Integer.highestOneBit(Math.max(2, capacity) * 2 - 1) * 2;
    if (slots.length < size) {
      slots = new int[size];
      mask = size - 1;
    }
    clear(file);
  }

  /** Records {@code id} seen at (row, column); the caller keeps distinct ids within the reserved capacity. */
  void add(long id, int column, long row) {
    int h = (int) Mixing.mix64(id) & mask;
    for (int s; (s = slots[h]) != 0; h = (h + 1) & mask) {
      int i = s - 1;
      if (ids[i] == id) {
        if (row < rows[i] || (row == rows[i] && column < flags[i])) {
          rows[i] = row;
          flags[i] = (byte) column;
        }
        return;
      }
    }
    int i = count++;
    slots[h] = i + 1;
    ids[i] = id;
    rows[i] = row;
    flags[i] = (byte) column;
  }

  int column(int i) {
    return flag(i);
  }

  void write(DataOutput out) throws IOException {
    byte[] b = bytes(count * 8 + maxRowBytes());
    int pos = 0;
    for (int i = 0; i < count; i++, pos += 8) {
      LONGS.set(b, pos, ids[i]);
    }
    int end = encodeRows(pos);
    out.writeInt(file);
    out.writeInt(count);
    out.writeInt(end);
    out.write(b, 0, end);
  }

  void readFields(DataInput in) throws IOException {
    file = in.readInt();
    int n = in.readInt();
    checkCount(n, "reference");
    int length = in.readInt();
    count = n;
    ensureCapacity(n);
    readBytes(in, length, n * 8);
    byte[] b = bytes;
    for (int i = 0, pos = 0; i < n; i++, pos += 8) {
      ids[i] = (long) LONGS.get(b, pos);
    }
  }
}
