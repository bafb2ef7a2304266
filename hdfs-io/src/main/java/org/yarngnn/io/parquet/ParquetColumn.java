package org.yarngnn.io.parquet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ColumnDescriptor;
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

  private ParquetColumn(String name, ColumnDescriptor descriptor, int nullElementLevel, int nullListLevel) {
    this.name = name;
    this.descriptor = descriptor;
    this.type = descriptor.getPrimitiveType().getPrimitiveTypeName();
    this.maxDefinition = descriptor.getMaxDefinitionLevel();
    this.nullElementLevel = nullElementLevel;
    this.nullListLevel = nullListLevel;
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
