package org.yarngnn.io.parquet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.yarngnn.io.table.InputException;

/**
 * A leaf column of a Parquet table found by top-level field name and checked against the types the contract
 * allows: a scalar, or a list (any of Parquet's LIST encodings) of one primitive.
 */
final class ParquetColumn {
  final String name;
  final ColumnDescriptor descriptor;
  final PrimitiveTypeName type;
  final int maxDefinition;
  /** For lists: definition level of a null element, or -1 when elements are required. */
  final int nullElementLevel;
  /** For lists: definition level of a null list, or -1 when the list is required. */
  final int nullListLevel;
  /**
   * An unsigned 64-bit integer column (UINT64): its values above 2^63-1 read as negative longs, and the reader
   * refuses them. (UINT8/16/32 are widened without sign by {@link PageCursor}.)
   */
  final boolean unsigned64;

  private ParquetColumn(String name, ColumnDescriptor descriptor, int nullElementLevel, int nullListLevel) {
    this.name = name;
    this.descriptor = descriptor;
    this.type = descriptor.getPrimitiveType().getPrimitiveTypeName();
    this.maxDefinition = descriptor.getMaxDefinitionLevel();
    this.nullElementLevel = nullElementLevel;
    this.nullListLevel = nullListLevel;
    LogicalTypeAnnotation logical = descriptor.getPrimitiveType().getLogicalTypeAnnotation();
    this.unsigned64 = type == PrimitiveTypeName.INT64 && logical instanceof IntLogicalTypeAnnotation
        && !((IntLogicalTypeAnnotation) logical).isSigned();
  }

  /** What {@link #integer} accepts, for messages. */
  static final String INTEGER_TYPES = "an integer (INT8..INT64, UINT8..UINT64, or DECIMAL with scale 0)";

  /**
   * A non-repeated integer column, by its logical type: INT32/INT64 without a logical type, signed or unsigned
   * INT(8..64), or DECIMAL(p, 0) stored as INT32/INT64. Refused, naming the file and the column: a DECIMAL with
   * a scale, DATE, TIME, TIMESTAMP, or any other annotation; floating point, strings, INT96; DECIMAL stored as
   * bytes (FIXED_LEN_BYTE_ARRAY or BINARY, not supported). Null when absent and optional.
   */
  static ParquetColumn integer(MessageType schema, Path file, String name, boolean required) {
    List<ColumnDescriptor> leaves = leaves(schema, file, name, required);
    if (leaves == null) {
      return null;
    }
    ColumnDescriptor d = leaves.get(0);
    if (leaves.size() != 1 || d.getPath().length != 1 || d.getMaxRepetitionLevel() != 0) {
      throw wrongType(schema, file, name, INTEGER_TYPES);
    }
    PrimitiveTypeName physical = d.getPrimitiveType().getPrimitiveTypeName();
    LogicalTypeAnnotation logical = d.getPrimitiveType().getLogicalTypeAnnotation();
    if (logical instanceof DecimalLogicalTypeAnnotation) {
      int scale = ((DecimalLogicalTypeAnnotation) logical).getScale();
      if (scale != 0) {
        throw wrongType(schema, file, name, INTEGER_TYPES + "; a DECIMAL with scale " + scale + " is not an integer");
      }
      if (physical != PrimitiveTypeName.INT32 && physical != PrimitiveTypeName.INT64) {
        throw InputException.in(file, "column '" + name + "' is a DECIMAL stored as " + physical
            + ", which is not supported (store integer ids as INT64, or DECIMAL as INT32/INT64)");
      }
    } else if (physical != PrimitiveTypeName.INT32 && physical != PrimitiveTypeName.INT64
        || logical != null && !(logical instanceof IntLogicalTypeAnnotation)) {
      throw wrongType(schema, file, name, INTEGER_TYPES);
    }
    return new ParquetColumn(name, d, -1, -1);
  }

  /** A non-repeated primitive column; null when absent and optional. */
  static ParquetColumn scalar(MessageType schema, Path file, String name, boolean required,
      String expected, PrimitiveTypeName... allowed) {
    List<ColumnDescriptor> leaves = leaves(schema, file, name, required);
    if (leaves == null) {
      return null;
    }
    ColumnDescriptor d = leaves.get(0);
    if (leaves.size() != 1 || d.getPath().length != 1 || d.getMaxRepetitionLevel() != 0
        || !Arrays.asList(allowed).contains(d.getPrimitiveType().getPrimitiveTypeName())) {
      throw wrongType(schema, file, name, expected);
    }
    return new ParquetColumn(name, d, -1, -1);
  }

  /** A list of one primitive type; null when absent and optional. */
  static ParquetColumn list(MessageType schema, Path file, String name, boolean required, String expected,
      PrimitiveTypeName... allowed) {
    List<ColumnDescriptor> leaves = leaves(schema, file, name, required);
    if (leaves == null) {
      return null;
    }
    ColumnDescriptor d = leaves.get(0);
    if (leaves.size() != 1 || d.getMaxRepetitionLevel() != 1
        || !Arrays.asList(allowed).contains(d.getPrimitiveType().getPrimitiveTypeName())) {
      throw wrongType(schema, file, name, expected);
    }
    boolean elementOptional = d.getPrimitiveType().getRepetition() == Type.Repetition.OPTIONAL;
    boolean listOptional = schema.getType(name).isRepetition(Type.Repetition.OPTIONAL);
    return new ParquetColumn(name, d, elementOptional ? d.getMaxDefinitionLevel() - 1 : -1, listOptional ? 0 : -1);
  }

  private static List<ColumnDescriptor> leaves(MessageType schema, Path file, String name, boolean required) {
    if (!schema.containsField(name)) {
      if (required) {
        throw InputException.in(file, "missing column '" + name + "' (columns: " + fieldNames(schema) + ")");
      }
      return null;
    }
    List<ColumnDescriptor> out = new ArrayList<>();
    for (ColumnDescriptor d : schema.getColumns()) {
      if (d.getPath()[0].equals(name)) {
        out.add(d);
      }
    }
    return out;
  }

  private static InputException wrongType(MessageType schema, Path file, String name, String expected) {
    return InputException.in(file, "column '" + name + "' has type "
        + schema.getType(name).toString().trim().replaceAll("\\s+", " ") + ", expected " + expected);
  }

  private static String fieldNames(MessageType schema) {
    List<String> names = new ArrayList<>();
    for (Type t : schema.getFields()) {
      names.add(t.getName());
    }
    return String.join(", ", names);
  }

  /** The schema restricted to the given columns' top-level fields (null entries skipped). */
  static MessageType projection(MessageType schema, ParquetColumn... columns) {
    List<Type> fields = new ArrayList<>();
    for (ParquetColumn c : columns) {
      if (c != null) {
        fields.add(schema.getType(c.name));
      }
    }
    return new MessageType(schema.getName(), fields);
  }
}
