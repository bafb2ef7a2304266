package org.yarngnn.io.parquet;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Min and max of a run of floats on the JDK's vectors, with {@code Math.min}/{@code max} semantics (a NaN gives
 * NaN; {@code -0.0} is below {@code 0.0}). Loading this class needs the incubator module: callers test
 * {@link FloatListPages#VECTORS} first (the launcher and the containers always add the module; a JVM without it,
 * such as a test's child process, loops itself).
 */
final class VectorMinMax {
  private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;

  private VectorMinMax() {}

  /** Writes the min of {@code v[offset..offset+length)} to {@code out[0]} and the max to {@code out[1]}. */
  static void minMax(float[] v, int offset, int length, float[] out) {
    VectorSpecies<Float> s = S;
    int k = 0;
    float min = v[offset];
    float max = min;
    if (length >= s.length()) {
      FloatVector lo = FloatVector.fromArray(s, v, offset);
      FloatVector hi = lo;
      for (k = s.length(); k + s.length() <= length; k += s.length()) {
        FloatVector x = FloatVector.fromArray(s, v, offset + k);
        // x, not the loop-carried vector, as the receiver: its exact class is known to C2 without a type profile
        // (see VectorSparseRowKernel's sum8).
        lo = x.min(lo);
        hi = x.max(hi);
      }
      min = lo.reduceLanes(VectorOperators.MIN);
      max = hi.reduceLanes(VectorOperators.MAX);
    }
    for (; k < length; k++) {
      min = Math.min(min, v[offset + k]);
      max = Math.max(max, v[offset + k]);
    }
    out[0] = min;
    out[1] = max;
  }
}
