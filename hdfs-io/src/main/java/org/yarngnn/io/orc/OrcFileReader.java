package org.yarngnn.io.orc;

import java.io.Closeable;
import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;
import org.apache.orc.TypeDescription.Category;
import org.yarngnn.io.table.InputException;

/** One ORC file read in {@link VectorizedRowBatch}es of the requested top-level columns. */
final class OrcFileReader implements Closeable {
  static final EnumSet<Category> INTEGERS = EnumSet.of(Category.LONG, Category.INT, Category.SHORT, Category.BYTE);
  static final EnumSet<Category> FLOATS = EnumSet.of(Category.FLOAT, Category.DOUBLE);
  static final EnumSet<Category> STRINGS = EnumSet.of(Category.STRING, Category.VARCHAR, Category.CHAR);
  private static final int BATCH_ROWS = 4096;

  private final Path path;
  private final Reader reader;
  private final TypeDescription schema;
  private RecordReader rows;
  private VectorizedRowBatch batch;

  private OrcFileReader(Path path, Reader reader) {
    this.path = path;
    this.reader = reader;
    this.schema = reader.getSchema();
    if (schema.getCategory() != Category.STRUCT) {
      throw InputException.in(path, "ORC schema is " + schema + ", expected a struct of columns");
    }
  }

  static OrcFileReader open(Configuration conf, Path path) {
    try {
      return new OrcFileReader(path, OrcFile.createReader(path, OrcFile.readerOptions(conf)));
    } catch (IOException | RuntimeException e) {
      if (e instanceof InputException) {
        throw (InputException) e;
      }
      throw InputException.in(path, "not a readable ORC file (" + e.getMessage() + ")");
    }
  }

  long rowCount() {
    return reader.getNumberOfRows();
  }

  /**
   * The index of top-level column {@code name} after checking its type (for lists, the element type);
   * -1 when absent and optional.
   */
  int column(String name, boolean required, String expected, EnumSet<Category> allowed, boolean list) {
    List<String> names = schema.getFieldNames();
    int index = names.indexOf(name);
    if (index < 0) {
      if (required) {
        throw InputException.in(path, "missing column '" + name + "' (columns: " + String.join(", ", names) + ")");
      }
      return -1;
    }
    TypeDescription t = schema.getChildren().get(index);
    TypeDescription leaf = t;
    if (list) {
      leaf = t.getCategory() == Category.LIST ? t.getChildren().get(0) : null;
    }
    if (leaf == null || !allowed.contains(leaf.getCategory())) {
      throw InputException.in(path, "column '" + name + "' has type " + t + ", expected " + expected);
    }
    return index;
  }

  /** What {@link #integerColumn} accepts, for messages. */
  static final String INTEGER_TYPES = "an integer (tinyint, smallint, int, bigint, or decimal(p,0) with p <= 18)";

  /**
   * The index of top-level integer column {@code name}: tinyint, smallint, int, bigint, or a decimal of scale 0
   * and at most 18 digits (read as long). Refused, naming the file and column: decimals with a scale or wider,
   * date, timestamp, float, double, strings and everything else. -1 when absent and optional.
   */
  int integerColumn(String name, boolean required) {
    List<String> names = schema.getFieldNames();
    int index = names.indexOf(name);
    if (index < 0) {
      return column(name, required, INTEGER_TYPES, INTEGERS, false);
    }
    TypeDescription t = schema.getChildren().get(index);
    if (t.getCategory() == Category.DECIMAL) {
      if (t.getScale() != 0) {
        throw InputException.in(path, "column '" + name + "' has type " + t + ", expected " + INTEGER_TYPES
            + "; a decimal with scale " + t.getScale() + " is not an integer");
      }
      if (t.getPrecision() > 18) {
        throw InputException.in(path, "column '" + name + "' has type " + t + ", which is not supported (at most 18 "
            + "digits; store ids as bigint)");
      }
      return index;
    }
    return column(name, required, INTEGER_TYPES, INTEGERS, false);
  }

  /** Value {@code row} of an integer column's vector (see {@link #integerColumn}); the entry must not be null. */
  static long longValue(ColumnVector v, int row) {
    int i = v.isRepeating ? 0 : row;
    if (v instanceof LongColumnVector) {
      return ((LongColumnVector) v).vector[i];
    }
    return ((DecimalColumnVector) v).vector[i].longValue();
  }

  /** A message when {@code d} is finite but outside float range, else null. */
  static String outOfFloatRange(String what, double d) {
    return Double.isFinite(d) && Math.abs(d) > Float.MAX_VALUE
        ? what + " " + d + " is outside float range (beyond +-" + Float.MAX_VALUE + ")" : null;
  }

  /** Starts reading only these top-level columns (negative indexes skipped). */
  void project(int... columns) {
    boolean[] include = new boolean[schema.getMaximumId() + 1];
    include[0] = true;
    for (int c : columns) {
      if (c >= 0) {
        TypeDescription t = schema.getChildren().get(c);
        for (int id = t.getId(); id <= t.getMaximumId(); id++) {
          include[id] = true;
        }
      }
    }
    try {
      rows = reader.rows(reader.options().include(include));
    } catch (IOException e) {
      throw InputException.wrap(path, "reading", e);
    }
    batch = schema.createRowBatch(BATCH_ROWS);
  }

  /** Reads the next batch; false at end of file. */
  boolean nextBatch() {
    try {
      return rows.nextBatch(batch);
    } catch (IOException e) {
      throw InputException.wrap(path, "reading", e);
    }
  }

  VectorizedRowBatch batch() {
    return batch;
  }

  ColumnVector vector(int column) {
    return column < 0 ? null : batch.cols[column];
  }

  static boolean isNull(ColumnVector v, int row) {
    return !v.noNulls && v.isNull[v.isRepeating ? 0 : row];
  }

  @Override
  public void close() {
    try {
      if (rows != null) {
        rows.close();
      }
      reader.close();
    } catch (IOException e) {
      throw InputException.wrap(path, "closing", e);
    }
  }
}
