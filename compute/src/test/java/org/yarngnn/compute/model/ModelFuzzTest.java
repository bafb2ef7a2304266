package org.yarngnn.compute.model;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.kernel.Activation;

/**
 * Seeded mutations of valid model.json and weights.safetensors files (byte flips, truncations, insertions,
 * changed numbers, huge counts): each is accepted or refused with {@link ModelFormatException}, never another
 * exception, and no parse allocates more than {@link #bound} bytes.
 */
class ModelFuzzTest {
  private static final int CASES = 3000;
  private static final String[] NUMBERS = {"0", "-1", "1", "2147483647", "2147483648", "4294967296",
      "9223372036854775807", "99999999999999999999999", "1e308", "1e999", "-1e999", "0.5", "-0", "1.0E10",
      "8589934556", "65536", "NaN", "3"};

  private static final ModelSpec GCN = new ModelSpec("row", List.of(LayerSpec.gcn(5, 4, Activation.RELU, true),
      LayerSpec.sage(4, 3, Activation.ELU, false, 10)), "l2", true);
  private static final ModelSpec GAT = new ModelSpec("none",
      List.of(LayerSpec.gat(3, 2, 2, true, 0.2f, Activation.ELU, true)), "none", false);

  /** A parse may allocate at most 64 bytes per input byte plus 4 MiB. */
  private static long bound(byte[] input) {
    return 64L * input.length + (4 << 20);
  }

  private static long allocated() {
    return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
        .getCurrentThreadAllocatedBytes();
  }

  private interface Parse {
    void run(byte[] input);
  }

  /** Runs every mutation of the seeds; returns how many were accepted. */
  private static int fuzz(List<byte[]> seeds, long seed, Parse parse) {
    SplittableRandom r = new SplittableRandom(seed);
    int accepted = 0;
    for (int i = 0; i < CASES; i++) {
      byte[] input = mutate(seeds.get(r.nextInt(seeds.size())), r);
      long before = allocated();
      try {
        parse.run(input);
        accepted++;
      } catch (ModelFormatException expected) {
        assertTrue(expected.getMessage() != null && !expected.getMessage().contains("\n"),
            "case " + i + ": one-line message: " + expected.getMessage());
      } catch (RuntimeException | Error e) {
        throw new AssertionError("case " + i + " (seed " + seed + "): " + e + " for input "
            + new String(input, StandardCharsets.ISO_8859_1), e);
      }
      long used = allocated() - before;
      assertTrue(used <= bound(input), "case " + i + ": allocated " + used + " bytes for an input of "
          + input.length);
    }
    return accepted;
  }

  private static byte[] mutate(byte[] seed, SplittableRandom r) {
    byte[] b = seed;
    int rounds = 1 + r.nextInt(3);
    for (int k = 0; k < rounds; k++) {
      switch (r.nextInt(6)) {
        case 0: { // byte flips
          b = b.clone();
          for (int j = 1 + r.nextInt(4); j > 0 && b.length > 0; j--) {
            b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
          }
          break;
        }
        case 1: // truncation
          b = java.util.Arrays.copyOf(b, b.length == 0 ? 0 : r.nextInt(b.length));
          break;
        case 2: { // insertion of random or structural bytes
          int at = r.nextInt(b.length + 1);
          byte[] ins = r.nextBoolean() ? randomBytes(r, 1 + r.nextInt(8))
              : new String[] {"{", "}", "[", "]", ",", ":", "\"", "[[[[[[[[", "{\"x\":"}[r.nextInt(9)]
                  .getBytes(StandardCharsets.US_ASCII);
          byte[] out = new byte[b.length + ins.length];
          System.arraycopy(b, 0, out, 0, at);
          System.arraycopy(ins, 0, out, at, ins.length);
          System.arraycopy(b, at, out, at + ins.length, b.length - at);
          b = out;
          break;
        }
        case 3: // a number changed
        case 4: // a count made huge
          b = replaceNumber(b, r, r.nextBoolean() ? NUMBERS[r.nextInt(NUMBERS.length)]
              : Long.toString(r.nextLong(-3, 1L << 40)));
          break;
        default: { // the 8-byte header length of a safetensors file
          if (b.length >= 8) {
            b = b.clone();
            long v = r.nextBoolean() ? r.nextLong() : r.nextInt(b.length + 64);
            for (int j = 0; j < 8; j++) {
              b[j] = (byte) (v >>> (8 * j));
            }
          }
        }
      }
    }
    return b;
  }

  private static byte[] randomBytes(SplittableRandom r, int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) r.nextInt(256);
    }
    return b;
  }

  private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?");

  /** Replaces one number in the text part (all of model.json, the header of a safetensors file). */
  private static byte[] replaceNumber(byte[] b, SplittableRandom r, String with) {
    String s = new String(b, StandardCharsets.ISO_8859_1);
    Matcher m = NUMBER.matcher(s);
    List<int[]> spans = new ArrayList<>();
    while (m.find() && spans.size() < 1000) {
      spans.add(new int[] {m.start(), m.end()});
    }
    if (spans.isEmpty()) {
      return b;
    }
    int[] sp = spans.get(r.nextInt(spans.size()));
    return (s.substring(0, sp[0]) + with + s.substring(sp[1])).getBytes(StandardCharsets.ISO_8859_1);
  }

  private static List<byte[]> specSeeds() {
    List<byte[]> seeds = new ArrayList<>();
    for (ModelSpec spec : List.of(GCN, GAT)) {
      seeds.add(ModelDirectory.modelJsonBytes(spec));
    }
    seeds.add(("{\"format\": 1, \"input\": {\"normalize\": \"none\"}, \"layers\": [{\"type\": \"sage\", \"in\": 3,"
        + " \"out\": 2, \"activation\": \"relu\", \"bias\": true, \"aggregator\": \"mean\", \"fanout\": -1,"
        + " \"dropout\": 0.5}], \"output\": {\"normalize\": \"none\", \"predict\": false}}")
        .getBytes(StandardCharsets.UTF_8));
    return seeds;
  }

  private static List<byte[]> weightSeeds() {
    List<byte[]> seeds = new ArrayList<>();
    for (ModelSpec spec : List.of(GCN, GAT)) {
      seeds.add(ModelDirectory.weightsBytes(RandomModels.random(spec, 7)));
    }
    seeds.add(ModelNumbersTest.lyingFile());
    return seeds;
  }

  @Test
  void modelJsonMutations() {
    int accepted = fuzz(specSeeds(), 11, b -> ModelDirectory.readSpec(b, "model.json"));
    assertTrue(accepted > 0 && accepted < CASES, "accepted " + accepted);
  }

  @Test
  void safetensorsMutations() {
    int accepted = fuzz(weightSeeds(), 12, b -> Safetensors.read(b, "weights.safetensors"));
    assertTrue(accepted > 0 && accepted < CASES, "accepted " + accepted);
  }

  @Test
  void streamedSafetensorsMutations() {
    fuzz(weightSeeds(), 13, b -> {
      try {
        Safetensors.read(new java.io.ByteArrayInputStream(b), "weights.safetensors");
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
  }

  @Test
  void wholeModelDirectoryMutations() {
    byte[] json = ModelDirectory.modelJsonBytes(GCN);
    byte[] weights = ModelDirectory.weightsBytes(RandomModels.random(GCN, 7));
    SplittableRandom pick = new SplittableRandom(14);
    fuzz(List.of(json, weights), 14, b -> {
      boolean isJson = b.length > 0 && (b[0] == '{' || b[0] == ' ');
      if (pick.nextBoolean() || !isJson) {
        ModelDirectory.read(json, b, "/m");
      } else {
        ModelDirectory.read(b, weights, "/m");
      }
    });
  }
}
