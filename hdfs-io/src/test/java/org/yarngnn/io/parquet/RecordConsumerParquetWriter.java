package org.yarngnn.io.parquet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;
import org.yarngnn.io.table.ColumnSpec;

/**
 * Baseline for {@link ParquetWriteThroughput}: the former RecordConsumerParquetWriter, which drives parquet-mr's
 * RecordConsumer (record assembly, about five calls per float) instead of the column writers.
 */
final class RecordConsumerParquetWriter extends RowBufferWriter {
  private static final String LIST = "list";
  private static final String ELEMENT = "element";

  private final Path file;
  private final List<ColumnSpec> columns;
  private final ParquetWriter<RecordConsumerParquetWriter> writer;

  RecordConsumerParquetWriter(Configuration conf, Path file, String tableName, List<ColumnSpec> columns) {
    super(columns.size());
    this.file = file;
    this.columns = List.copyOf(columns);
    MessageType schema = ParquetTableWriter.schema(tableName, columns);
    try {
      Builder b = new Builder(HadoopOutputFile.fromPath(file, conf), schema)
          .withConf(conf)
          .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
          .withCompressionCodec(CompressionCodecName.SNAPPY);
      for (ColumnSpec c : columns) {
        if (c.type() == ColumnSpec.Type.FLOAT_LIST) {
          // Dense float vectors rarely repeat: a dictionary only costs time before Parquet falls back.
          b = b.withDictionaryEncoding(c.name() + "." + LIST + "." + ELEMENT, false);
        }
      }
      writer = b.build();
    } catch (IOException e) {
      throw new UncheckedIOException("creating " + file + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void endRow() {
    try {
      writer.write(this);
    } catch (IOException e) {
      throw new UncheckedIOException("writing " + file + ": " + e.getMessage(), e);
    }
  }

  /** Called back by the write support with the current row. */
  private void writeRow(RecordConsumer rc) {
    rc.startMessage();
    for (int i = 0; i < columns.size(); i++) {
      ColumnSpec c = columns.get(i);
      rc.startField(c.name(), i);
      switch (c.type()) {
        case INT64: rc.addLong(longs[i]); break;
        case INT32: rc.addInteger((int) longs[i]); break;
        case FLOAT: rc.addFloat(floats[i]); break;
        case STRING: rc.addBinary(Binary.fromReusedByteArray(strings[i])); break;
        case FLOAT_LIST: writeList(rc, lists[i], listOffsets[i], listLengths[i]); break;
        default: throw new IllegalStateException(c.type().toString());
      }
      rc.endField(c.name(), i);
    }
    rc.endMessage();
  }

  private static void writeList(RecordConsumer rc, float[] values, int offset, int length) {
    rc.startGroup();
    if (length > 0) {
      rc.startField(LIST, 0);
      for (int k = 0; k < length; k++) {
        rc.startGroup();
        rc.startField(ELEMENT, 0);
        rc.addFloat(values[offset + k]);
        rc.endField(ELEMENT, 0);
        rc.endGroup();
      }
      rc.endField(LIST, 0);
    }
    rc.endGroup();
  }

  @Override
  public void close() {
    try {
      writer.close();
    } catch (IOException e) {
      throw new UncheckedIOException("closing " + file + ": " + e.getMessage(), e);
    }
  }

  private static final class RowWriteSupport extends WriteSupport<RecordConsumerParquetWriter> {
    private final MessageType schema;
    private RecordConsumer consumer;

    RowWriteSupport(MessageType schema) {
      this.schema = schema;
    }

    @Override
    public WriteContext init(Configuration configuration) {
      return new WriteContext(schema, new HashMap<>());
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
      this.consumer = recordConsumer;
    }

    @Override
    public void write(RecordConsumerParquetWriter row) {
      row.writeRow(consumer);
    }
  }

  private static final class Builder extends ParquetWriter.Builder<RecordConsumerParquetWriter, Builder> {
    private final MessageType schema;

    Builder(HadoopOutputFile out, MessageType schema) {
      super(out);
      this.schema = schema;
    }

    @Override
    protected Builder self() {
      return this;
    }

    @Override
    protected WriteSupport<RecordConsumerParquetWriter> getWriteSupport(Configuration conf) {
      return new RowWriteSupport(schema);
    }
  }
}
