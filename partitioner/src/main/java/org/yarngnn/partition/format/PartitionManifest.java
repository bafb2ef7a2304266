package org.yarngnn.partition.format;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.yarngnn.compute.json.Json;
import org.yarngnn.partition.Ownership;
import org.yarngnn.partition.PartitionStats;
import org.yarngnn.partition.PartitionedGraphStats;

/**
 * {@code manifest.json} of a partitioned graph: format name and version, P, the ownership function, counts,
 * feature width, whether edges are weighted and nodes labelled, the build statistics, and per partition its
 * counts and each file's size and CRC-32C.
 */
public record PartitionManifest(int parts, Ownership ownership, long nodes, long edges, int featureWidth,
    boolean weighted, boolean hasLabels, boolean hasSplits, PartitionedGraphStats stats,
    List<Map<String, PartitionFiles.Checksum>> checksums) {

  static final String FILE = "manifest.json";
  static final String FORMAT = "yarn-gnn-partitioned-graph";
  static final int VERSION = 1;

  Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("format", FORMAT);
    m.put("version", VERSION);
    m.put("partitions", parts);
    m.put("ownership", ownership.toString());
    m.put("nodes", nodes);
    m.put("edges", edges);
    m.put("feature_width", featureWidth);
    m.put("weighted", weighted);
    m.put("has_labels", hasLabels);
    m.put("has_splits", hasSplits);
    Map<String, Object> s = stats.toJson();
    List<?> perPart = (List<?>) s.remove("partitions");
    m.put("stats", s);
    List<Object> parts = new ArrayList<>();
    for (int p = 0; p < this.parts; p++) {
      @SuppressWarnings("unchecked")
      Map<String, Object> entry = new LinkedHashMap<>((Map<String, Object>) perPart.get(p));
      entry.put("dir", PartitionFiles.dirName(p));
      Map<String, Object> files = new LinkedHashMap<>();
      checksums.get(p).forEach((name, sum) -> files.put(name, sum.toJson()));
      entry.put("files", files);
      parts.add(entry);
    }
    m.put("partition_files", parts);
    return m;
  }

  static PartitionManifest fromJson(Map<?, ?> m, Path where) throws IOException {
    if (!FORMAT.equals(m.get("format"))) {
      throw new IOException(where + ": not a partitioned graph manifest (format " + m.get("format") + ")");
    }
    if (num(m, "version") != VERSION) {
      throw new IOException(where + ": manifest version " + m.get("version") + ", this reader knows " + VERSION);
    }
    int parts = (int) num(m, "partitions");
    Ownership ownership = Ownership.parse((String) m.get("ownership"));
    if (ownership.parts() != parts) {
      throw new IOException(where + ": ownership " + ownership + " does not match " + parts + " partitions");
    }
    List<?> entries = (List<?>) m.get("partition_files");
    if (entries == null || entries.size() != parts) {
      throw new IOException(where + ": expected " + parts + " partition entries");
    }
    List<PartitionStats> stats = new ArrayList<>();
    List<Map<String, PartitionFiles.Checksum>> sums = new ArrayList<>();
    for (int p = 0; p < parts; p++) {
      Map<?, ?> e = (Map<?, ?>) entries.get(p);
      stats.add(new PartitionStats(p, num(e, "nodes"), num(e, "edges"), num(e, "halo_nodes"),
          (int) num(e, "max_in_degree"), num(e, "csr_bytes")));
      Map<String, PartitionFiles.Checksum> files = new LinkedHashMap<>();
      for (Map.Entry<?, ?> f : ((Map<?, ?>) e.get("files")).entrySet()) {
        files.put((String) f.getKey(), PartitionFiles.Checksum.fromJson(f.getValue()));
      }
      for (String name : List.of(PartitionFiles.NODES, PartitionFiles.GRAPH, PartitionFiles.FEATURES)) {
        if (!files.containsKey(name)) {
          throw new IOException(where + ": partition " + p + " lists no " + name);
        }
      }
      sums.add(files);
    }
    Map<?, ?> s = (Map<?, ?>) m.get("stats");
    PartitionedGraphStats st = new PartitionedGraphStats(ownership, stats, dbl(s, "read_seconds"),
        dbl(s, "build_seconds"));
    return new PartitionManifest(parts, ownership, num(m, "nodes"), num(m, "edges"), (int) num(m, "feature_width"),
        Boolean.TRUE.equals(m.get("weighted")), Boolean.TRUE.equals(m.get("has_labels")),
        Boolean.TRUE.equals(m.get("has_splits")), st, sums);
  }

  public void write(FileSystem fs, Path dir) throws IOException {
    try (OutputStream out = fs.create(new Path(dir, FILE), true)) {
      out.write(Json.write(toJson()).getBytes(StandardCharsets.UTF_8));
    }
  }

  static PartitionManifest read(FileSystem fs, Path dir) throws IOException {
    Path file = new Path(dir, FILE);
    if (!fs.exists(file)) {
      throw new IOException(dir + ": no " + FILE + " (not a partitioned graph, or the partition job did not finish)");
    }
    try (InputStream in = fs.open(file)) {
      Object parsed = Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      if (!(parsed instanceof Map)) {
        throw new IOException(file + ": not a JSON object");
      }
      return fromJson((Map<?, ?>) parsed, file);
    } catch (IllegalArgumentException | ClassCastException | NullPointerException e) {
      throw new IOException(file + ": malformed manifest: " + e.getMessage(), e);
    }
  }

  private static long num(Map<?, ?> m, String key) {
    Object v = m.get(key);
    if (!(v instanceof Number)) {
      throw new IllegalArgumentException("field '" + key + "' missing or not a number");
    }
    return ((Number) v).longValue();
  }

  private static double dbl(Map<?, ?> m, String key) {
    Object v = m.get(key);
    return v instanceof Number ? ((Number) v).doubleValue() : 0;
  }
}
