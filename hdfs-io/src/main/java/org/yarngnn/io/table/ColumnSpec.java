package org.yarngnn.io.table;

/** A column of a table this module writes: its name and one of the few types the contract uses. */
public record ColumnSpec(String name, Type type) {
  public enum Type { INT64, INT32, FLOAT, STRING, FLOAT_LIST }

  public static ColumnSpec int64(String name) {
    return new ColumnSpec(name, Type.INT64);
  }

  public static ColumnSpec int32(String name) {
    return new ColumnSpec(name, Type.INT32);
  }

  public static ColumnSpec float32(String name) {
    return new ColumnSpec(name, Type.FLOAT);
  }

  public static ColumnSpec string(String name) {
    return new ColumnSpec(name, Type.STRING);
  }

  public static ColumnSpec floatList(String name) {
    return new ColumnSpec(name, Type.FLOAT_LIST);
  }
}
