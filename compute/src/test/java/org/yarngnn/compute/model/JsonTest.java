package org.yarngnn.compute.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
  @Test
  void parsesAllValueTypes() {
    Object v = Json.parse(" {\"s\": \"a\\\"b\\\\c\\n\\u00e9\\ud83d\\ude00\", \"i\": -42, \"big\": 12345678901234567890,"
        + " \"d\": 1.5e2, \"z\": 0, \"t\": true, \"f\": false, \"n\": null, \"l\": [1, [], {}]}\n");
    Map<?, ?> m = (Map<?, ?>) v;
    assertEquals("a\"b\\c\n\u00e9\ud83d\ude00", m.get("s"));
    assertEquals(-42L, m.get("i"));
    assertEquals(1.2345678901234567e19, m.get("big"));
    assertEquals(150.0, m.get("d"));
    assertEquals(0L, m.get("z"));
    assertEquals(Boolean.TRUE, m.get("t"));
    assertEquals(Boolean.FALSE, m.get("f"));
    assertTrue(m.containsKey("n"));
    assertNull(m.get("n"));
    assertEquals(List.of(1L, List.of(), Map.of()), m.get("l"));
    assertEquals(List.of("s", "i", "big", "d", "z", "t", "f", "n", "l"), List.copyOf(m.keySet()));
  }

  @Test
  void writeThenParseGivesTheSameValue() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", "tab\there \"quoted\" \u0001");
    m.put("count", 7L);
    m.put("ratio", 0.25);
    m.put("flags", List.of(true, false));
    m.put("nothing", null);
    m.put("nested", List.of(Map.of("k", List.of(1L, 2L)), List.of()));
    assertEquals(m, Json.parse(Json.write(m)));
    assertEquals(m, Json.parse(Json.writeCompact(m)));
  }

  @Test
  void prettyPrintingIsStable() {
    Map<String, Object> unordered = new HashMap<>();
    unordered.put("b", List.of(1L, 2L));
    unordered.put("a", Map.of("x", 0.2f));
    String expected = "{\n  \"a\": {\n    \"x\": 0.2\n  },\n  \"b\": [1, 2]\n}\n";
    assertEquals(expected, Json.write(unordered));
    assertEquals("{\"a\":{\"x\":0.2},\"b\":[1,2]}", Json.writeCompact(unordered));
  }

  @Test
  void writesFloatsInTheirShortestForm() {
    assertEquals("[0.2,1.0E-5,3.0]", Json.writeCompact(List.of(0.2f, 1e-5f, 3.0f)));
    assertThrows(IllegalArgumentException.class, () -> Json.writeCompact(List.of(Double.NaN)));
  }

  @Test
  void errorsNameLineAndColumn() {
    assertError("{\n  \"a\": 1,\n  \"b\" 2\n}", 3, 7, "expected ':'");
    assertError("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key \"a\"");
    assertError("[1, 2", 1, 6, "unterminated array");
    assertError("{\"a\": tru}", 1, 7, "expected 'true'");
    assertError("\"abc", 1, 1, "unterminated string");
    assertError("[1] x", 1, 5, "after the JSON value");
    assertError("01", 1, 2, "after the JSON value");
    assertError("[1.]", 1, 4, "digit expected");
    assertError("[\"\\x\"]", 1, 3, "invalid escape");
    assertError("", 1, 1, "unexpected end of input");
    assertError("{\"a\": [1,\n2,,3]}", 2, 3, "unexpected ','");
  }

  @Test
  void refusesHostileNesting() {
    char[] deep = new char[100_000];
    Arrays.fill(deep, '[');
    Json.ParseException e = assertThrows(Json.ParseException.class, () -> Json.parse(new String(deep)));
    assertTrue(e.getMessage().contains("nested deeper"), e.getMessage());
  }

  private static void assertError(String text, int line, int column, String fragment) {
    Json.ParseException e = assertThrows(Json.ParseException.class, () -> Json.parse(text));
    assertEquals(line, e.line(), e.getMessage());
    assertEquals(column, e.column(), e.getMessage());
    assertTrue(e.getMessage().startsWith(line + ":" + column + ": "), e.getMessage());
    assertTrue(e.getMessage().contains(fragment), e.getMessage());
  }
}
