package org.yarngnn.compute.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.PrettyPrinter;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The JSON reader and writer for model.json, the safetensors header and the partition manifests, on
 * jackson-core's streaming API ({@link JsonParser}, {@link JsonGenerator}; no databind).
 *
 * <p>Why Jackson and not a parser of our own: its tokenizer is well tried, and its {@link StreamReadConstraints}
 * bound what hostile input can make us allocate (string, key and number lengths, nesting depth). On top of it
 * this class is strict: duplicate keys, trailing content, NaN and Infinity (also a number too large for a
 * double) are errors, and every error is a {@link ParseException} naming the 1-based line:column and the
 * reason, in Jackson's own words where Jackson found it.
 *
 * <p>Parsing gives {@code Map<String,Object>} (keys in file order), {@code List<Object>}, {@code String},
 * {@code Long} (a number without fraction or exponent that fits), {@code Double} (any other number),
 * {@code Boolean} and {@code null}.
 *
 * <p>Writing accepts the same types plus other {@link Number}s and {@link Collection}s. Keys are written in a
 * stable order: the map's own order for {@link LinkedHashMap} and {@link SortedMap}, sorted otherwise.
 * {@code Float}s are written with their shortest float form (0.2f as {@code 0.2}, not 0.20000000298...).
 */
public final class Json {
  /** Containers nested deeper than this are refused (recursion and allocation stay bounded). */
  static final int MAX_DEPTH = 512;
  /** Longest string value, in chars. */
  static final int MAX_STRING_LENGTH = 20_000_000;
  /** Longest object key, in chars. */
  static final int MAX_KEY_LENGTH = 50_000;
  /** Longest number, in chars (as Jackson counts them: a number refused is longer than this). */
  static final int MAX_NUMBER_LENGTH = 1_000;

  private static final JsonFactory FACTORY = JsonFactory.builder()
      // Hostile keys should neither fill the JVM's string table nor the shared symbol table.
      .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
      .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES)
      .streamReadConstraints(StreamReadConstraints.builder()
          .maxNestingDepth(MAX_DEPTH)
          .maxStringLength(MAX_STRING_LENGTH)
          .maxNameLength(MAX_KEY_LENGTH)
          .maxNumberLength(MAX_NUMBER_LENGTH)
          .build())
      .build();

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
    try (JsonParser p = FACTORY.createParser(text)) {
      return new Reader(p).document();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // closing a parser over a String; does not happen
    }
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
    return generate(value, new Layout()) + "\n";
  }

  /** JSON on one line without spaces. */
  public static String writeCompact(Object value) {
    return generate(value, null);
  }

  /**
   * Recursive descent over Jackson's tokens. Jackson's exceptions become {@link ParseException}s carrying the
   * first line of Jackson's own message and its location, unworded: matching its message text would break
   * quietly when Jackson rewords one. Only the checks this class adds itself have wordings of their own.
   */
  private static final class Reader {
    private final JsonParser p;

    Reader(JsonParser p) {
      this.p = p;
    }

    Object document() throws IOException {
      JsonToken first = next();
      if (first == null) {
        throw error(p.currentLocation(), "unexpected end of input, expected a value");
      }
      Object value = value(first);
      if (next() != null) {
        throw error(p.currentTokenLocation(), "unexpected content after the JSON value");
      }
      return value;
    }

    private Object value(JsonToken t) throws IOException {
      if (t == null) { // Jackson reports the end of input inside a container itself; this is only a safety net
        throw error(p.currentLocation(), "unexpected end of input, expected a value");
      }
      switch (t) {
        case START_OBJECT:
          return object();
        case START_ARRAY:
          return array();
        case VALUE_STRING:
          try {
            return p.getText(); // Jackson decodes a string value lazily: errors in it show up here
          } catch (JsonProcessingException e) {
            throw jacksons(e);
          }
        case VALUE_NUMBER_INT:
          if (p.getNumberType() == JsonParser.NumberType.INT || p.getNumberType() == JsonParser.NumberType.LONG) {
            return p.getLongValue();
          }
          return finite(p.getDoubleValue()); // an integer beyond int64 is still a valid JSON number
        case VALUE_NUMBER_FLOAT:
          return finite(p.getDoubleValue());
        case VALUE_TRUE:
          return Boolean.TRUE;
        case VALUE_FALSE:
          return Boolean.FALSE;
        case VALUE_NULL:
          return null;
        default: // Jackson reports misplaced tokens itself
          throw error(p.currentTokenLocation(), "unexpected " + t);
      }
    }

    private Map<String, Object> object() throws IOException {
      Map<String, Object> map = new LinkedHashMap<>();
      JsonToken t;
      while ((t = next()) == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        if (map.containsKey(key)) {
          throw error(p.currentTokenLocation(), "duplicate key \"" + key + "\"");
        }
        map.put(key, value(next()));
      }
      expectEnd(t, JsonToken.END_OBJECT);
      return map;
    }

    private List<Object> array() throws IOException {
      List<Object> list = new ArrayList<>();
      JsonToken t;
      while ((t = next()) != JsonToken.END_ARRAY) {
        if (t == null) {
          expectEnd(t, JsonToken.END_ARRAY);
        }
        list.add(value(t));
      }
      return list;
    }

    private void expectEnd(JsonToken t, JsonToken end) {
      if (t != end) { // Jackson reports an unterminated container itself; this is only a safety net
        throw error(p.currentLocation(), "expected " + end);
      }
    }

    /** A number Jackson accepts but a double cannot hold (1e999) would not write back: refused. */
    private Double finite(double d) {
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw error(p.currentTokenLocation(), "number out of range");
      }
      return d;
    }

    private JsonToken next() throws IOException {
      try {
        return p.nextToken();
      } catch (JsonProcessingException e) {
        throw jacksons(e);
      }
    }

    /** Jackson's exception as the first line of its own message, at the location it names. */
    private ParseException jacksons(JsonProcessingException e) {
      JsonLocation where = e.getLocation();
      if (where == null || where.getLineNr() < 1 || where.getColumnNr() < 1) {
        where = p.currentLocation();
      }
      String reason = String.valueOf(e.getOriginalMessage()).strip();
      int eol = reason.indexOf('\n');
      return error(where, eol < 0 ? reason : reason.substring(0, eol).strip());
    }

    private static ParseException error(JsonLocation where, String message) {
      return new ParseException(Math.max(1, where.getLineNr()), Math.max(1, where.getColumnNr()), oneLine(message));
    }
  }

  private static String generate(Object value, Layout layout) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      if (layout != null) {
        g.setPrettyPrinter(layout);
      }
      new Writer(g, layout).value(value);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot write JSON: " + e.getMessage(), e);
    }
    return out.toString();
  }

  private static final class Writer {
    private final JsonGenerator g;
    private final Layout layout;

    Writer(JsonGenerator g, Layout layout) {
      this.g = g;
      this.layout = layout;
    }

    void value(Object v) throws IOException {
      if (v == null) {
        g.writeNull();
      } else if (v instanceof String str) {
        g.writeString(str);
      } else if (v instanceof Boolean b) {
        g.writeBoolean(b);
      } else if (v instanceof Float f) {
        finite(f);
        g.writeNumber(f.floatValue()); // Float.toString: the shortest form that reads back as this float
      } else if (v instanceof Double d) {
        finite(d);
        g.writeNumber(d.doubleValue());
      } else if (v instanceof BigDecimal d) {
        finite(d.doubleValue());
        g.writeNumber(d);
      } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
        g.writeNumber(((Number) v).longValue());
      } else if (v instanceof BigInteger i) {
        g.writeNumber(i);
      } else if (v instanceof Number n) {
        g.writeNumber(n.toString());
      } else if (v instanceof Map<?, ?> m) {
        object(m);
      } else if (v instanceof Collection<?> c) {
        array(c);
      } else {
        throw new IllegalArgumentException("cannot write " + v.getClass().getName() + " as JSON");
      }
    }

    private static void finite(double d) {
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new IllegalArgumentException("JSON has no representation for " + d);
      }
    }

    void object(Map<?, ?> m) throws IOException {
      Map<?, ?> ordered = m instanceof LinkedHashMap || m instanceof SortedMap ? m : new TreeMap<>(m);
      g.writeStartObject();
      for (Map.Entry<?, ?> e : ordered.entrySet()) {
        if (!(e.getKey() instanceof String key)) {
          throw new IllegalArgumentException("JSON object keys must be strings, got " + e.getKey());
        }
        g.writeFieldName(key);
        value(e.getValue());
      }
      g.writeEndObject();
    }

    void array(Collection<?> c) throws IOException {
      if (layout != null) {
        boolean scalars = true;
        for (Object o : c) {
          if (o instanceof Map || o instanceof Collection) {
            scalars = false;
            break;
          }
        }
        layout.nextArrayOnOneLine = scalars;
      }
      g.writeStartArray();
      for (Object o : c) {
        value(o);
      }
      g.writeEndArray();
    }
  }

  /**
   * The pretty-printed layout: two-space indent, {@code "key": value}, an array of scalars on one line
   * ({@code [1, 2]}), other arrays one element a line, empty containers as {@code {}} and {@code []}.
   */
  private static final class Layout implements PrettyPrinter {
    private int depth;
    /** Set by the writer just before it starts an array. */
    boolean nextArrayOnOneLine;
    /** Per open container depth: whether the array there is on one line. */
    private final BitSet oneLine = new BitSet();

    @Override
    public void writeRootValueSeparator(JsonGenerator g) {
      // One value per document.
    }

    @Override
    public void writeStartObject(JsonGenerator g) throws IOException {
      g.writeRaw('{');
      oneLine.clear(++depth);
    }

    @Override
    public void beforeObjectEntries(JsonGenerator g) throws IOException {
      newline(g);
    }

    @Override
    public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
      g.writeRaw(": ");
    }

    @Override
    public void writeObjectEntrySeparator(JsonGenerator g) throws IOException {
      g.writeRaw(',');
      newline(g);
    }

    @Override
    public void writeEndObject(JsonGenerator g, int entries) throws IOException {
      depth--;
      if (entries > 0) {
        newline(g);
      }
      g.writeRaw('}');
    }

    @Override
    public void writeStartArray(JsonGenerator g) throws IOException {
      g.writeRaw('[');
      oneLine.set(++depth, nextArrayOnOneLine);
    }

    @Override
    public void beforeArrayValues(JsonGenerator g) throws IOException {
      if (!oneLine.get(depth)) {
        newline(g);
      }
    }

    @Override
    public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
      if (oneLine.get(depth)) {
        g.writeRaw(", ");
      } else {
        g.writeRaw(',');
        newline(g);
      }
    }

    @Override
    public void writeEndArray(JsonGenerator g, int values) throws IOException {
      boolean wasOneLine = oneLine.get(depth--);
      if (!wasOneLine && values > 0) {
        newline(g);
      }
      g.writeRaw(']');
    }

    private void newline(JsonGenerator g) throws IOException {
      g.writeRaw('\n');
      for (int i = 0; i < depth; i++) {
        g.writeRaw("  ");
      }
    }
  }

  /** {@code text} with control characters escaped, so that a message naming a key or token stays one line. */
  private static String oneLine(String text) {
    StringBuilder b = new StringBuilder(text.length());
    text.codePoints().forEach(c -> {
      switch (c) {
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            b.append(String.format("\\u%04x", c));
          } else {
            b.appendCodePoint(c);
          }
        }
      }
    });
    return b.toString();
  }
}
