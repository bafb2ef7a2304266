package org.yarngnn.io.parquet;

import org.yarngnn.io.table.TableWriter;

/**
 * The current row of a Parquet writer, column by column, as the setters leave it for {@code endRow}: ints and
 * longs in {@link #longs}, floats, UTF-8 strings, and float lists as (array, offset, length) without a copy.
 */
abstract class RowBufferWriter implements TableWriter {
  final long[] longs;
  final float[] floats;
  final byte[][] strings;
  final float[][] lists;
  final int[] listOffsets;
  final int[] listLengths;

  RowBufferWriter(int columns) {
    longs = new long[columns];
    floats = new float[columns];
    strings = new byte[columns][];
    lists = new float[columns][];
    listOffsets = new int[columns];
    listLengths = new int[columns];
  }

  @Override
  public final void setLong(int column, long value) {
    longs[column] = value;
  }

  @Override
  public final void setInt(int column, int value) {
    longs[column] = value;
  }

  @Override
  public final void setFloat(int column, float value) {
    floats[column] = value;
  }

  @Override
  public final void setString(int column, byte[] utf8) {
    strings[column] = utf8;
  }

  @Override
  public final void setFloats(int column, float[] values, int offset, int length) {
    lists[column] = values;
    listOffsets[column] = offset;
    listLengths[column] = length;
  }
}
