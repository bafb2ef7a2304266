package org.yarngnn.io;

/** A column of a table this module writes: its name and one of the few types the contract uses. */
record ColumnSpec(String name, Type type) {
  enum Type { INT64, INT32, FLOAT, STRING, FLOAT_LIST }

  static ColumnSpec int64(String name) {
    return new ColumnSpec(name, Type.INT64);
  }

  static ColumnSpec int32(String name) {
    return new ColumnSpec(name, Type.INT32);
  }

  static ColumnSpec float32(String name) {
    return new ColumnSpec(name, Type.FLOAT);
  }

  static ColumnSpec string(String name) {
    return new ColumnSpec(name, Type.STRING);
  }

  static ColumnSpec floatList(String name) {
    return new ColumnSpec(name, Type.FLOAT_LIST);
  }
}
