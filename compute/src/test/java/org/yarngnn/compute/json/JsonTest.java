package org.yarngnn.compute.json;

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

  /*
   * Jackson's errors keep Jackson's own words (their wording is Jackson's to change): the tests check where they
   * point and that they are one line with a reason. The errors of this class's own checks keep its words.
   */
  @Test
  void errorsNameLineAndColumn() {
    assertJacksonError("{\n  \"a\": 1,\n  \"b\" 2\n}", 3, 7);
    assertError("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key \"a\"");
    assertJacksonError("[1, 2", 1, 6);
    assertJacksonError("{\"a\": tru}", 1, 7);
    assertJacksonError("\"abc", 1, 5);
    assertJacksonError("[1] x", 1, 5);
    assertJacksonError("01", 1, 2);
    assertJacksonError("[1.]", 1, 3);
    assertJacksonError("[\"\\x\"]", 1, 4);
    assertError("", 1, 1, "unexpected end of input");
    assertJacksonError("{\"a\": [1,\n2,,3]}", 2, 3);
  }

  @Test
  void refusesHostileNesting() {
    char[] deep = new char[100_000];
    Arrays.fill(deep, '[');
    Json.ParseException e = assertThrows(Json.ParseException.class, () -> Json.parse(new String(deep)));
    assertTrue(e.getMessage().startsWith("1:" + (Json.MAX_DEPTH + 2) + ": "), e.getMessage());
    assertTrue(e.getMessage().contains(String.valueOf(Json.MAX_DEPTH)), e.getMessage());
  }

  @Test
  void errorsNameWhereTheProblemIs() {
    assertJacksonError("{\"a\": [\n  {\"b\": [1,\n", 3, 1);
    assertJacksonError("{\"a\": 1,\n \"b\"", 2, 5);
    assertJacksonError("{\"a\": \"x\\\"y", 1, 12);
    assertJacksonError("[1, {\"ke", 1, 9);
    assertJacksonError("[\"a\u0001\"]", 1, 4);
    assertJacksonError("[\"\\u12g4\"]", 1, 7);
    assertJacksonError("{\"\\q\": 1}", 1, 4);
    assertJacksonError("[1 2]", 1, 4);
    assertJacksonError("[1}", 1, 3);
    assertJacksonError("{\"a\": 1,}", 1, 9);
    assertJacksonError("[1,]", 1, 4);
    assertJacksonError("{\"a\": {\"b\": nul}}", 1, 13);
    assertJacksonError("['a']", 1, 2);
    assertJacksonError("[1e]", 1, 3);
    assertJacksonError("[-]", 1, 3);
    assertJacksonError("[01]", 1, 3);
    assertJacksonError("/* c */ {}", 1, 1);
    assertJacksonError("{\"a\": 1}}", 1, 9);
    assertError("1 2", 1, 3, "unexpected content after the JSON value");
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
    assertJacksonError("[NaN]", 1, 5);
    assertJacksonError("{\"w\": -Infinity}", 1, 16);
    assertJacksonError("[Infinity]", 1, 10);
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
    assertTrue(e.getMessage().startsWith("1:" + (Json.MAX_DEPTH + 2) + ": "), e.getMessage());
    assertTrue(e.getMessage().contains("512"), e.getMessage());
    e = assertThrows(Json.ParseException.class, () -> Json.parse("{\"k\":".repeat(Json.MAX_DEPTH + 1)));
    assertTrue(e.getMessage().contains("512"), e.getMessage());
  }

  @Test
  void boundsStringKeyAndNumberLengths() {
    String longest = "x".repeat(Json.MAX_STRING_LENGTH);
    assertEquals(List.of(longest), Json.parse("[\"" + longest + "\"]"));
    Json.ParseException e = assertThrows(Json.ParseException.class, () -> Json.parse("[\"" + longest + "x\"]"));
    assertTrue(e.getMessage().contains(String.valueOf(Json.MAX_STRING_LENGTH)), e.getMessage());
    String key = "k".repeat(Json.MAX_KEY_LENGTH);
    assertEquals(Map.of(key, 1L), Json.parse("{\"" + key + "\": 1}"));
    e = assertThrows(Json.ParseException.class, () -> Json.parse("{\"" + key + "k\": 1}"));
    assertTrue(e.getMessage().contains(String.valueOf(Json.MAX_KEY_LENGTH)), e.getMessage());
    String fraction = "-0." + "3".repeat(Json.MAX_NUMBER_LENGTH - 3);
    assertEquals(List.of(Double.parseDouble(fraction)), Json.parse("[" + fraction + "]"));
    for (String tooLong : List.of("0." + "3".repeat(Json.MAX_NUMBER_LENGTH + 1), "1".repeat(Json.MAX_NUMBER_LENGTH + 1),
        "1e" + "0".repeat(Json.MAX_NUMBER_LENGTH))) {
      e = assertThrows(Json.ParseException.class, () -> Json.parse("[" + tooLong + "]"));
      assertTrue(e.getMessage().contains(String.valueOf(Json.MAX_NUMBER_LENGTH)), e.getMessage());
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
    Json.ParseException e = assertJacksonError(text, line, column);
    assertTrue(e.getMessage().contains(fragment), e.getMessage());
  }

  /** An error at line:column on one line: "line:column: reason". */
  private static Json.ParseException assertJacksonError(String text, int line, int column) {
    Json.ParseException e = assertThrows(Json.ParseException.class, () -> Json.parse(text));
    assertEquals(line, e.line(), e.getMessage());
    assertEquals(column, e.column(), e.getMessage());
    String prefix = line + ":" + column + ": ";
    assertTrue(e.getMessage().startsWith(prefix), e.getMessage());
    assertTrue(e.getMessage().length() > prefix.length() && !e.getMessage().contains("\n"), e.getMessage());
    return e;
  }
}
