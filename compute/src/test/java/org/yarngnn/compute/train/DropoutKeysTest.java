package org.yarngnn.compute.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The masks are a documented function of global keys (the class comment of {@link Dropout}), so that another
 * implementation can reproduce a run's dropout: the finaliser against SplitMix64's published outputs, the keys
 * against the formulas as the comment writes them, and the kept fractions and their independence across epochs.
 */
class DropoutKeysTest {
  private static final long G = 0x9E3779B97F4A7C15L;

  /** SplitMix64 (Steele, Lea and Flood; Vigna's reference code) from state 0: its first three outputs. */
  @Test
  void theFinaliserIsSplitMix64s() {
    assertEquals(0xE220A8397B1DCDAFL, Dropout.mix64(G));
    assertEquals(0x6E789E6AA1B965F4L, Dropout.mix64(2 * G));
    assertEquals(0x06C45D188009454FL, Dropout.mix64(3 * G));
  }

  /** The comment's formulas, written out again here, give the same row states, decisions and sample seeds. */
  @Test
  void keysFollowTheDocumentedFormulas() {
    java.util.Random r = new java.util.Random(7);
    for (int i = 0; i < 2000; i++) {
      long seed = r.nextLong();
      long epoch = r.nextInt(500);
      int layer = r.nextInt(4);
      long id = r.nextLong();
      long row = Dropout.mix64(Dropout.mix64(Dropout.mix64(Dropout.mix64(seed ^ Dropout.FEATURE) ^ epoch)
          ^ layer) ^ id);
      assertEquals(row, Dropout.rowState(Dropout.FEATURE, seed, epoch, layer, id));
      int c = r.nextInt(1000);
      double p = r.nextDouble();
      double u = (Dropout.mix64(row + G * (c + 1)) >>> 11) * 0x1.0p-53;
      assertEquals(u >= p, Dropout.featureKept(row, c, p), "feature " + i);
      long src = r.nextLong();
      int q = r.nextInt(100) - 1;
      int h = r.nextInt(8);
      double ua = (Dropout.mix64(Dropout.mix64(row ^ src) + G * (((long) q << 16) + h + 1)) >>> 11) * 0x1.0p-53;
      assertEquals(ua >= p, Dropout.attentionKept(row, src, q, h, p), "attention " + i);
      assertEquals(Dropout.mix64(Dropout.mix64(seed ^ Dropout.SAMPLE) ^ epoch), Dropout.sampleSeed(seed, epoch));
    }
  }

  /** Kept fractions are 1 - p, and the masks of two epochs agree as independent draws do. */
  @Test
  void keptFractionsAreOneMinusPAndEpochsAreIndependent() {
    int rows = 400;
    int cols = 500;
    for (double p : new double[] {0.1, 0.5, 0.8}) {
      long kept = 0;
      long keptAttention = 0;
      long agree = 0;
      for (int id = 0; id < rows; id++) {
        long a = Dropout.rowState(Dropout.FEATURE, 11, 3, 1, id);
        long b = Dropout.rowState(Dropout.FEATURE, 11, 4, 1, id);
        long att = Dropout.rowState(Dropout.ATTENTION, 11, 3, 1, id);
        for (int c = 0; c < cols; c++) {
          boolean ka = Dropout.featureKept(a, c, p);
          kept += ka ? 1 : 0;
          agree += ka == Dropout.featureKept(b, c, p) ? 1 : 0;
          keptAttention += Dropout.attentionKept(att, c * 31L, c % 7, c % 4, p) ? 1 : 0;
        }
      }
      double n = (double) rows * cols;
      assertEquals(1 - p, kept / n, 0.005, "features kept at p " + p);
      assertEquals(1 - p, keptAttention / n, 0.005, "attention kept at p " + p);
      assertEquals(p * p + (1 - p) * (1 - p), agree / n, 0.005, "epochs 3 and 4 agree as independent masks");
    }
  }

  /** Each key part changes the row state, and each epoch's sample seed differs. */
  @Test
  void everyKeyPartCounts() {
    Set<Long> states = new HashSet<>();
    long[] kinds = {Dropout.FEATURE, Dropout.ATTENTION};
    for (long kind : kinds) {
      for (long seed = 0; seed < 3; seed++) {
        for (long epoch = 0; epoch < 3; epoch++) {
          for (int layer = 0; layer < 3; layer++) {
            for (long id = 0; id < 3; id++) {
              states.add(Dropout.rowState(kind, seed, epoch, layer, id));
            }
          }
        }
      }
    }
    assertEquals(2 * 81, states.size());
    assertNotEquals(Dropout.sampleSeed(5, 1), Dropout.sampleSeed(5, 2));
    assertNotEquals(Dropout.sampleSeed(5, 1), Dropout.sampleSeed(6, 1));
  }
}
