package org.yarngnn.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * The read-only ../shared folder (Cora and Citeseer) and a plain parser of its text files for the reference
 * implementation: deliberately not the product's readers.
 */
final class SharedData {
  private SharedData() {}

  static Path dir() {
    String prop = System.getProperty("yarngnn.shared.dir");
    Path p = prop != null ? Paths.get(prop) : Paths.get("..", "..", "shared");
    if (!Files.isDirectory(p.resolve("data/planetoid"))) {
      p = Paths.get("").toAbsolutePath().getParent().getParent().resolve("shared");
    }
    if (!Files.isDirectory(p.resolve("data/planetoid"))) {
      throw new IllegalStateException("../shared/data/planetoid not found (looked at " + p + ")");
    }
    return p.normalize();
  }

  static Path planetoid(String name) {
    return dir().resolve("data/planetoid").resolve(name);
  }

  /** Loads a planetoid folder (edges.tsv, nodes.tsv.gz) as the reference's graph, in-edges ordered by source id. */
  static ContractReference.Graph loadPlanetoid(Path folder, boolean undirected) throws IOException {
    List<Long> ids = new ArrayList<>();
    List<double[]> feats = new ArrayList<>();
    try (InputStream in = new GZIPInputStream(Files.newInputStream(folder.resolve("nodes.tsv.gz")));
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.split("\t");
        ids.add(Long.parseLong(f[0]));
        String[] v = f[f.length - 1].split(",");
        double[] x = new double[v.length];
        for (int i = 0; i < v.length; i++) {
          x[i] = Double.parseDouble(v[i]);
        }
        feats.add(x);
      }
    }
    List<long[]> edges = new ArrayList<>();
    for (String line : Files.readAllLines(folder.resolve("edges.tsv"))) {
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\\s+");
      edges.add(new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])});
    }
    return build(ids.stream().mapToLong(Long::longValue).toArray(), feats.toArray(new double[0][]), edges,
        undirected);
  }

  /** Builds the reference graph: per destination, its in-edges ordered by source id (stable for equal ids). */
  static ContractReference.Graph build(long[] ids, double[][] feats, List<long[]> edges, boolean undirected) {
    ContractReference.Graph g = new ContractReference.Graph(ids, feats);
    Map<Long, Integer> index = new HashMap<>();
    for (int i = 0; i < ids.length; i++) {
      index.put(ids[i], i);
    }
    List<List<long[]>> in = new ArrayList<>();
    for (int i = 0; i < ids.length; i++) {
      in.add(new ArrayList<>());
    }
    for (long[] e : edges) {
      double w = e.length > 2 ? Double.longBitsToDouble(e[2]) : 1.0;
      in.get(index.get(e[1])).add(new long[] {e[0], Double.doubleToLongBits(w)});
      if (undirected && e[0] != e[1]) {
        in.get(index.get(e[0])).add(new long[] {e[1], Double.doubleToLongBits(w)});
      }
    }
    for (int i = 0; i < ids.length; i++) {
      List<long[]> list = in.get(i);
      list.sort((a, b) -> Long.compare(a[0], b[0]));
      int[] src = new int[list.size()];
      double[] w = new double[list.size()];
      for (int e = 0; e < src.length; e++) {
        src[e] = index.get(list.get(e)[0]);
        w[e] = Double.longBitsToDouble(list.get(e)[1]);
      }
      g.inSources.add(src);
      g.inWeights.add(w);
    }
    return g;
  }
}
