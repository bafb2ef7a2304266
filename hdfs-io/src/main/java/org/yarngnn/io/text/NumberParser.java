package org.yarngnn.io.text;

import java.nio.charset.StandardCharsets;

/**
 * Parses decimal numbers straight from bytes, without building Strings on the common path. Floats take
 * Clinger's fast path (exact double arithmetic, then a check that the double is not a float rounding
 * midpoint) and fall back to {@link Float#parseFloat} otherwise, so results are always correctly rounded.
 * Malformed input throws {@link NumberFormatException} (only then is anything allocated).
 */
final class NumberParser {
  private static final double[] POW10 = new double[23];
  private static final long MAX_EXACT = 1L << 53;

  static {
    double p = 1;
    for (int i = 0; i < POW10.length; i++) {
      POW10[i] = p;
      p *= 10;
    }
  }

  private NumberParser() {
  }

  /** Parses a signed decimal long in {@code buf[start, end)}. */
  static long parseLong(byte[] buf, int start, int end) {
    int i = start;
    boolean negative = false;
    if (i < end && (buf[i] == '-' || buf[i] == '+')) {
      negative = buf[i] == '-';
      i++;
    }
    if (i == end) {
      throw bad(buf, start, end);
    }
    // Accumulate negatively so Long.MIN_VALUE parses (the scheme of Long.parseLong).
    long limit = negative ? Long.MIN_VALUE : -Long.MAX_VALUE;
    long multmin = limit / 10;
    long v = 0;
    for (; i < end; i++) {
      int d = buf[i] - '0';
      if (d < 0 || d > 9 || v < multmin) {
        throw bad(buf, start, end);
      }
      v *= 10;
      if (v < limit + d) {
        throw bad(buf, start, end);
      }
      v -= d;
    }
    return negative ? v : -v;
  }

  /** True when {@code buf[start, end)} is an optionally signed run of decimal digits (of any length). */
  static boolean isInteger(byte[] buf, int start, int end) {
    int i = start;
    if (i < end && (buf[i] == '-' || buf[i] == '+')) {
      i++;
    }
    if (i == end) {
      return false;
    }
    for (; i < end; i++) {
      if (buf[i] < '0' || buf[i] > '9') {
        return false;
      }
    }
    return true;
  }

  /** True when {@code buf[start, end)} is (optionally signed) nan, inf or infinity, the words of {@link #parseFloat}. */
  static boolean isSpecial(byte[] buf, int start, int end) {
    int i = start;
    if (i < end && (buf[i] == '-' || buf[i] == '+')) {
      i++;
    }
    return i < end && ((buf[i] | 0x20) == 'n' || (buf[i] | 0x20) == 'i');
  }

  /** Parses a signed decimal int in {@code buf[start, end)}. */
  static int parseInt(byte[] buf, int start, int end) {
    long v = parseLong(buf, start, end);
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw bad(buf, start, end);
    }
    return (int) v;
  }

  /**
   * Parses a float in {@code buf[start, end)}: decimal or scientific notation, or nan / inf / infinity in any
   * case (returned as NaN / infinities so the caller can refuse them with its own message).
   */
  static float parseFloat(byte[] buf, int start, int end) {
    int i = start;
    boolean negative = false;
    if (i < end && (buf[i] == '-' || buf[i] == '+')) {
      negative = buf[i] == '-';
      i++;
    }
    if (i < end && ((buf[i] | 0x20) == 'n' || (buf[i] | 0x20) == 'i')) {
      return parseSpecial(buf, start, i, end, negative);
    }
    long mantissa = 0;
    int digits = 0;
    int exp10 = 0;
    boolean any = false;
    boolean dot = false;
    for (; i < end; i++) {
      int c = buf[i];
      int d = c - '0';
      if (d >= 0 && d <= 9) {
        any = true;
        if (mantissa == 0 && d == 0) {
          if (dot) {
            exp10--;
          }
          continue;
        }
        if (digits < 18) {
          mantissa = mantissa * 10 + d;
          digits++;
          if (dot) {
            exp10--;
          }
        } else {
          return slow(buf, start, end);
        }
      } else if (c == '.' && !dot) {
        dot = true;
      } else {
        break;
      }
    }
    if (!any) {
      throw bad(buf, start, end);
    }
    if (i < end) {
      if ((buf[i] | 0x20) != 'e') {
        throw bad(buf, start, end);
      }
      i++;
      boolean expNegative = false;
      if (i < end && (buf[i] == '-' || buf[i] == '+')) {
        expNegative = buf[i] == '-';
        i++;
      }
      if (i == end) {
        throw bad(buf, start, end);
      }
      int e = 0;
      for (; i < end; i++) {
        int d = buf[i] - '0';
        if (d < 0 || d > 9) {
          throw bad(buf, start, end);
        }
        if (e < 100000) {
          e = e * 10 + d;
        }
      }
      exp10 += expNegative ? -e : e;
    }
    if (mantissa == 0) {
      return negative ? -0f : 0f;
    }
    if (mantissa >= MAX_EXACT || exp10 < -22 || exp10 > 22) {
      return slow(buf, start, end);
    }
    double v = exp10 >= 0 ? mantissa * POW10[exp10] : mantissa / POW10[-exp10];
    // The double is correctly rounded; rounding it to float is too unless it sits exactly on a float midpoint.
    if ((Double.doubleToRawLongBits(v) & 0x1FFFFFFFL) == 0x10000000L) {
      return slow(buf, start, end);
    }
    float f = (float) v;
    return negative ? -f : f;
  }

  private static float parseSpecial(byte[] buf, int start, int i, int end, boolean negative) {
    String word = new String(buf, i, end - i, StandardCharsets.ISO_8859_1).toLowerCase(java.util.Locale.ROOT);
    switch (word) {
      case "nan": return Float.NaN;
      case "inf":
      case "infinity": return negative ? Float.NEGATIVE_INFINITY : Float.POSITIVE_INFINITY;
      default: throw bad(buf, start, end);
    }
  }

  private static float slow(byte[] buf, int start, int end) {
    try {
      return Float.parseFloat(new String(buf, start, end - start, StandardCharsets.ISO_8859_1));
    } catch (NumberFormatException e) {
      throw bad(buf, start, end);
    }
  }

  static NumberFormatException bad(byte[] buf, int start, int end) {
    return new NumberFormatException(text(buf, start, end));
  }

  /** The field as text for messages, shortened when long. */
  static String text(byte[] buf, int start, int end) {
    int n = Math.min(end - start, 40);
    String s = new String(buf, start, n, StandardCharsets.UTF_8);
    return end - start > n ? s + "..." : s;
  }
}
