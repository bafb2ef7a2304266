package org.yarngnn.io.table;

import java.nio.charset.StandardCharsets;

/** Byte codes of the nodes table's {@code split} column; {@link #NONE} when the column is absent or null. */
public final class NodeSplit {
  public static final byte NONE = 0;
  public static final byte TRAIN = 1;
  public static final byte VAL = 2;
  public static final byte TEST = 3;

  private static final String[] NAMES = {"none", "train", "val", "test"};
  private static final byte[][] UTF8 = new byte[NAMES.length][];

  static {
    for (int i = 0; i < NAMES.length; i++) {
      UTF8[i] = NAMES[i].getBytes(StandardCharsets.US_ASCII);
    }
  }

  private NodeSplit() {
  }

  /** The contract's name of a split code: none, train, val or test. */
  public static String name(byte split) {
    return NAMES[split];
  }

  /** The name as shared UTF-8 bytes (do not modify). */
  static byte[] utf8(byte split) {
    return UTF8[split];
  }

  /** The refusal of a value that is not a split word (a long value shortened: it is shown, not kept). */
  public static String bad(String value) {
    String shown = value.length() > 40 ? value.substring(0, 40) + "..." : value;
    return "bad split '" + shown + "' (expected train, val, test or none)";
  }

  /** Parses a split name (case-insensitive); -1 when it is not one of train, val, test, none. */
  public static byte parse(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    return parse(b, 0, b.length);
  }

  /** Parses the split name in {@code buf[start, end)}; -1 when it is not one of train, val, test, none. */
  public static byte parse(byte[] buf, int start, int end) {
    for (byte code = 0; code < UTF8.length; code++) {
      if (equalsIgnoreCase(UTF8[code], buf, start, end)) {
        return code;
      }
    }
    return -1;
  }

  private static boolean equalsIgnoreCase(byte[] lower, byte[] buf, int start, int end) {
    if (end - start != lower.length) {
      return false;
    }
    for (int i = 0; i < lower.length; i++) {
      if ((buf[start + i] | 0x20) != lower[i]) {
        return false;
      }
    }
    return true;
  }
}
