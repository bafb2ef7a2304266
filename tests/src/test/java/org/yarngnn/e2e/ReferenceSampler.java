package org.yarngnn.e2e;

import java.util.TreeSet;

/**
 * The contract's sampler re-implemented from its published description (NeighbourSampler's class comment):
 * SplitMix64 seeded from (seed, layer, node id), Floyd's algorithm over positions of the id-ordered in-list.
 */
final class ReferenceSampler implements ContractReference.Sampler {
  private static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  @Override
  public int[] positions(long seed, int layer, long nodeId, int degree, int fanout) {
    long[] state = {mix64(mix64(mix64(seed) ^ layer) ^ nodeId)};
    TreeSet<Integer> chosen = new TreeSet<>();
    for (int j = degree - fanout; j < degree; j++) {
      state[0] += 0x9E3779B97F4A7C15L;
      int t = (int) Long.remainderUnsigned(mix64(state[0]), j + 1L);
      chosen.add(chosen.contains(t) ? j : t);
    }
    return chosen.stream().mapToInt(Integer::intValue).toArray();
  }
}
