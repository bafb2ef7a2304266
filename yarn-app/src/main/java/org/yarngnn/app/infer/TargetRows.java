package org.yarngnn.app.infer;

import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.graphworker.TargetPlan;
import org.yarngnn.app.graphworker.WorkerPartition;
import org.yarngnn.io.table.IdTable;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.partition.InputFinding;

/**
 * One worker's share of {@code --targets}: the table is read whole by every worker, in table order, and each keeps
 * the ids it owns as rows of its partition (a duplicate id is one row). An owned id without a row is an unknown
 * target: the worker keeps the first it meets, in table order, as a finding the workers compare
 * ({@link TargetPlan#build}), so the job names the first unknown id of the whole table. Reading the table on every
 * worker costs one pass over a table that is small next to the nodes table, and spares a routing round.
 */
record TargetRows(int[] rows, InputFinding unknown) {
  static TargetRows read(Configuration conf, InferOptions spec, WorkerPartition part, int self) {
    IdTable table = IdTable.open(conf, spec.get(InferOptions.TARGETS), TableReadOptions.builder()
        .format(spec.get(InferOptions.TARGETS_FORMAT)).build(),
        "targets");
    int n = part.graph().numNodes();
    boolean[] mine = new boolean[n];
    int[] count = new int[1];
    InputFinding[] unknown = new InputFinding[1];
    table.read((id, file, row) -> {
      if (unknown[0] != null || part.ownership().owner(id) != self) {
        return;
      }
      int r = part.index().get(id);
      if (r < 0) {
        unknown[0] = new InputFinding(TargetPlan.TARGETS_TABLE, file, row, 0, InputException.at(table.files().get(file),
            row,
            "target id " + id + " is not a node of the graph (--targets " + spec.get(InferOptions.TARGETS) + ")")
            .getMessage(), true);
      } else if (!mine[r]) {
        mine[r] = true;
        count[0]++;
      }
    });
    int[] rows = new int[count[0]];
    for (int r = 0, w = 0; r < n; r++) {
      if (mine[r]) {
        rows[w++] = r;
      }
    }
    return new TargetRows(rows, unknown[0]);
  }
}
