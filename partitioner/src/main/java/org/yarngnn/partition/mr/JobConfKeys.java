package org.yarngnn.partition.mr;

import org.apache.hadoop.conf.Configuration;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.TableFormat;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.partition.RecordRouter;

/** Configuration keys the partition job's driver sets for its tasks, and table read options through them. */
final class JobConfKeys {
  static final String PREFIX = "yarngnn.partition.";
  static final String EDGES = PREFIX + "edges";
  static final String NODES = PREFIX + "nodes";
  static final String WORK = PREFIX + "work";
  static final String OWNERSHIP = PREFIX + "ownership.function";
  static final String UNDIRECTED = PREFIX + "undirected";
  static final String MISSING = PREFIX + "missing-features";
  static final String WIDTH = PREFIX + "feature-width";
  static final String WEIGHTED = PREFIX + "weighted";
  static final String LABELS = PREFIX + "has-labels";
  static final String SPLITS = PREFIX + "has-splits";
  /** Entries per shuffled edge or reference block at most (tuning; default {@link RecordRouter#MAX_BLOCK_ROWS}). */
  static final String BLOCK_ROWS = PREFIX + "block-rows";
  /** A map task's buffer for its blocks of all owners together (tuning; default 64 MiB). */
  static final String BLOCK_BUFFER_BYTES = PREFIX + "block-buffer-bytes";

  private JobConfKeys() {}

  /**
   * The tuning keys a user may set checked by the driver before the job starts, so that a bad value is refused
   * naming its key instead of failing every map task ("failed: NA").
   */
  static void checkTuning(Configuration conf) {
    blockRows(conf);
    blockBufferBytes(conf);
  }

  static int blockRows(Configuration conf) {
    return (int) positive(conf, BLOCK_ROWS, RecordRouter.MAX_BLOCK_ROWS, Integer.MAX_VALUE);
  }

  static long blockBufferBytes(Configuration conf) {
    return positive(conf, BLOCK_BUFFER_BYTES, RecordRouter.DEFAULT_BUFFER_BYTES, Long.MAX_VALUE);
  }

  private static long positive(Configuration conf, String key, long dflt, long max) {
    String v = conf.getTrimmed(key);
    if (v == null) {
      return dflt;
    }
    try {
      long n = Long.parseLong(v.replace("_", ""));
      if (n >= 1 && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new InputException("-D " + key + " must be a whole number from 1 to " + max + ", not '" + v + "'");
  }

  static void setReadOptions(Configuration conf, String table, TableReadOptions o) {
    String p = PREFIX + table + ".";
    if (o.format() != null) {
      conf.set(p + "format", o.format().name());
    } else {
      conf.unset(p + "format"); // the tasks read the table as the driver opened it, whatever a -D said
    }
    conf.set(p + "src", o.srcColumn());
    conf.set(p + "dst", o.dstColumn());
    conf.set(p + "weight", o.weightColumn());
    conf.set(p + "id", o.idColumn());
    conf.set(p + "features", o.featuresColumn());
    conf.set(p + "label", o.labelColumn());
    conf.set(p + "split", o.splitColumn());
    conf.setBoolean(p + "allow-non-finite", o.allowNonFinite());
  }

  static TableReadOptions readOptions(Configuration conf, String table) {
    String p = PREFIX + table + ".";
    TableReadOptions d = TableReadOptions.defaults();
    String format = conf.get(p + "format");
    return TableReadOptions.builder()
        .format(format == null ? null : TableFormat.valueOf(format))
        .srcColumn(conf.get(p + "src", d.srcColumn()))
        .dstColumn(conf.get(p + "dst", d.dstColumn()))
        .weightColumn(conf.get(p + "weight", d.weightColumn()))
        .idColumn(conf.get(p + "id", d.idColumn()))
        .featuresColumn(conf.get(p + "features", d.featuresColumn()))
        .labelColumn(conf.get(p + "label", d.labelColumn()))
        .splitColumn(conf.get(p + "split", d.splitColumn()))
        .allowNonFinite(conf.getBoolean(p + "allow-non-finite", false))
        .build();
  }
}
