// Compares two embedding outputs bit for bit (any FileSystem; the cluster's configuration on the classpath):
//   java -cp yarn-gnn.jar:$HADOOP_CONF_DIR:HADOOP_CLASSPATH scripts/bench/faults-compare.java WANT GOT
// prints "same" and exits 0, or the first difference and exits 1.
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.table.EmbeddingTable;

public class FaultsCompare {
  public static void main(String[] args) {
    Configuration conf = new Configuration();
    Map<Long, float[]> want = EmbeddingTable.read(conf, new Path(args[0])).embeddings();
    Map<Long, float[]> got = EmbeddingTable.read(conf, new Path(args[1])).embeddings();
    if (want.size() != got.size()) {
      System.out.println("differs: " + got.size() + " rows, want " + want.size());
      System.exit(1);
    }
    for (Map.Entry<Long, float[]> e : want.entrySet()) {
      float[] g = got.get(e.getKey());
      if (g == null || g.length != e.getValue().length) {
        System.out.println("differs: node " + e.getKey() + " missing or of another width");
        System.exit(1);
      }
      for (int c = 0; c < g.length; c++) {
        if (Float.floatToRawIntBits(g[c]) != Float.floatToRawIntBits(e.getValue()[c])) {
          System.out.println("differs: node " + e.getKey() + " column " + c);
          System.exit(1);
        }
      }
    }
    System.out.println("same");
  }
}
