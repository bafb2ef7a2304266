// scripts/demo's report, run as a single-file program (java -cp JAR:HADOOP_CLASSPATH scripts/demo-report.java
// NODES_TABLE EMBEDDINGS_TABLE [ROWS]): reads the nodes table's label and split columns and the output's
// prediction column with parquet-mr's example Group reader (on the jar's classpath), joins them by id, prints
// the accuracy per split and the first ROWS (default 5) embedding rows. Paths are Hadoop paths (file://, hdfs://).
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
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
    for (FileStatus f : fs.listStatus(dir)) {
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

  public static void main(String[] args) throws Exception {
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
