package org.yarngnn.io.orc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ListColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.yarngnn.io.table.ColumnSpec;
import org.yarngnn.io.table.TableWriter;

/** Writes rows into an ORC {@link VectorizedRowBatch}, flushed to the file when full. */
public final class OrcTableWriter implements TableWriter {
  private static final int BATCH_ROWS = 1024;

  private final Path file;
  private final Writer writer;
  private final VectorizedRowBatch batch;

  public OrcTableWriter(Configuration conf, Path file, List<ColumnSpec> columns) {
    this.file = file;
    TypeDescription schema = schema(columns);
    try {
      writer = OrcFile.createWriter(file, OrcFile.writerOptions(conf).setSchema(schema).overwrite(true));
    } catch (IOException e) {
      throw new UncheckedIOException("creating " + file + ": " + e.getMessage(), e);
    }
    batch = schema.createRowBatch(BATCH_ROWS);
  }

  static TypeDescription schema(List<ColumnSpec> columns) {
    TypeDescription t = TypeDescription.createStruct();
    for (ColumnSpec c : columns) {
      switch (c.type()) {
        case INT64: t.addField(c.name(), TypeDescription.createLong()); break;
        case INT32: t.addField(c.name(), TypeDescription.createInt()); break;
        case FLOAT: t.addField(c.name(), TypeDescription.createFloat()); break;
        case STRING: t.addField(c.name(), TypeDescription.createString()); break;
        case FLOAT_LIST: t.addField(c.name(), TypeDescription.createList(TypeDescription.createFloat())); break;
        default: throw new IllegalStateException(c.type().toString());
      }
    }
    return t;
  }

  @Override
  public void setLong(int column, long value) {
    ((LongColumnVector) batch.cols[column]).vector[batch.size] = value;
  }

  @Override
  public void setInt(int column, int value) {
    ((LongColumnVector) batch.cols[column]).vector[batch.size] = value;
  }

  @Override
  public void setFloat(int column, float value) {
    ((DoubleColumnVector) batch.cols[column]).vector[batch.size] = value;
  }

  @Override
  public void setString(int column, byte[] utf8) {
    ((BytesColumnVector) batch.cols[column]).setRef(batch.size, utf8, 0, utf8.length);
  }

  @Override
  public void setFloats(int column, float[] values, int offset, int length) {
    ListColumnVector list = (ListColumnVector) batch.cols[column];
    int row = batch.size;
    int start = list.childCount;
    list.offsets[row] = start;
    list.lengths[row] = length;
    list.childCount = start + length;
    double[] out = ((DoubleColumnVector) list.child).vector;
    if (list.childCount > out.length) {
      // ORC's ensureSize grows to exactly the size asked: growing geometrically keeps a batch linear.
      list.child.ensureSize(Math.max(list.childCount, out.length * 2), true);
      out = ((DoubleColumnVector) list.child).vector;
    }
    for (int k = 0; k < length; k++) {
      out[start + k] = values[offset + k];
    }
  }

  @Override
  public void endRow() {
    if (++batch.size == batch.getMaxSize()) {
      flush();
    }
  }

  private void flush() {
    try {
      writer.addRowBatch(batch);
    } catch (IOException e) {
      throw new UncheckedIOException("writing " + file + ": " + e.getMessage(), e);
    }
    batch.reset();
  }

  @Override
  public void close() {
    if (batch.size > 0) {
      flush();
    }
    try {
      writer.close();
    } catch (IOException e) {
      throw new UncheckedIOException("closing " + file + ": " + e.getMessage(), e);
    }
  }
}
