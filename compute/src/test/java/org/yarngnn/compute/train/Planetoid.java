package org.yarngnn.compute.train;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.SparseTestGraphs;
import org.yarngnn.compute.kernel.SparseTestGraphs.Edge;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * The read-only ../shared/data/planetoid folders (Cora, Citeseer; format in their README.md), parsed plainly
 * with java.util.zip: located as the e2e tests' SharedData does (the {@code yarngnn.shared.dir} property the
 * parent pom sets, else {@code ../../shared} from the module directory).
 */
record Planetoid(GraphBlock graph, DenseMatrix features, int[] labels, boolean[] train, boolean[] val,
    boolean[] test, int classes) {

  static Path dir() {
    String prop = System.getProperty("yarngnn.shared.dir");
    Path p = prop != null ? Paths.get(prop) : Paths.get("..", "..", "shared");
    if (!Files.isDirectory(p.resolve("data/planetoid"))) {
      p = Paths.get("").toAbsolutePath().getParent().getParent().resolve("shared");
    }
    if (!Files.isDirectory(p.resolve("data/planetoid"))) {
      throw new IllegalStateException("../shared/data/planetoid not found (looked at " + p + ")");
    }
    return p.resolve("data/planetoid").normalize();
  }

  static Planetoid load(String name) throws IOException {
    Path folder = dir().resolve(name);
    List<float[]> feats = new ArrayList<>();
    List<Integer> labels = new ArrayList<>();
    List<String> splits = new ArrayList<>();
    try (InputStream in = new GZIPInputStream(Files.newInputStream(folder.resolve("nodes.tsv.gz")));
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.split("\t");
        if (Integer.parseInt(f[0]) != feats.size()) {
          throw new IllegalStateException("ids are expected to be 0..n-1 in order");
        }
        labels.add(Integer.parseInt(f[1]));
        splits.add(f[2]);
        String[] v = f[3].split(",");
        float[] x = new float[v.length];
        for (int i = 0; i < v.length; i++) {
          x[i] = Float.parseFloat(v[i]);
        }
        feats.add(x);
      }
    }
    int n = feats.size();
    int width = feats.get(0).length;
    DenseMatrix x = new DenseMatrix(n, width);
    int[] y = new int[n];
    boolean[] tr = new boolean[n];
    boolean[] va = new boolean[n];
    boolean[] te = new boolean[n];
    int classes = 0;
    for (int i = 0; i < n; i++) {
      System.arraycopy(feats.get(i), 0, x.data(), x.offset(i), width);
      y[i] = labels.get(i);
      classes = Math.max(classes, y[i] + 1);
      tr[i] = splits.get(i).equals("train");
      va[i] = splits.get(i).equals("val");
      te[i] = splits.get(i).equals("test");
    }
    List<Edge> edges = new ArrayList<>();
    for (String line : Files.readAllLines(folder.resolve("edges.tsv"))) {
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\\s+");
      edges.add(new Edge(Integer.parseInt(f[0]), Integer.parseInt(f[1]), 1f));
    }
    long[] ids = new long[n];
    for (int i = 0; i < n; i++) {
      ids[i] = i;
    }
    GraphBlock g = SparseTestGraphs.build(ids, new long[0], edges, false);
    return new Planetoid(g, x, y, tr, va, te, classes);
  }
}
