package org.yarngnn.partition.format;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.OutputCommit;
import org.yarngnn.partition.GraphPartition;
import org.yarngnn.partition.GraphStats;
import org.yarngnn.partition.LocalGraph;
import org.yarngnn.partition.Ownership;
import org.yarngnn.partition.PartitionBuilder;
import org.yarngnn.partition.PartitionStats;
import org.yarngnn.partition.PartitionedGraphStats;

/**
 * A graph written by the {@code partition} job (or {@link #write}): {@code manifest.json}, one {@code
 * part-NNNNN/} directory of {@link PartitionFiles} per partition, {@code _SUCCESS}. {@link #open} reads and
 * checks the manifest only; {@link #loadPartition} reads one partition's files (what each worker does), verifying
 * sizes and CRC-32C checksums; {@link #loadLocalGraph} joins all partitions into one graph for a single JVM.
 */
public final class PartitionedGraph {
  private final FileSystem fs;
  private final Path dir;
  private final PartitionManifest manifest;

  private PartitionedGraph(FileSystem fs, Path dir, PartitionManifest manifest) {
    this.fs = fs;
    this.dir = dir;
    this.manifest = manifest;
  }

  /** Opens {@code dir}; a missing or malformed manifest, or a missing {@code _SUCCESS}, is bad input. */
  public static PartitionedGraph open(Configuration conf, Path dir) {
    try {
      FileSystem fs = dir.getFileSystem(conf);
      if (!fs.exists(dir)) {
        throw new InputException(dir + ": no such partitioned graph directory");
      }
      PartitionManifest m = PartitionManifest.read(fs, dir);
      if (!fs.exists(new Path(dir, OutputCommit.SUCCESS))) {
        throw new InputException(dir + ": no " + OutputCommit.SUCCESS + " (the partition job did not finish)");
      }
      return new PartitionedGraph(fs, dir, m);
    } catch (IOException e) {
      throw new InputException(e.getMessage(), e);
    }
  }

  /** Writes in-memory partitions as a partitioned graph at {@code dir} (atomically, like the job's output). */
  public static void write(Configuration conf, Path dir, PartitionBuilder.Result result, boolean overwrite) {
    OutputCommit commit = OutputCommit.begin(conf, dir, overwrite);
    try {
      FileSystem fs = commit.workDir().getFileSystem(conf);
      List<Map<String, PartitionFiles.Checksum>> sums = new ArrayList<>();
      for (GraphPartition p : result.partitions()) {
        sums.add(PartitionFiles.write(fs, new Path(commit.workDir(), PartitionFiles.dirName(p.index())),
            p.block(), p.features(), p.labels(), p.splits()));
      }
      GraphPartition first = result.partitions().get(0);
      new PartitionManifest(result.partitions().size(), result.stats().ownership(), result.stats().nodes(),
          result.stats().edges(), first.features().cols(), first.block().inEdges().weighted(),
          first.labels() != null, first.splits() != null, result.stats(), sums).write(fs, commit.workDir());
      commit.commit();
    } catch (IOException | RuntimeException e) {
      commit.abort();
      throw e instanceof IOException ? new UncheckedIOException((IOException) e) : (RuntimeException) e;
    }
  }

  public Path dir() {
    return dir;
  }

  public int parts() {
    return manifest.parts();
  }

  public Ownership ownership() {
    return manifest.ownership();
  }

  public int featureWidth() {
    return manifest.featureWidth();
  }

  public long nodes() {
    return manifest.nodes();
  }

  public long edges() {
    return manifest.edges();
  }

  public boolean weighted() {
    return manifest.weighted();
  }

  /** The statistics recorded when the graph was partitioned. */
  public PartitionedGraphStats stats() {
    return manifest.stats();
  }

  /** Partition {@code p}'s nodes, in-edges with halo, features, labels and splits. */
  public GraphPartition loadPartition(int p) {
    if (p < 0 || p >= parts()) {
      throw new IllegalArgumentException("partition " + p + " outside 0.." + (parts() - 1));
    }
    try {
      GraphPartition g = PartitionFiles.read(fs, new Path(dir, PartitionFiles.dirName(p)), p, ownership(),
          manifest.checksums().get(p), featureWidth());
      PartitionStats expected = manifest.stats().partitions().get(p);
      if (g.stats().nodes() != expected.nodes() || g.stats().edges() != expected.edges()
          || g.stats().haloNodes() != expected.haloNodes()) {
        throw new IOException(dir + ": partition " + p + " holds " + g.stats() + ", manifest says " + expected);
      }
      return g;
    } catch (IOException e) {
      throw new InputException(e.getMessage(), e);
    }
  }

  /**
   * All partitions as one graph (no halo): nodes partition by partition, each in ascending id order; sources in
   * every row still ordered by id.
   */
  public LocalGraph loadLocalGraph() {
    long t0 = System.nanoTime();
    List<GraphPartition> parts = new ArrayList<>();
    for (int p = 0; p < parts(); p++) {
      parts.add(loadPartition(p));
    }
    long t1 = System.nanoTime();
    LocalGraph g = join(parts, (t1 - t0) / 1e9);
    return g;
  }

  /** Joins partitions (each holding its nodes in ascending id order) into one graph. */
  static LocalGraph join(List<GraphPartition> parts, double readSeconds) {
    long t0 = System.nanoTime();
    int numParts = parts.size();
    int[] offset = new int[numParts + 1];
    long edges = 0;
    for (int p = 0; p < numParts; p++) {
      offset[p + 1] = Math.addExact(offset[p], parts.get(p).block().numNodes());
      edges += parts.get(p).block().inEdges().numEdges();
    }
    int n = offset[numParts];
    if (edges > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException(edges + " edges do not fit one in-memory graph; load partitions instead");
    }
    Ownership own = parts.get(0).ownership();
    int width = parts.get(0).features().cols();
    boolean weighted = parts.get(0).block().inEdges().weighted();
    long[] ids = new long[n];
    int[] rowPtr = new int[n + 1];
    int[] col = new int[(int) edges];
    float[] w = weighted ? new float[(int) edges] : null;
    DenseMatrix features = new DenseMatrix(n, width);
    int[] labels = parts.get(0).labels() == null ? null : new int[n];
    byte[] splits = parts.get(0).splits() == null ? null : new byte[n];
    int e = 0;
    for (int p = 0; p < numParts; p++) {
      GraphPartition gp = parts.get(p);
      GraphBlock b = gp.block();
      int np = b.numNodes();
      int[] slotToGlobal = new int[b.numSlots()];
      for (int i = 0; i < np; i++) {
        slotToGlobal[i] = offset[p] + i;
      }
      long[] halo = b.haloIds();
      for (int j = 0; j < halo.length; j++) {
        int q = own.owner(halo[j]);
        int local = q < numParts ? Arrays.binarySearch(parts.get(q).block().nodeIds(), halo[j]) : -1;
        if (q == p || local < 0) {
          throw new InputException("partition " + p + " needs node " + halo[j] + ", which partition " + q
              + " does not hold");
        }
        slotToGlobal[np + j] = offset[q] + local;
      }
      System.arraycopy(b.nodeIds(), 0, ids, offset[p], np);
      Csr c = b.inEdges();
      int m = (int) c.numEdges();
      for (int i = 0; i < np; i++) {
        rowPtr[offset[p] + i + 1] = e + c.rowPtr()[i + 1];
      }
      for (int k = 0; k < m; k++) {
        col[e + k] = slotToGlobal[c.colIdx()[k]];
      }
      if (w != null) {
        System.arraycopy(c.weights(), 0, w, e, m);
      }
      e += m;
      System.arraycopy(gp.features().data(), 0, features.data(), offset[p] * width, np * width);
      if (labels != null) {
        System.arraycopy(gp.labels(), 0, labels, offset[p], np);
      }
      if (splits != null) {
        System.arraycopy(gp.splits(), 0, splits, offset[p], np);
      }
    }
    Csr csr = new Csr(n, n, rowPtr, col, w);
    int maxDeg = 0;
    boolean[] hasOut = new boolean[n];
    for (int c : col) {
      hasOut[c] = true;
    }
    long isolated = 0;
    for (int r = 0; r < n; r++) {
      maxDeg = Math.max(maxDeg, csr.degree(r));
      if (csr.degree(r) == 0 && !hasOut[r]) {
        isolated++;
      }
    }
    GraphStats stats = new GraphStats(n, edges, isolated, maxDeg, csr.sizeInBytes(), readSeconds,
        (System.nanoTime() - t0) / 1e9);
    return new LocalGraph(new GraphBlock(ids, new long[0], csr), features, labels, splits, stats);
  }
}
