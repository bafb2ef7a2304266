package org.yarngnn.bench;

import java.util.SplittableRandom;
import org.yarngnn.compute.graph.Csr;

/**
 * A seeded R-MAT graph (a=0.57, b=0.19, c=0.19, d=0.05, the Graph500 skew) as an in-edge {@link Csr}: rows are
 * destinations, columns sources, built by counting sort on the destination. Endpoints are drawn over the next
 * power of two and redrawn when they fall past {@code nodes}, so any node count works.
 */
final class RmatCsr {
  private static final double A = 0.57;
  private static final double AB = A + 0.19;
  private static final double ABC = AB + 0.19;

  private RmatCsr() {}

  static Csr generate(int nodes, int edges, long seed) {
    int scale = 32 - Integer.numberOfLeadingZeros(Math.max(1, nodes - 1));
    int[] src = new int[edges];
    int[] dst = new int[edges];
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int e = 0; e < edges; e++) {
      int s;
      int d;
      do {
        s = 0;
        d = 0;
        for (int level = 0; level < scale; level++) {
          double r = rnd.nextDouble();
          s <<= 1;
          d <<= 1;
          if (r >= ABC) {
            s |= 1;
            d |= 1;
          } else if (r >= AB) {
            s |= 1;
          } else if (r >= A) {
            d |= 1;
          }
        }
      } while (s >= nodes || d >= nodes);
      src[e] = s;
      dst[e] = d;
    }
    int[] rowPtr = new int[nodes + 1];
    for (int e = 0; e < edges; e++) {
      rowPtr[dst[e] + 1]++;
    }
    for (int i = 0; i < nodes; i++) {
      rowPtr[i + 1] += rowPtr[i];
    }
    int[] next = rowPtr.clone();
    int[] col = new int[edges];
    for (int e = 0; e < edges; e++) {
      col[next[dst[e]]++] = src[e];
    }
    return new Csr(nodes, nodes, rowPtr, col, null);
  }
}
