import java.util.SplittableRandom;
import org.yarngnn.compute.retrieval.ExactTopK;
import org.yarngnn.compute.retrieval.QueryPairs;
// ExactTopK alone, in process (no table reading, no JVM start): QUERIES random N(0,1) queries of 64 dims against
// CANDIDATES random candidates offered in blocks of BLOCK, top 100, REPS times; prints each repetition's wall and
// process CPU seconds and GFLOP/s (2 Q C D / seconds), then the medians of the repetitions after the first (JIT
// warm-up). For A/B of kernel changes on a busy machine, run two jars in turn and compare GFLOP per CPU-second:
//   java --add-modules jdk.incubator.vector -cp yarn-app/target/yarn-gnn-*.jar scripts/bench/topk-kernel.java \
//     QUERIES CANDIDATES BLOCK REPS
public class TopkKernel {
  public static void main(String[] a) {
    int nq = Integer.parseInt(a[0]), nc = Integer.parseInt(a[1]), d = 64, k = 100, block = Integer.parseInt(a[2]);
    int reps = Integer.parseInt(a[3]);
    SplittableRandom r = new SplittableRandom(1);
    float[] q = new float[nq * d]; for (int i = 0; i < q.length; i++) q[i] = (float) r.nextGaussian();
    float[] c = new float[block * d * 16]; for (int i = 0; i < c.length; i++) c[i] = (float) r.nextGaussian();
    long[] qid = new long[nq]; for (int i = 0; i < nq; i++) qid[i] = i;
    var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    double[] walls = new double[reps];
    double[] cpus = new double[reps];
    for (int rep = 0; rep < reps; rep++) {
      ExactTopK t = new ExactTopK(q, qid, nq, d, k, QueryPairs.NONE, block);
      long[] ids = new long[block]; float[] rows = new float[block * d];
      long cpu0 = os.getProcessCpuTime(), w0 = System.nanoTime();
      for (int done = 0, b = 0; done < nc; done += block, b++) {
        int n = Math.min(block, nc - done);
        System.arraycopy(c, (b % 16) * block * d, rows, 0, n * d);
        for (int j = 0; j < n; j++) ids[j] = nq + done + j;
        t.offer(rows, ids, n);
      }
      double w = (System.nanoTime() - w0) / 1e9, cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
      double gf = 2.0 * nq * nc * d / 1e9;
      System.out.printf("rep %d wall %.3f cpu %.3f GFLOP/s %.1f GFLOP/cpu-s %.1f%n", rep, w, cpu, gf / w, gf / cpu);
      walls[rep] = w;
      cpus[rep] = cpu;
    }
    double gf = 2.0 * nq * nc * d / 1e9;
    double w = median(java.util.Arrays.copyOfRange(walls, 1, reps));
    double cpu = median(java.util.Arrays.copyOfRange(cpus, 1, reps));
    System.out.printf("median of reps 1..%d: wall %.3f cpu %.3f GFLOP/s %.1f GFLOP/cpu-s %.1f%n", reps - 1, w, cpu,
        gf / w, gf / cpu);
  }

  static double median(double[] v) {
    java.util.Arrays.sort(v);
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}
