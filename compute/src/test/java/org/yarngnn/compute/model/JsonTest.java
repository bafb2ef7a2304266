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

  @Test
  void errorsNameWhereTheProblemIs() {
    assertError("{\"a\": [\n  {\"b\": [1,\n", 3, 1, "unterminated array (opened at 2:9)");
    assertError("{\"a\": 1,\n \"b\"", 2, 5, "unterminated object (opened at 1:1)");
    assertError("{\"a\": \"x\\\"y", 1, 7, "unterminated string");
    assertError("[1, {\"ke", 1, 6, "unterminated string");
    assertError("[\"a\u0001\"]", 1, 4, "control character in string");
    assertError("[\"\\u12g4\"]", 1, 7, "invalid hex digit");
    assertError("{\"\\q\": 1}", 1, 3, "invalid escape '\\q'");
    assertError("[1 2]", 1, 4, "expected ',' or ']'");
    assertError("[1}", 1, 3, "expected ',' or ']'");
    assertError("{\"a\": 1,}", 1, 9, "expected a string key");
    assertError("[1,]", 1, 4, "unexpected ']', expected a value");
    assertError("{\"a\": {\"b\": nul}}", 1, 13, "expected 'null'");
    assertError("['a']", 1, 2, "unexpected ''', expected a value");
    assertError("[1e]", 1, 4, "digit expected in exponent");
    assertError("[-]", 1, 3, "invalid number");
    assertError("[01]", 1, 3, "leading zero");
    assertError("/* c */ {}", 1, 1, "JSON has no comments");
    assertError("{\"a\": 1}}", 1, 9, "unexpected '}' after the JSON value");
    assertError("1 2", 1, 3, "unexpected '2' after the JSON value");
    assertError("  \n  ", 2, 3, "unexpected end of input");
  }

  @Test
  void refusesDuplicateKeysNamingTheKey() {
    assertError("{\"a\": {\"c\": 2,\n  \"c\": 3}, \"b\": 1}", 2, 3, "duplicate key \"c\"");
    assertError("{\"x\": 1, \"a\\\"b\": 1, \"a\\\"b\": 2}", 1, 21, "duplicate key \"a\"b\"");
    // The same key in sibling objects is fine.
    assertEquals(List.of(Map.of("a", 1L), Map.of("a", 2L)), Json.parse("[{\"a\": 1}, {\"a\": 2}]"));
  }

  @Test
  void refusesNanAndInfinity() {
    assertError("[NaN]", 1, 2, "'NaN' is not a JSON number");
    assertError("{\"w\": -Infinity}", 1, 7, "'-Infinity' is not a JSON number");
    assertError("[Infinity]", 1, 2, "'Infinity' is not a JSON number");
    // A number that is only infinite as a double would not write back either.
    assertError("{\"x\": 1,\n \"w\":  1e999}", 2, 8, "number out of range");
    assertError("[-1" + "0".repeat(400) + "]", 1, 2, "number out of range");
    assertEquals(List.of(1e308, 0.0), Json.parse("[1e308, 1e-999]"));
    assertThrows(IllegalArgumentException.class, () -> Json.write(Map.of("x", Float.POSITIVE_INFINITY)));
    assertThrows(IllegalArgumentException.class, () -> Json.write(List.of(Double.NEGATIVE_INFINITY)));
  }

  @Test
  void nestsUpToTheLimit() {
    String ok = "[".repeat(Json.MAX_DEPTH) + "]".repeat(Json.MAX_DEPTH);
    Object v = Json.parse(ok);
    for (int i = 1; i < Json.MAX_DEPTH; i++) {
      v = ((List<?>) v).get(0);
    }
    assertEquals(List.of(), v);
    Json.ParseException e = assertThrows(Json.ParseException.class, () -> Json.parse("[" + ok + "]"));
    assertEquals("1:" + (Json.MAX_DEPTH + 2) + ": nested deeper than 512", e.getMessage());
    e = assertThrows(Json.ParseException.class, () -> Json.parse("{\"k\":".repeat(Json.MAX_DEPTH + 1)));
    assertTrue(e.getMessage().endsWith(": nested deeper than 512"), e.getMessage());
  }

  @Test
  void boundsStringKeyAndNumberLengths() {
    String longest = "x".repeat(Json.MAX_STRING_LENGTH);
    assertEquals(List.of(longest), Json.parse("[\"" + longest + "\"]"));
    Json.ParseException e = assertThrows(Json.ParseException.class, () -> Json.parse("[\"" + longest + "x\"]"));
    assertTrue(e.getMessage().endsWith(": string longer than " + Json.MAX_STRING_LENGTH + " characters"),
        e.getMessage());
    String key = "k".repeat(Json.MAX_KEY_LENGTH);
    assertEquals(Map.of(key, 1L), Json.parse("{\"" + key + "\": 1}"));
    e = assertThrows(Json.ParseException.class, () -> Json.parse("{\"" + key + "k\": 1}"));
    assertTrue(e.getMessage().endsWith(": key longer than " + Json.MAX_KEY_LENGTH + " characters"), e.getMessage());
    String fraction = "-0." + "3".repeat(Json.MAX_NUMBER_LENGTH - 3);
    assertEquals(List.of(Double.parseDouble(fraction)), Json.parse("[" + fraction + "]"));
    for (String tooLong : List.of("0." + "3".repeat(Json.MAX_NUMBER_LENGTH + 1), "1".repeat(Json.MAX_NUMBER_LENGTH + 1),
        "1e" + "0".repeat(Json.MAX_NUMBER_LENGTH))) {
      e = assertThrows(Json.ParseException.class, () -> Json.parse("[" + tooLong + "]"));
      assertTrue(e.getMessage().endsWith(": number longer than " + Json.MAX_NUMBER_LENGTH + " characters"),
          e.getMessage());
    }
  }

  @Test
  void prettyPrintsNestedAndEmptyContainers() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("z", List.of(List.of(1L, 2L), Map.of("a", "b"), 3L));
    m.put("e", List.of());
    m.put("o", Map.of());
    m.put("s", Arrays.asList("x", true, null, 2.5));
    String expected = "{\n  \"z\": [\n    [1, 2],\n    {\n      \"a\": \"b\"\n    },\n    3\n  ],\n"
        + "  \"e\": [],\n  \"o\": {},\n  \"s\": [\"x\", true, null, 2.5]\n}\n";
    assertEquals(expected, Json.write(m));
    assertEquals("{\"z\":[[1,2],{\"a\":\"b\"},3],\"e\":[],\"o\":{},\"s\":[\"x\",true,null,2.5]}",
        Json.writeCompact(m));
    assertEquals("[]\n", Json.write(List.of()));
    assertEquals("\"q\\\"\\n\"\n", Json.write("q\"\n"));
    assertThrows(IllegalArgumentException.class, () -> Json.write(Map.of(1, 2)));
    assertThrows(IllegalArgumentException.class, () -> Json.write(List.of(new Object())));
  }

  private static void assertError(String text, int line, int column, String fragment) {
    Json.ParseException e = assertThrows(Json.ParseException.class, () -> Json.parse(text));
    assertEquals(line, e.line(), e.getMessage());
    assertEquals(column, e.column(), e.getMessage());
    assertTrue(e.getMessage().startsWith(line + ":" + column + ": "), e.getMessage());
    assertTrue(e.getMessage().contains(fragment), e.getMessage());
  }
}
