// scripts/demo's report, run as a single-file program (java -cp JAR:HADOOP_CLASSPATH scripts/demo-report.java
// NODES_TABLE EMBEDDINGS_TABLE [ROWS]): reads the nodes table's label and split columns and the output's
// prediction column with parquet-mr's example Group reader (on the jar's classpath), joins them by id, prints
// the accuracy per split and the first ROWS (default 5) embedding rows. Paths are Hadoop paths (file://, hdfs://).
// With --link (java -cp ... scripts/demo-report.java --link PAIRS_DIR EMBEDDINGS_TABLE METRICS_JSON), scripts/demo-link's
// report: the test AUC and AP computed from `infer`'s written embeddings, each test edge (PAIRS_DIR/test) scored
// z_src . z_dst against its negative (PAIRS_DIR/test-negatives, row for row, part files in name order), printed
// beside metrics.json's best test_auc / test_ap (AUC counts ties one half, AP is scikit-learn's
// average_precision_score).
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;

public class DemoReport {
  interface Row { void accept(Group g); }

  static void read(Configuration conf, String table, Row row) throws Exception {
    Path dir = new Path(table);
    FileSystem fs = dir.getFileSystem(conf);
    FileStatus[] files = fs.listStatus(dir);
    Arrays.sort(files); // part files in name order: the pairs tables of --link match row for row
    for (FileStatus f : files) {
      String name = f.getPath().getName();
      if (name.startsWith("_") || name.startsWith(".") || !name.endsWith(".parquet")) {
        continue;
      }
      try (ParquetReader<Group> r = ParquetReader.builder(new GroupReadSupport(), f.getPath()).withConf(conf).build()) {
        for (Group g = r.read(); g != null; g = r.read()) {
          row.accept(g);
        }
      }
    }
  }

  static long num(Group g, String field) {
    return Long.parseLong(g.getValueToString(g.getType().getFieldIndex(field), 0));
  }

  static double[] scores(Configuration conf, String table, Map<Long, float[]> z) throws Exception {
    List<Double> s = new ArrayList<>();
    read(conf, table, g -> {
      float[] a = z.get(g.getLong("src", 0));
      float[] b = z.get(g.getLong("dst", 0));
      double d = 0;
      for (int i = 0; i < a.length; i++) {
        d += (double) a[i] * b[i];
      }
      s.add(d);
    });
    return s.stream().mapToDouble(Double::doubleValue).toArray();
  }

  static double auc(double[] pos, double[] neg) {
    double[] n = neg.clone();
    Arrays.sort(n);
    double u = 0;
    for (double p : pos) {
      int below = lower(n, p);
      int atOrBelow = upper(n, p);
      u += below + 0.5 * (atOrBelow - below);
    }
    return u / ((double) pos.length * neg.length);
  }

  static int lower(double[] a, double v) {
    int lo = 0, hi = a.length;
    while (lo < hi) { int m = (lo + hi) >>> 1; if (a[m] < v) lo = m + 1; else hi = m; }
    return lo;
  }

  static int upper(double[] a, double v) {
    int lo = 0, hi = a.length;
    while (lo < hi) { int m = (lo + hi) >>> 1; if (a[m] <= v) lo = m + 1; else hi = m; }
    return lo;
  }

  static double averagePrecision(double[] pos, double[] neg) {
    int m = pos.length + neg.length;
    double[][] s = new double[m][];
    for (int i = 0; i < m; i++) {
      s[i] = new double[] {i < pos.length ? pos[i] : neg[i - pos.length], i < pos.length ? 1 : 0};
    }
    Arrays.sort(s, (x, y) -> Double.compare(y[0], x[0]));
    double ap = 0;
    double tp = 0;
    double lastRecall = 0;
    for (int i = 0; i < m; i++) {
      tp += s[i][1];
      if (i + 1 == m || s[i + 1][0] != s[i][0]) { // one step per distinct score
        double recall = tp / pos.length;
        ap += (recall - lastRecall) * tp / (i + 1);
        lastRecall = recall;
      }
    }
    return ap;
  }

  static double figure(String json, String key) {
    Matcher m = Pattern.compile("\"best\"\\s*:\\s*\\{[^}]*\"" + key + "\"\\s*:\\s*([-0-9.eE]+)").matcher(json);
    return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
  }

  /** --link PAIRS_DIR EMBEDDINGS_TABLE METRICS_JSON: scripts/demo-link's report (see the header). */
  static void link(String[] args) throws Exception {
    Configuration conf = new Configuration();
    Map<Long, float[]> z = new HashMap<>();
    read(conf, args[2], g -> {
      Group list = g.getGroup("embedding", 0);
      float[] e = new float[list.getFieldRepetitionCount(0)];
      for (int i = 0; i < e.length; i++) {
        e[i] = list.getGroup(0, i).getFloat(0, 0);
      }
      z.put(g.getLong("id", 0), e);
    });
    double[] pos = scores(conf, args[1] + "/test", z);
    double[] neg = scores(conf, args[1] + "/test-negatives", z);
    Path metrics = new Path(args[3]);
    String json;
    try (java.io.InputStream in = metrics.getFileSystem(conf).open(metrics)) {
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    System.out.printf(Locale.ROOT, "test AUC from the written embeddings: %.4f, AP %.4f (%,d test edges, each against "
        + "its fixed negative, %,d embeddings)%n", auc(pos, neg), averagePrecision(pos, neg), pos.length, z.size());
    System.out.printf(Locale.ROOT, "test AUC in metrics.json:              %.4f, AP %.4f%n", figure(json, "test_auc"),
        figure(json, "test_ap"));
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--link")) {
      link(args);
      return;
    }
    Configuration conf = new Configuration();
    int show = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    Map<Long, long[]> truth = new HashMap<>(); // id -> {label, split index}
    String[] splits = {"train", "val", "test"};
    read(conf, args[0], g -> {
      String s = g.getString("split", 0);
      int k = s.equals("train") ? 0 : s.equals("val") ? 1 : s.equals("test") ? 2 : -1;
      if (k >= 0) {
        truth.put(num(g, "id"), new long[] {num(g, "label"), k});
      }
    });
    long[] correct = new long[3];
    long[] count = new long[3];
    StringBuilder rows = new StringBuilder();
    int[] shown = {0};
    read(conf, args[1], g -> {
      long id = num(g, "id");
      long[] t = truth.get(id);
      if (t != null) {
        count[(int) t[1]]++;
        correct[(int) t[1]] += num(g, "prediction") == t[0] ? 1 : 0;
      }
      if (shown[0] < show) {
        shown[0]++;
        Group list = g.getGroup("embedding", 0);
        int n = list.getFieldRepetitionCount(0);
        StringBuilder e = new StringBuilder();
        for (int i = 0; i < n && i < 6; i++) {
          e.append(i > 0 ? ", " : "").append(String.format(Locale.ROOT, "%.3f", list.getGroup(0, i).getFloat(0, 0)));
        }
        rows.append(String.format(Locale.ROOT, "  id %d: prediction %d, embedding [%s%s] (%d values)%n", id,
            num(g, "prediction"), e, n > 6 ? ", ..." : "", n));
      }
    });
    for (int k = 0; k < 3; k++) {
      System.out.printf(Locale.ROOT, "%s accuracy from the predictions: %.4f (%,d of %,d nodes)%n", splits[k],
          count[k] == 0 ? 0.0 : (double) correct[k] / count[k], correct[k], count[k]);
    }
    System.out.print("first embedding rows:\n" + rows);
  }
}
