package org.yarngnn.app.infer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.app.graphworker.WorkerPartition;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.partition.Ownership;
import org.yarngnn.partition.PartitionBlockBuilder;

/**
 * Where a second ApplicationMaster attempt continues, from the first attempt's checkpoint files on a real (local)
 * FileSystem: the latest layer whose rows every partition wrote whole; a file that is missing, half written,
 * truncated, another layer's or partition's, or a partition whose manifest is missing or whose files differ from it,
 * is never used.
 */
class CheckpointResumeTest {
  static final int WORKERS = 2;
  static final int LAYERS = 3;

  @TempDir
  java.nio.file.Path tmp;
  Configuration conf;
  LayerCheckpoints cp;
  FileSystem fs;

  @BeforeEach
  void setUp() throws IOException {
    conf = new Configuration();
    cp = new LayerCheckpoints(conf, new Path(tmp.resolve("_checkpoints").toUri()));
    fs = cp.dir().getFileSystem(conf);
  }

  /** Partition {@code p} of a 2-node toy graph with 3-wide input rows. */
  private static WorkerPartition partition(int p, int parts) {
    GraphBlock g = new GraphBlock(new long[] {2L * p, 2L * p + 1}, new long[] {7},
        new Csr(2, 3, new int[] {0, 1, 2}, new int[] {1, 2}, null));
    DenseMatrix rows = new DenseMatrix(2, 3);
    for (int i = 0; i < rows.data().length; i++) {
      rows.data()[i] = i + 10 * p;
    }
    return new WorkerPartition(g, PartitionBlockBuilder.indexOf(g.nodeIds()), Ownership.hash(parts), rows, false,
        null, null);
  }

  private void writePartitions() throws IOException {
    for (int p = 0; p < WORKERS; p++) {
      cp.writePartition(p, partition(p, WORKERS));
    }
  }

  private void writeRows(int layer) throws IOException {
    for (int p = 0; p < WORKERS; p++) {
      cp.writeRows(layer, p, new DenseMatrix(2, 4));
    }
  }

  private CheckpointResume find(boolean fromTables) throws IOException {
    return CheckpointResume.find(cp, WORKERS, LAYERS, fromTables);
  }

  /** Cuts {@code f} to {@code keep} bytes in place (as a writer that died before closing would leave it). */
  private void truncate(Path f, long keep) throws IOException {
    byte[] all;
    try (var in = fs.open(f)) {
      all = in.readAllBytes();
    }
    fs.delete(f, false);
    try (OutputStream out = fs.create(f, true)) {
      out.write(all, 0, (int) keep);
    }
  }

  @Test
  void continuesAtTheLayerAfterTheLatestOneEveryPartitionWroteWhole() throws Exception {
    writePartitions();
    assertEquals(0, find(true).layer(), "partitions only: the plan and every layer again");
    writeRows(0);
    assertEquals(1, find(true).layer());
    writeRows(1);
    CheckpointResume r = find(true);
    assertEquals(2, r.layer(), r.reason());
    assertTrue(r.describe(2, LAYERS).contains("continuing at layer 3/3"), r.describe(2, LAYERS));
    // What the resumed workers then read: whole and equal.
    WorkerPartition back = cp.readPartition(1);
    assertEquals(11f, back.rows().data()[1]);
    assertEquals(2, cp.readRows(1, 0, 2, 4).rows());
  }

  @Test
  void aHalfWrittenOrForeignRowsFileIsNotUsed() throws Exception {
    writePartitions();
    writeRows(0);
    writeRows(1);
    truncate(cp.rowsFile(1, 1), RowCheckpoint.length(2, 4) - 5);
    CheckpointResume r = find(true);
    assertEquals(1, r.layer(), "layer 2's rows of partition 1 are truncated: " + r.reason());
    // Another layer's file under layer 1's name (header says layer 0) is not layer 1's either.
    fs.delete(cp.rowsFile(1, 1), false);
    fs.rename(cp.rowsFile(0, 1), cp.rowsFile(1, 1));
    assertEquals(-1, find(false).layer(), "neither layer whole; --graph: start over");
    assertEquals(0, find(true).layer());
    // A write in progress (its temporary file only) is not a checkpoint.
    fs.delete(cp.rowsFile(1, 1), false);
    try (OutputStream out = fs.create(RowCheckpoint.tempFile(cp.rowsFile(0, 1)), true)) {
      out.write(new byte[(int) RowCheckpoint.length(2, 4)]);
    }
    assertEquals(0, find(true).layer());
    assertFalse(find(false).resumes(), find(false).reason());
  }

  @Test
  void aPartitionWithoutItsManifestOrWithFilesOtherThanItSaysIsNotUsed() throws Exception {
    writePartitions();
    writeRows(0);
    Path manifest = new Path(cp.partitionDir(1), LayerCheckpoints.MANIFEST);
    Path aside = new Path(cp.dir(), "aside.json");
    fs.rename(manifest, aside);
    CheckpointResume r = find(true);
    assertFalse(r.resumes(), "files written, manifest not yet: " + r.reason());
    assertTrue(r.describe(2, LAYERS).contains("running the job again"), r.describe(2, LAYERS));
    assertEquals(1, find(false).layer(), "a --graph job needs no partition checkpoint");
    fs.rename(aside, manifest);
    assertEquals(1, find(true).layer());
    for (org.apache.hadoop.fs.FileStatus f : fs.listStatus(cp.partitionDir(1))) {
      String n = f.getPath().getName();
      if (!n.startsWith(".") && !n.equals(LayerCheckpoints.MANIFEST)) {
        truncate(f.getPath(), f.getLen() - 1);
        break;
      }
    }
    assertFalse(find(true).resumes(), "a partition file shorter than its manifest says");
  }

  @Test
  void partitionsOfAnotherWorkerCountOrAGarbledManifestAreNotUsed() throws Exception {
    cp.writePartition(0, partition(0, 3));
    cp.writePartition(1, partition(1, 3));
    writeRows(0);
    assertFalse(find(true).resumes(), find(true).reason());
    writePartitions();
    try (OutputStream out = fs.create(new Path(cp.partitionDir(0), LayerCheckpoints.MANIFEST), true)) {
      out.write("{\"format\": 1, \"partition\": 0, \"ownership\":".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    CheckpointResume r = find(true);
    assertFalse(r.resumes());
    assertTrue(r.reason().contains("partition 0"), r.reason());
  }
}
