package org.yarngnn.io.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Id tables: the id column of Parquet and ORC files (a nodes table included), the first field of text lines. */
class IdTableTest {
  @TempDir
  java.nio.file.Path dir;

  private static List<String> read(IdTable t) {
    List<String> out = new ArrayList<>();
    t.read((id, file, row) -> out.add(id + "@" + file + ":" + row));
    return out;
  }

  private static final TableReadOptions OPTS = TableReadOptions.builder().build();

  @Test
  void readsEveryFormatInTableOrder() {
    long[] ids = {7, -3, 7, Long.MAX_VALUE};
    for (TableFormat f : TableFormat.values()) {
      Path p = TempTables.path(dir, f.name() + "/ids." + f.extension());
      IdTable.write(TempTables.CONF, p, f, ids);
      List<String> got = read(IdTable.open(TempTables.CONF, p.getParent().toString(), OPTS, "targets"));
      // Text rows are line numbers (a header line "id" comes first); Parquet and ORC rows count from 1.
      int first = f.isText() ? 2 : 1;
      assertEquals(List.of("7@0:" + first, "-3@0:" + (first + 1), "7@0:" + (first + 2),
          Long.MAX_VALUE + "@0:" + (first + 3)), got, f.name());
    }
  }

  @Test
  void aNodesTableIsAnIdTable() {
    Path p = TempTables.path(dir, "nodes.parquet");
    try (NodeTableWriter w = NodeTableWriter.create(TempTables.CONF, p, TableFormat.PARQUET, 2, true)) {
      w.write(11, new float[] {1, 2}, 0, 1, NodeSplit.TRAIN);
      w.write(12, new float[] {3, 4}, 0, -1, NodeSplit.NONE);
    }
    assertEquals(List.of("11@0:1", "12@0:2"), read(IdTable.open(TempTables.CONF, p.toString(), OPTS, "targets")));
    Path t = TempTables.text(dir, "nodes.tsv", "# a comment\n5\t1,2\n\n6\t3,4\n");
    assertEquals(List.of("5@0:2", "6@0:4"), read(IdTable.open(TempTables.CONF, t.toString(), OPTS, "targets")));
  }

  @Test
  void refusesEmptyTablesAndBadIds() {
    Path empty = TempTables.text(dir, "empty/ids.txt", "# nothing\n\n");
    InputException e = assertThrows(InputException.class,
        () -> IdTable.open(TempTables.CONF, empty.getParent().toString(), OPTS, "targets"));
    assertTrue(e.getMessage().endsWith("targets table has no rows"), e.getMessage());
    Path emptyParquet = TempTables.path(dir, "e.parquet");
    IdTable.write(TempTables.CONF, emptyParquet, TableFormat.PARQUET, new long[0]);
    assertThrows(InputException.class, () -> IdTable.open(TempTables.CONF, emptyParquet.toString(), OPTS, "targets"));
    Path bad = TempTables.text(dir, "bad.txt", "1\nx2\n");
    IdTable t = IdTable.open(TempTables.CONF, bad.toString(), OPTS, "targets");
    e = assertThrows(InputException.class, () -> read(t));
    assertEquals(bad + ":2: non-numeric id 'x2'", e.getMessage());
    Path wrong = TempTables.path(dir, "edges.parquet");
    try (EdgeTableWriter w = EdgeTableWriter.create(TempTables.CONF, wrong, TableFormat.PARQUET, false)) {
      w.write(1, 2, 1f);
    }
    e = assertThrows(InputException.class, () -> IdTable.open(TempTables.CONF, wrong.toString(), OPTS, "targets"));
    assertTrue(e.getMessage().contains("id"), e.getMessage());
  }
}
