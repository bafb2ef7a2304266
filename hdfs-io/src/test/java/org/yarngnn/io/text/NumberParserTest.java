package org.yarngnn.io.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The byte parsers agree with the JDK's, including the float fallback cases. */
class NumberParserTest {
  private static float f(String s) {
    byte[] b = ("x" + s + "y").getBytes(StandardCharsets.US_ASCII);
    return NumberParser.parseFloat(b, 1, b.length - 1);
  }

  private static long l(String s) {
    byte[] b = s.getBytes(StandardCharsets.US_ASCII);
    return NumberParser.parseLong(b, 0, b.length);
  }

  @Test
  void floatsMatchTheJdkBitForBit() {
    Random rnd = new Random(4);
    for (int i = 0; i < 200_000; i++) {
      float v = switch (i % 4) {
        case 0 -> Float.intBitsToFloat(rnd.nextInt());
        case 1 -> (float) rnd.nextGaussian();
        case 2 -> rnd.nextInt(100000) / 1000f;
        default -> (float) (rnd.nextDouble() * Math.pow(10, rnd.nextInt(40) - 20));
      };
      if (!Float.isFinite(v)) {
        continue;
      }
      String s = Float.toString(v);
      assertEquals(Float.floatToIntBits(v), Float.floatToIntBits(f(s)), s);
      String d = Double.toString(rnd.nextGaussian());
      assertEquals(Float.parseFloat(d), f(d), d);
    }
  }

  @Test
  void floatSyntax() {
    assertEquals(0.5f, f(".5"));
    assertEquals(5f, f("5."));
    assertEquals(-1.25e-3f, f("-1.25E-3"));
    assertEquals(100f, f("+1e2"));
    assertEquals(0f, f("0000"));
    assertEquals(Float.floatToIntBits(-0f), Float.floatToIntBits(f("-0.0")));
    assertEquals(1.0000001f, f("1.00000011920928955078125"));
    assertEquals(Float.MIN_VALUE, f("1.4E-45"));
    assertEquals(Float.POSITIVE_INFINITY, f("1e39"));
    assertTrue(Float.isNaN(f("NaN")));
    assertEquals(Float.NEGATIVE_INFINITY, f("-Infinity"));
    assertEquals(Float.POSITIVE_INFINITY, f("inf"));
    for (String bad : new String[] {"", "-", ".", "1e", "1e+", "1.2.3", "1x", "0x10", "nan1", "1,5"}) {
      assertThrows(NumberFormatException.class, () -> f(bad), bad);
    }
  }

  @Test
  void longs() {
    assertEquals(Long.MAX_VALUE, l("9223372036854775807"));
    assertEquals(Long.MIN_VALUE, l("-9223372036854775808"));
    assertEquals(42, l("+42"));
    assertEquals(-7, l("-0007"));
    for (String bad : new String[] {"", "-", "9223372036854775808", "-9223372036854775809", "1.0", "1e3", " 1"}) {
      assertThrows(NumberFormatException.class, () -> l(bad), bad);
    }
  }
}
