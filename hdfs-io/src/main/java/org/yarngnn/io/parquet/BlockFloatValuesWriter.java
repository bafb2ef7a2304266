package org.yarngnn.io.parquet;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.CapacityByteArrayOutputStream;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.values.ValuesWriter;

/**
 * PLAIN float values, the same bytes as parquet-mr's PlainValuesWriter (little-endian {@code floatToIntBits}), but
 * gathered a block at a time into its buffer: PlainValuesWriter pushes each float as four single-byte writes,
 * which dominated the cost of writing embeddings.
 */
final class BlockFloatValuesWriter extends ValuesWriter {
  private static final VarHandle LE_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final int BLOCK = 4096;

  private final CapacityByteArrayOutputStream out;
  private final byte[] block = new byte[BLOCK];
  private int pending;

  BlockFloatValuesWriter(int initialSlabSize, int pageSize, ByteBufferAllocator allocator) {
    out = new CapacityByteArrayOutputStream(initialSlabSize, pageSize, allocator);
  }

  @Override
  public void writeFloat(float v) {
    if (pending == BLOCK) {
      drain();
    }
    LE_INT.set(block, pending, Float.floatToIntBits(v));
    pending += 4;
  }

  private void drain() {
    out.write(block, 0, pending);
    pending = 0;
  }

  @Override
  public long getBufferedSize() {
    return out.size() + pending;
  }

  @Override
  public BytesInput getBytes() {
    drain();
    return BytesInput.from(out);
  }

  @Override
  public Encoding getEncoding() {
    return Encoding.PLAIN;
  }

  @Override
  public void reset() {
    pending = 0;
    out.reset();
  }

  @Override
  public void close() {
    pending = 0;
    out.close();
  }

  @Override
  public long getAllocatedSize() {
    return out.getCapacity() + BLOCK;
  }

  @Override
  public String memUsageString(String prefix) {
    return out.memUsageString(prefix + " PLAIN float");
  }
}
