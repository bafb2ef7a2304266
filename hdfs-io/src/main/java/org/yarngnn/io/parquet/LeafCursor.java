package org.yarngnn.io.parquet;

import org.apache.parquet.io.api.Binary;

/**
 * Walks the entries (levels and values) of one Parquet leaf column in a row group. Integer values widen to long
 * and floating-point values narrow to float, so readers need one code path per column kind.
 */
interface LeafCursor {
  /** True while entries remain in the row group. */
  boolean hasNext();

  int repetitionLevel();

  int definitionLevel();

  /** The current value of an INT32/INT64 column (valid when the entry is defined). */
  long getLong();

  /** The current value of a FLOAT/DOUBLE column (valid when the entry is defined). */
  float getFloat();

  /** The current value of a BINARY column (valid when the entry is defined). */
  Binary getBinary();

  /** Moves to the next entry. */
  void consume();
}
