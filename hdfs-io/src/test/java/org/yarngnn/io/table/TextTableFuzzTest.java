package org.yarngnn.io.table;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Random;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded mutations of small valid TSV/CSV edges and nodes files (byte flips, insertions, deletions, truncations,
 * huge numbers, separators, quotes, BOMs, CRs): each is either read or refused with an InputException, never
 * another exception, and no single parse allocates more than {@link #MAX_ALLOCATED} bytes.
 */
class TextTableFuzzTest {
  private static final int MUTATIONS = 3000;
  private static final long MAX_ALLOCATED = 64L << 20;
  private static final String[] SAMPLES = {
      "edges.tsv", "# edges\nsrc\tdst\tweight\n1\t2\t0.5\n2\t3\t1.5\n3 1 2\n\n-4\t9223372036854775807\t1e-3\n",
      "edges.csv", "src,dst\n1,2\n2,3\n 3 , 1 \n-9223372036854775808,5\n",
      "nodes.tsv", "id\tlabel\tsplit\tfeatures\n1\t0\ttrain\t0.5,1,2\n2\t-1\tnone\t1e3,-2.5,0\n3\t1\ttest\t0,0,0\n",
      "nodes.csv", "id,features\n1,\"0.5,1,2\"\n2,\"1e3,-2.5,0\"\n# c\n3,\"0,0,0\"\n",
  };
  private static final String[] INSERTS = {
      "\t", " ", ",", "\n", "\r", "\r\n", "\"", "#", "-", "+", ".", "e", "E", "nan", "inf", "-Infinity",
      "99999999999999999999999999999999", "9223372036854775808", "-9223372036854775809", "1e39", "1e-50",
      "0x1F", "\uFEFF", "\u00e9", "\0", "train", "src", "id", "1,2,3,4,5,6,7,8,9,10", "\"\"", ",,,,",
      "1".repeat(400), "\t\t\t\t\t\t\t\t\t\t",
  };

  @TempDir
  java.nio.file.Path tmp;

  @Test
  void mutatedTextTablesAreReadOrRefusedWithInputException() throws Exception {
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long thread = Thread.currentThread().getId();
    Random random = new Random(20240611L);
    int accepted = 0;
    int refused = 0;
    long worst = 0;
    long deadline = System.nanoTime() + 60_000_000_000L;
    for (int i = 0; i < MUTATIONS && System.nanoTime() < deadline; i++) {
      int sample = random.nextInt(SAMPLES.length / 2);
      String name = SAMPLES[2 * sample];
      byte[] bytes = mutate(SAMPLES[2 * sample + 1].getBytes(StandardCharsets.UTF_8), random);
      java.nio.file.Path file = tmp.resolve(i + "-" + name);
      Files.write(file, bytes);
      Path path = new Path(file.toUri());
      long before = threads.getThreadAllocatedBytes(thread);
      try {
        if (name.startsWith("edges")) {
          EdgeTable.open(TempTables.CONF, path, TableReadOptions.defaults()).read((s, d, w, r) -> { });
        } else {
          NodeTable.open(TempTables.CONF, path, TableReadOptions.defaults()).read((id, l, s, f, r) -> { });
        }
        accepted++;
      } catch (InputException e) {
        refused++;
        assertTrue(e.getMessage().startsWith(path.toString()), e.getMessage());
      } catch (Throwable t) {
        fail("mutation " + i + " of " + name + " (" + new String(bytes, StandardCharsets.ISO_8859_1)
            .replace("\n", "\\n").replace("\t", "\\t") + ") threw " + t, t);
      }
      long allocated = threads.getThreadAllocatedBytes(thread) - before;
      worst = Math.max(worst, allocated);
      assertTrue(allocated <= MAX_ALLOCATED, "mutation " + i + " of " + name + " allocated " + allocated + " bytes");
      Files.delete(file);
    }
    assertTrue(accepted > 50 && refused > 50, "accepted " + accepted + ", refused " + refused);
    System.out.println("fuzz: " + accepted + " accepted, " + refused + " refused, worst parse allocated "
        + worst + " bytes");
  }

  private static byte[] mutate(byte[] in, Random random) {
    byte[] b = in;
    int edits = 1 + random.nextInt(4);
    for (int k = 0; k < edits; k++) {
      int at = b.length == 0 ? 0 : random.nextInt(b.length);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      switch (random.nextInt(6)) {
        case 0: // flip bits of one byte
          b = b.clone();
          if (b.length > 0) {
            b[at] ^= (byte) (1 << random.nextInt(8));
          }
          continue;
        case 1: // random byte
          b = b.clone();
          if (b.length > 0) {
            b[at] = (byte) random.nextInt(256);
          }
          continue;
        case 2: // insertion of a token
          out.write(b, 0, at);
          out.writeBytes(INSERTS[random.nextInt(INSERTS.length)].getBytes(StandardCharsets.UTF_8));
          out.write(b, at, b.length - at);
          break;
        case 3: // deletion of a run
          int n = Math.min(b.length - at, 1 + random.nextInt(8));
          out.write(b, 0, at);
          out.write(b, at + n, b.length - at - n);
          break;
        case 4: // truncation
          out.write(b, 0, at);
          break;
        default: // a line duplicated
          out.write(b, 0, b.length);
          out.write(b, 0, Math.min(b.length, at));
          break;
      }
      b = out.toByteArray();
    }
    return b;
  }
}
