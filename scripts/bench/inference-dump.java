// Prints an embedding output as text, one row a line: id TAB comma-separated values, ordered by id (the PyTorch
// peer's check in scripts/bench/inference compares it with the peer's own dump):
//   java -cp yarn-gnn.jar:HADOOP_CLASSPATH scripts/bench/inference-dump.java OUTPUT_DIR > out.tsv
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.table.EmbeddingTable;

public class InferenceDump {
  public static void main(String[] args) throws Exception {
    Map<Long, float[]> rows = new TreeMap<>(EmbeddingTable.read(new Configuration(), new Path(args[0])).embeddings());
    try (BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out))) {
      for (Map.Entry<Long, float[]> e : rows.entrySet()) {
        StringBuilder sb = new StringBuilder().append(e.getKey()).append('\t');
        float[] v = e.getValue();
        for (int c = 0; c < v.length; c++) {
          sb.append(c == 0 ? "" : ",").append(v[c]);
        }
        out.write(sb.append('\n').toString());
      }
    }
  }
}
