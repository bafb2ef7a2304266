package org.yarngnn.app.infer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.graphworker.WorkerPartition;
import org.yarngnn.compute.json.Json;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.partition.GraphPartition;
import org.yarngnn.partition.Ownership;
import org.yarngnn.partition.PartitionBlockBuilder;
import org.yarngnn.partition.format.PartitionFiles;

/**
 * The checkpoints of one inference job ({@code --checkpoint layers}), under the job's staging directory, never
 * beside the output: what a replacement graph worker needs to resume where the job is.
 * <ul>
 *   <li>{@code partition-NNNNN/}: partition NNNNN as construction built it from the tables (the partition job's
 *       block files, see {@link PartitionFiles}, holding the first layer's input rows: with fusion already its
 *       linear products) and {@code partition.json} (ownership, width, fused, each file's size and CRC-32C),
 *       written last; not written for {@code --graph}, whose files a replacement reads again;</li>
 *   <li>{@code layer-K/part-NNNNN.rows}: partition NNNNN's output of layer K ({@link RowCheckpoint}).</li>
 * </ul>
 * The ApplicationMaster deletes the directory when the job ends, in any state (and the client removes the whole
 * staging directory after).
 */
final class LayerCheckpoints {
  static final String MANIFEST = "partition.json";
  /** A partition manifest is a few hundred bytes; a larger file is not one. */
  static final int MAX_MANIFEST_BYTES = 1 << 16;

  private final Configuration conf;
  private final Path dir;

  public LayerCheckpoints(Configuration conf, Path dir) {
    this.conf = conf;
    this.dir = dir;
  }

  public Path dir() {
    return dir;
  }

  /** Where partition {@code p}'s output of layer {@code layer} goes. */
  Path rowsFile(int layer, int p) {
    return new Path(new Path(dir, "layer-" + layer), String.format(Locale.ROOT, "part-%05d.rows", p));
  }

  Path partitionDir(int p) {
    return new Path(dir, String.format(Locale.ROOT, "partition-%05d", p));
  }

  public void writeRows(int layer, int p, DenseMatrix rows) throws IOException {
    RowCheckpoint.write(conf, rowsFile(layer, p), layer, p, rows);
  }

  public DenseMatrix readRows(int layer, int p, int rows, int width) throws IOException {
    return RowCheckpoint.read(conf, rowsFile(layer, p), layer, p, rows, width);
  }

  /** Writes partition {@code p} as built from the tables; its manifest last, so a present manifest means whole. */
  public void writePartition(int p, WorkerPartition part) throws IOException {
    Path pd = partitionDir(p);
    FileSystem fs = pd.getFileSystem(conf);
    // An older manifest goes first: while the files are rewritten, none may vouch for them.
    fs.delete(new Path(pd, MANIFEST), false);
    Map<String, PartitionFiles.Checksum> sums = PartitionFiles.write(fs, pd, part.graph(), part.rows(), null, null);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("format", 1);
    m.put("partition", p);
    m.put("ownership", part.ownership().toString());
    m.put("width", part.rows().cols());
    m.put("fused", part.fused());
    Map<String, Object> files = new LinkedHashMap<>();
    sums.forEach((name, s) -> files.put(name, s.toJson()));
    m.put("files", files);
    Path tmp = RowCheckpoint.tempFile(new Path(pd, MANIFEST));
    try (OutputStream out = fs.create(tmp, true)) {
      out.write(Json.write(m).getBytes(StandardCharsets.UTF_8));
    }
    Path manifest = new Path(pd, MANIFEST);
    fs.delete(manifest, false);
    if (!fs.rename(tmp, manifest)) {
      throw new IOException("could not rename " + tmp + " to " + manifest);
    }
  }

  /** Reads partition {@code p} back, its files checked against its manifest (sizes, CRC-32C, CSR bounds). */
  public WorkerPartition readPartition(int p) throws IOException {
    Path pd = partitionDir(p);
    FileSystem fs = pd.getFileSystem(conf);
    Manifest m = readManifest(p);
    GraphPartition g;
    try {
      g = PartitionFiles.read(fs, pd, p, m.ownership(), m.files(), m.width());
    } catch (RuntimeException e) {
      // E.g. a manifest naming other files than the three a partition has.
      throw new IOException(pd + ": unreadable partition checkpoint: " + e, e);
    }
    return new WorkerPartition(g.block(), PartitionBlockBuilder.indexOf(g.block().nodeIds()), m.ownership(),
        g.features(), m.fused(), null, null);
  }

  /** A partition checkpoint's manifest: the ownership it was built under, its width, and its files. */
  record Manifest(Ownership ownership, int width, boolean fused, Map<String, PartitionFiles.Checksum> files) {}

  /** Partition {@code p}'s manifest, checked for form; an {@link IOException} naming it otherwise. */
  Manifest readManifest(int p) throws IOException {
    Path manifest = new Path(partitionDir(p), MANIFEST);
    FileSystem fs = manifest.getFileSystem(conf);
    long len = fs.getFileStatus(manifest).getLen();
    if (len > MAX_MANIFEST_BYTES) {
      throw new IOException(manifest + ": " + len + " bytes, more than a partition checkpoint's manifest");
    }
    byte[] bytes;
    try (InputStream in = fs.open(manifest)) {
      bytes = in.readNBytes((int) len);
    }
    Ownership own;
    int width;
    boolean fused;
    Map<String, PartitionFiles.Checksum> sums = new LinkedHashMap<>();
    try {
      Map<?, ?> m = (Map<?, ?>) Json.parse(new String(bytes, StandardCharsets.UTF_8));
      if (((Number) m.get("format")).intValue() != 1 || ((Number) m.get("partition")).intValue() != p) {
        throw new IOException(manifest + ": not the manifest of partition " + p);
      }
      own = Ownership.parse((String) m.get("ownership"));
      width = ((Number) m.get("width")).intValue();
      fused = (Boolean) m.get("fused");
      for (Map.Entry<?, ?> e : ((Map<?, ?>) m.get("files")).entrySet()) {
        sums.put((String) e.getKey(), PartitionFiles.Checksum.fromJson(e.getValue()));
      }
    } catch (RuntimeException e) {
      throw new IOException(manifest + ": malformed partition checkpoint manifest: " + e.getMessage(), e);
    }
    if (width < 0 || own.parts() <= p) {
      throw new IOException(manifest + ": width " + width + ", " + own);
    }
    return new Manifest(own, width, fused, sums);
  }

  /**
   * Why partition {@code p}'s checkpoint is not a whole one of a job of {@code workers} partitions (no manifest, a
   * malformed one, another partition count, a file missing or of another size than the manifest says), or null
   * when it is. The checksums are checked by {@link #readPartition} when it is used.
   */
  public String partitionProblem(int p, int workers) throws IOException {
    Path pd = partitionDir(p);
    FileSystem fs = pd.getFileSystem(conf);
    if (!fs.exists(new Path(pd, MANIFEST))) {
      return pd + ": no " + MANIFEST;
    }
    Manifest m;
    try {
      m = readManifest(p);
    } catch (IOException e) {
      return e.getMessage();
    }
    if (m.ownership().parts() != workers) {
      return pd + ": a partition of " + m.ownership().parts() + " parts, not " + workers;
    }
    for (Map.Entry<String, PartitionFiles.Checksum> f : m.files().entrySet()) {
      Path file = new Path(pd, f.getKey());
      if (!fs.exists(file) || fs.getFileStatus(file).getLen() != f.getValue().bytes()) {
        return file + ": missing or not the " + f.getValue().bytes() + " bytes its manifest says";
      }
    }
    return null;
  }

  /** Why partition {@code p}'s rows of layer {@code layer} are not a whole checkpoint, or null when they are. */
  public String rowsProblem(int layer, int p) throws IOException {
    return RowCheckpoint.problem(conf, rowsFile(layer, p), layer, p);
  }

  /** Deletes every checkpoint of the job; a failure is a warning (the client removes staging after). */
  public void deleteQuietly(java.io.PrintStream log) {
    try {
      dir.getFileSystem(conf).delete(dir, true);
    } catch (IOException e) {
      log.println("yarn-gnn: could not delete the checkpoints " + dir + ": " + e.getMessage());
    }
  }
}
