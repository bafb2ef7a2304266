package org.yarngnn.partition;

import java.io.IOException;
import java.util.Arrays;

/**
 * Node ids that edges of one table file need checked by their owner partition, shuffled as a single record. A
 * small direct-mapped cache of recent ids folds repeats (hubs repeat often) into one entry that keeps the smallest
 * (row, column) it was seen at, so the owner can still name the first offending row in table order; an id the
 * cache forgot is simply entered again. The flag is the column (0 src, 1 dst). Wire form: int file, int count,
 * int length, then {@code length} bytes: ids (bit-packed, see {@link ShuffleBlock#packLongs}), then the rows
 * ({@link ShuffleBlock}).
 */
final class RefBlock extends ShuffleBlock {
  /** Recent-id cache slots at most: 192 KiB stays in L2; fewer for small blocks, so many owners stay cheap. */
  private static final int MAX_CACHE_BITS = 14;

  long[] ids = new long[0];
  /** Cached ids and their entry index + 1 (0 for empty), direct-mapped by the id's top hash bits. */
  private long[] cachedIds = new long[2];
  private int[] cachedEntries = new int[2];
  private int cacheShift = 63;

  /** A block with its own encode buffer (the reduce side). */
  RefBlock() {
    this(new Scratch());
  }

  RefBlock(Scratch scratch) {
    super(scratch);
  }

  @Override
  RefBlock copy() {
    RefBlock c = copyRowsTo(new RefBlock());
    c.ids = Arrays.copyOf(ids, count);
    return c;
  }

  @Override
  void clear(int file) {
    super.clear(file);
    Arrays.fill(cachedEntries, 0);
  }

  @Override
  void ensureCapacity(int n) {
    super.ensureCapacity(n);
    if (ids.length < n) {
      ids = Arrays.copyOf(ids, n);
    }
    int bits = Math.max(1, Math.min(MAX_CACHE_BITS, 32 - Integer.numberOfLeadingZeros(Math.max(1, n - 1))));
    if (cachedIds.length < 1 << bits) {
      cachedIds = new long[1 << bits];
      cachedEntries = new int[1 << bits];
      cacheShift = 64 - bits;
    }
  }

  /** Records {@code id} seen at (row, column); the caller keeps {@code count} within the capacity it ensured. */
  void add(long id, int column, long row) {
    int h = (int) (Mixing.mix64(id) >>> cacheShift);
    int e = cachedEntries[h];
    if (e != 0 && cachedIds[h] == id) {
      int i = e - 1;
      if (row < rows[i] || (row == rows[i] && column < flags[i])) {
        rows[i] = row;
        flags[i] = (byte) column;
      }
      return;
    }
    int i = count++;
    cachedIds[h] = id;
    cachedEntries[h] = i + 1;
    ids[i] = id;
    rows[i] = row;
    flags[i] = (byte) column;
  }

  int column(int i) {
    return flag(i);
  }

  @Override
  int maxColumnBytes() {
    return maxPackedBytes(count);
  }

  @Override
  int columnBytes() {
    return packedBytes(ids, count);
  }

  @Override
  int encodeColumns(byte[] b, int pos) {
    return packLongs(ids, count, b, pos);
  }

  @Override
  int decodeColumns(byte[] b, int pos, int end) throws IOException {
    return unpackLongs(b, pos, ids, count, end);
  }
}
