package org.yarngnn.io.parquet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.yarngnn.io.table.ColumnSpec;

/**
 * Writes rows straight to Parquet's column writers (no record objects, no record assembly): each column of the
 * table is one leaf of the schema. Lists use the standard 3-level LIST encoding
 * ({@code group (LIST) { repeated group list { required float element } }}), which Spark, DuckDB and pyarrow
 * read; an empty list is a null list (as parquet-mr's record writers store it). Properties, codec and row-group size
 * are ParquetWriter's defaults with SNAPPY.
 */
public final class ParquetTableWriter extends RowBufferWriter {
  private static final String LIST = "list";
  private static final String ELEMENT = "element";

  private final Path file;
  private final ColumnSpec.Type[] types;
  private final ParquetColumnFile out;

  public ParquetTableWriter(Configuration conf, Path file, String tableName, List<ColumnSpec> columns) {
    this(conf, file, tableName, columns, ParquetWriter.DEFAULT_BLOCK_SIZE);
  }

  /** With a row-group size other than ParquetWriter's default (tests write several row groups this way). */
  public ParquetTableWriter(Configuration conf, Path file, String tableName, List<ColumnSpec> columns,
      long rowGroupBytes) {
    super(columns.size());
    this.file = file;
    int n = columns.size();
    types = new ColumnSpec.Type[n];
    ParquetProperties.Builder props =
        ParquetProperties.builder().withValuesWriterFactory(new BlockFloatWriterFactory());
    boolean[] floatLists = new boolean[n];
    for (int i = 0; i < n; i++) {
      ColumnSpec c = columns.get(i);
      types[i] = c.type();
      // A float list's pages are built a row at a time (FloatListPages): PLAIN, never a dictionary (dense float
      // vectors rarely repeat).
      floatLists[i] = c.type() == ColumnSpec.Type.FLOAT_LIST;
      if (c.type() == ColumnSpec.Type.INT64) {
        // Node ids are unique and edge endpoints nearly so: a dictionary is only built to be given up.
        props.withDictionaryEncoding(c.name(), false);
      }
    }
    try {
      out = new ParquetColumnFile(conf, file, schema(tableName, columns), props.build(), CompressionCodecName.SNAPPY,
          rowGroupBytes, ParquetWriter.MAX_PADDING_SIZE_DEFAULT, floatLists);
    } catch (IOException e) {
      throw new UncheckedIOException("creating " + file + ": " + e.getMessage(), e);
    }
  }

  static MessageType schema(String tableName, List<ColumnSpec> columns) {
    StringBuilder s = new StringBuilder("message ").append(tableName).append(" {\n");
    for (ColumnSpec c : columns) {
      switch (c.type()) {
        case INT64: s.append("  required int64 ").append(c.name()).append(";\n"); break;
        case INT32: s.append("  required int32 ").append(c.name()).append(";\n"); break;
        case FLOAT: s.append("  required float ").append(c.name()).append(";\n"); break;
        case STRING: s.append("  required binary ").append(c.name()).append(" (STRING);\n"); break;
        case FLOAT_LIST:
          s.append("  required group ").append(c.name()).append(" (LIST) {\n    repeated group ").append(LIST)
              .append(" {\n      required float ").append(ELEMENT).append(";\n    }\n  }\n");
          break;
        default: throw new IllegalStateException(c.type().toString());
      }
    }
    return MessageTypeParser.parseMessageType(s.append("}\n").toString());
  }

  @Override
  public void endRow() {
    try {
      for (int i = 0; i < types.length; i++) {
        switch (types[i]) {
          case INT64: out.column(i).write(longs[i], 0, 0); break;
          case INT32: out.column(i).write((int) longs[i], 0, 0); break;
          case FLOAT: out.column(i).write(floats[i], 0, 0); break;
          case STRING: out.column(i).write(Binary.fromReusedByteArray(strings[i]), 0, 0); break;
          case FLOAT_LIST: out.list(i).write(lists[i], listOffsets[i], listLengths[i]); break;
          default: throw new IllegalStateException(types[i].toString());
        }
      }
      out.endRow();
    } catch (IOException e) {
      throw new UncheckedIOException("writing " + file + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    try {
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException("closing " + file + ": " + e.getMessage(), e);
    }
  }
}
