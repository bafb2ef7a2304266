package org.yarngnn.compute.model;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A small JSON reader and writer, enough for model.json and the safetensors header (no dependency).
 *
 * <p>Parsing gives {@code Map<String,Object>} (keys in file order), {@code List<Object>}, {@code String},
 * {@code Long} (a number without fraction or exponent that fits), {@code Double} (any other number),
 * {@code Boolean} and {@code null}. Duplicate keys and trailing content are errors; every error names the
 * line and column.
 *
 * <p>Writing accepts the same types plus other {@link Number}s and {@link Collection}s. Keys are written in a
 * stable order: the map's own order for {@link LinkedHashMap} and {@link SortedMap}, sorted otherwise.
 * {@code Float}s are written with their shortest float form (0.2f as {@code 0.2}, not 0.20000000298...).
 */
public final class Json {
  private Json() {}

  /** A syntax error, with its 1-based line and column. */
  public static final class ParseException extends IllegalArgumentException {
    private final int line;
    private final int column;

    ParseException(int line, int column, String message) {
      super(line + ":" + column + ": " + message);
      this.line = line;
      this.column = column;
    }

    public int line() {
      return line;
    }

    public int column() {
      return column;
    }
  }

  /** Parses one JSON value; whitespace may surround it, nothing else. */
  public static Object parse(String text) {
    Parser p = new Parser(text);
    p.skipWhitespace();
    Object value = p.value(0);
    p.skipWhitespace();
    if (p.pos < text.length()) {
      throw p.error("unexpected '" + text.charAt(p.pos) + "' after the JSON value");
    }
    return value;
  }

  /** {@code bytes} as strict UTF-8 text, or null when they are not valid UTF-8. */
  public static String utf8OrNull(byte[] bytes, int offset, int length) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes, offset, length))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** Pretty-printed JSON (two-space indent, arrays of scalars on one line), ending with a newline. */
  public static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    new Writer(sb, true).value(value, 0);
    return sb.append('\n').toString();
  }

  /** JSON on one line without spaces. */
  public static String writeCompact(Object value) {
    StringBuilder sb = new StringBuilder();
    new Writer(sb, false).value(value, 0);
    return sb.toString();
  }

  private static final class Parser {
    /** Deep nesting would otherwise overflow the stack on hostile input. */
    private static final int MAX_DEPTH = 512;

    private final String s;
    private int pos;

    Parser(String s) {
      this.s = s;
    }

    ParseException error(String message) {
      return errorAt(pos, message);
    }

    ParseException errorAt(int at, String message) {
      int line = 1;
      int col = 1;
      for (int i = 0; i < at && i < s.length(); i++) {
        if (s.charAt(i) == '\n') {
          line++;
          col = 1;
        } else {
          col++;
        }
      }
      return new ParseException(line, col, message);
    }

    void skipWhitespace() {
      while (pos < s.length()) {
        char c = s.charAt(pos);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
          pos++;
        } else {
          break;
        }
      }
    }

    Object value(int depth) {
      if (depth > MAX_DEPTH) {
        throw error("nested deeper than " + MAX_DEPTH);
      }
      if (pos >= s.length()) {
        throw error("unexpected end of input, expected a value");
      }
      char c = s.charAt(pos);
      switch (c) {
        case '{':
          return object(depth);
        case '[':
          return array(depth);
        case '"':
          return string();
        case 't':
          return literal("true", Boolean.TRUE);
        case 'f':
          return literal("false", Boolean.FALSE);
        case 'n':
          return literal("null", null);
        default:
          if (c == '-' || (c >= '0' && c <= '9')) {
            return number();
          }
          throw error("unexpected '" + c + "', expected a value");
      }
    }

    Object literal(String word, Object value) {
      if (!s.startsWith(word, pos)) {
        throw error("unexpected token, expected '" + word + "'");
      }
      pos += word.length();
      return value;
    }

    Map<String, Object> object(int depth) {
      int start = pos;
      pos++; // '{'
      Map<String, Object> map = new LinkedHashMap<>();
      skipWhitespace();
      if (peek() == '}') {
        pos++;
        return map;
      }
      while (true) {
        skipWhitespace();
        if (peek() != '"') {
          throw error(pos >= s.length() ? "unterminated object (opened at " + where(start) + ")"
              : "expected a string key");
        }
        int keyPos = pos;
        String key = string();
        skipWhitespace();
        expect(':');
        skipWhitespace();
        Object v = value(depth + 1);
        if (map.containsKey(key)) {
          throw errorAt(keyPos, "duplicate key \"" + key + "\"");
        }
        map.put(key, v);
        skipWhitespace();
        char c = peek();
        if (c == ',') {
          pos++;
        } else if (c == '}') {
          pos++;
          return map;
        } else {
          throw error(pos >= s.length() ? "unterminated object (opened at " + where(start) + ")"
              : "expected ',' or '}'");
        }
      }
    }

    List<Object> array(int depth) {
      int start = pos;
      pos++; // '['
      List<Object> list = new ArrayList<>();
      skipWhitespace();
      if (peek() == ']') {
        pos++;
        return list;
      }
      while (true) {
        skipWhitespace();
        list.add(value(depth + 1));
        skipWhitespace();
        char c = peek();
        if (c == ',') {
          pos++;
        } else if (c == ']') {
          pos++;
          return list;
        } else {
          throw error(pos >= s.length() ? "unterminated array (opened at " + where(start) + ")"
              : "expected ',' or ']'");
        }
      }
    }

    String where(int at) {
      ParseException e = errorAt(at, "");
      return e.line() + ":" + e.column();
    }

    char peek() {
      return pos < s.length() ? s.charAt(pos) : '\0';
    }

    void expect(char c) {
      if (peek() != c) {
        throw error(pos >= s.length() ? "unexpected end of input, expected '" + c + "'"
            : "expected '" + c + "'");
      }
      pos++;
    }

    String string() {
      int start = pos;
      pos++; // opening quote
      StringBuilder sb = null;
      int runStart = pos;
      while (true) {
        if (pos >= s.length()) {
          throw errorAt(start, "unterminated string");
        }
        char c = s.charAt(pos);
        if (c == '"') {
          String out = sb == null ? s.substring(runStart, pos) : sb.append(s, runStart, pos).toString();
          pos++;
          return out;
        }
        if (c < 0x20) {
          throw error("control character in string (escape it)");
        }
        if (c != '\\') {
          pos++;
          continue;
        }
        if (sb == null) {
          sb = new StringBuilder();
        }
        sb.append(s, runStart, pos);
        pos++;
        if (pos >= s.length()) {
          throw errorAt(start, "unterminated string");
        }
        char e = s.charAt(pos++);
        switch (e) {
          case '"': sb.append('"'); break;
          case '\\': sb.append('\\'); break;
          case '/': sb.append('/'); break;
          case 'b': sb.append('\b'); break;
          case 'f': sb.append('\f'); break;
          case 'n': sb.append('\n'); break;
          case 'r': sb.append('\r'); break;
          case 't': sb.append('\t'); break;
          case 'u': sb.append(hex4()); break;
          default:
            pos -= 2;
            throw error("invalid escape '\\" + e + "'");
        }
        runStart = pos;
      }
    }

    char hex4() {
      if (pos + 4 > s.length()) {
        throw error("truncated \\u escape");
      }
      int v = 0;
      for (int i = 0; i < 4; i++) {
        int d = Character.digit(s.charAt(pos), 16);
        if (d < 0) {
          throw error("invalid hex digit in \\u escape");
        }
        v = v * 16 + d;
        pos++;
      }
      return (char) v;
    }

    Object number() {
      int start = pos;
      if (peek() == '-') {
        pos++;
      }
      if (peek() == '0') {
        pos++;
      } else if (peek() >= '1' && peek() <= '9') {
        digits();
      } else {
        throw error("invalid number");
      }
      boolean integral = true;
      if (peek() == '.') {
        integral = false;
        pos++;
        if (!(peek() >= '0' && peek() <= '9')) {
          throw error("invalid number: digit expected after '.'");
        }
        digits();
      }
      if (peek() == 'e' || peek() == 'E') {
        integral = false;
        pos++;
        if (peek() == '+' || peek() == '-') {
          pos++;
        }
        if (!(peek() >= '0' && peek() <= '9')) {
          throw error("invalid number: digit expected in exponent");
        }
        digits();
      }
      String text = s.substring(start, pos);
      if (integral) {
        try {
          return Long.parseLong(text);
        } catch (NumberFormatException tooBig) {
          // Falls through: an integer beyond int64 is still a valid JSON number.
        }
      }
      return Double.parseDouble(text);
    }

    void digits() {
      while (peek() >= '0' && peek() <= '9') {
        pos++;
      }
    }
  }

  private static final class Writer {
    private final StringBuilder sb;
    private final boolean pretty;

    Writer(StringBuilder sb, boolean pretty) {
      this.sb = sb;
      this.pretty = pretty;
    }

    void value(Object v, int indent) {
      if (v == null) {
        sb.append("null");
      } else if (v instanceof String str) {
        string(str);
      } else if (v instanceof Boolean b) {
        sb.append(b.booleanValue());
      } else if (v instanceof Float f) {
        finite(f.doubleValue());
        sb.append(Float.toString(f));
      } else if (v instanceof Double || v instanceof java.math.BigDecimal) {
        double d = ((Number) v).doubleValue();
        finite(d);
        sb.append(v.toString());
      } else if (v instanceof Number n) {
        sb.append(n.toString());
      } else if (v instanceof Map<?, ?> m) {
        object(m, indent);
      } else if (v instanceof Collection<?> c) {
        array(c, indent);
      } else {
        throw new IllegalArgumentException("cannot write " + v.getClass().getName() + " as JSON");
      }
    }

    private static void finite(double d) {
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new IllegalArgumentException("JSON has no representation for " + d);
      }
    }

    void object(Map<?, ?> m, int indent) {
      if (m.isEmpty()) {
        sb.append("{}");
        return;
      }
      Map<?, ?> ordered = m instanceof LinkedHashMap || m instanceof SortedMap ? m : new TreeMap<>(m);
      sb.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : ordered.entrySet()) {
        if (!(e.getKey() instanceof String key)) {
          throw new IllegalArgumentException("JSON object keys must be strings, got " + e.getKey());
        }
        if (!first) {
          sb.append(',');
        }
        first = false;
        newline(indent + 1);
        string(key);
        sb.append(pretty ? ": " : ":");
        value(e.getValue(), indent + 1);
      }
      newline(indent);
      sb.append('}');
    }

    void array(Collection<?> c, int indent) {
      if (c.isEmpty()) {
        sb.append("[]");
        return;
      }
      boolean scalars = true;
      for (Object o : c) {
        if (o instanceof Map || o instanceof Collection) {
          scalars = false;
          break;
        }
      }
      sb.append('[');
      boolean first = true;
      for (Object o : c) {
        if (!first) {
          sb.append(',');
          if (pretty && scalars) {
            sb.append(' ');
          }
        }
        first = false;
        if (!scalars) {
          newline(indent + 1);
        }
        value(o, indent + 1);
      }
      if (!scalars) {
        newline(indent);
      }
      sb.append(']');
    }

    void newline(int indent) {
      if (pretty) {
        sb.append('\n');
        for (int i = 0; i < indent; i++) {
          sb.append("  ");
        }
      }
    }

    void string(String str) {
      sb.append('"');
      for (int i = 0; i < str.length(); i++) {
        char c = str.charAt(i);
        switch (c) {
          case '"': sb.append("\\\""); break;
          case '\\': sb.append("\\\\"); break;
          case '\n': sb.append("\\n"); break;
          case '\r': sb.append("\\r"); break;
          case '\t': sb.append("\\t"); break;
          case '\b': sb.append("\\b"); break;
          case '\f': sb.append("\\f"); break;
          default:
            if (c < 0x20) {
              sb.append(String.format("\\u%04x", (int) c));
            } else {
              sb.append(c);
            }
        }
      }
      sb.append('"');
    }
  }
}
