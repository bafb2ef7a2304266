package org.yarngnn.io.parquet;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.factory.DefaultValuesWriterFactory;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * parquet-mr's default choice of encoders, except that where it picks PLAIN for a float column the same bytes
 * come from {@link BlockFloatValuesWriter}. Dictionary, fallback and every other type stay parquet-mr's.
 */
final class BlockFloatWriterFactory implements ValuesWriterFactory {
  private final DefaultValuesWriterFactory defaults = new DefaultValuesWriterFactory();
  private ParquetProperties props;

  @Override
  public void initialize(ParquetProperties properties) {
    this.props = properties;
    defaults.initialize(properties);
  }

  @Override
  public ValuesWriter newValuesWriter(ColumnDescriptor column) {
    ValuesWriter chosen = defaults.newValuesWriter(column);
    if (chosen.getClass() != PlainValuesWriter.class
        || column.getPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.FLOAT) {
      return chosen;
    }
    chosen.close();
    return new BlockFloatValuesWriter(props.getInitialSlabSize(), props.getPageSizeThreshold(), props.getAllocator());
  }
}
