package org.yarngnn.io.parquet;

import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/** {@link LeafCursor} over Parquet's own column reader: any type and encoding, one virtual call per step. */
final class ColumnReaderCursor implements LeafCursor {
  private final ColumnReader reader;
  private final boolean int32;
  private final boolean float64;
  private long left;

  ColumnReaderCursor(ColumnReader reader) {
    this.reader = reader;
    PrimitiveTypeName t = reader.getDescriptor().getPrimitiveType().getPrimitiveTypeName();
    this.int32 = t == PrimitiveTypeName.INT32;
    this.float64 = t == PrimitiveTypeName.DOUBLE;
    this.left = reader.getTotalValueCount();
  }

  @Override
  public boolean hasNext() {
    return left > 0;
  }

  @Override
  public int repetitionLevel() {
    return reader.getCurrentRepetitionLevel();
  }

  @Override
  public int definitionLevel() {
    return reader.getCurrentDefinitionLevel();
  }

  @Override
  public long getLong() {
    return int32 ? reader.getInteger() : reader.getLong();
  }

  @Override
  public float getFloat() {
    return float64 ? PageCursor.narrow(reader.getDouble()) : reader.getFloat();
  }

  @Override
  public Binary getBinary() {
    return reader.getBinary();
  }

  @Override
  public void consume() {
    reader.consume();
    left--;
  }
}
