package org.yarngnn.io.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Parquet tables written by an independent writer (DuckDB): integer id columns are taken by their logical type
 * (unsigned, decimal of scale 0) and refused otherwise (scaled decimals, dates, timestamps, floats, strings),
 * naming the file and column; values and codecs as DuckDB writes them.
 */
class ParquetTypesDuckDbTest {
  @TempDir
  static java.nio.file.Path tmp;
  private static Connection db;
  private static int files;

  @BeforeAll
  static void open() throws SQLException {
    db = DriverManager.getConnection("jdbc:duckdb:");
  }

  @AfterAll
  static void close() throws SQLException {
    db.close();
  }

  /** Writes {@code select} to a new Parquet file with DuckDB. */
  private static Path parquet(String select, String options) {
    java.nio.file.Path p = tmp.resolve("t" + (files++) + ".parquet");
    try (Statement s = db.createStatement()) {
      s.execute("COPY (" + select + ") TO '" + p + "' (FORMAT parquet" + options + ")");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return new Path(p.toUri());
  }

  private static Path parquet(String select) {
    return parquet(select, "");
  }

  private static List<long[]> edges(Path p) {
    List<long[]> out = new ArrayList<>();
    EdgeTable.open(TempTables.CONF, p, TableReadOptions.defaults()).read((s, d, w, r) -> out.add(new long[] {s, d}));
    return out;
  }

  private static List<Long> nodeIds(Path p) {
    List<Long> out = new ArrayList<>();
    NodeTable.open(TempTables.CONF, p, TableReadOptions.defaults()).read((i, l, s, f, r) -> out.add(i));
    return out;
  }

  private static void assertRefused(Runnable read, Path file, String reason) {
    InputException e = assertThrows(InputException.class, read::run);
    assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
    assertTrue(e.getMessage().contains(reason), "'" + e.getMessage() + "' should contain '" + reason + "'");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "TINYINT, -128, 127",
      "SMALLINT, -32768, 32767",
      "INTEGER, -2147483648, 2147483647",
      "BIGINT, -9223372036854775808, 9223372036854775807",
      "UTINYINT, 0, 255",
      "USMALLINT, 0, 65535",
      "UINTEGER, 2147483648, 4294967295",
      "UBIGINT, 4294967296, 9223372036854775807",
      "'DECIMAL(9,0)', -999999999, 999999999",
      "'DECIMAL(18,0)', -999999999999999999, 999999999999999999",
  })
  void integerIdsAreReadByTheirLogicalType(String type, String a, String b) {
    // Several rows so that DuckDB dictionary-encodes some pages and writes others plain.
    Path p = parquet("SELECT (CASE WHEN i % 2 = 0 THEN " + a + " ELSE " + b + " END)::" + type + " AS src, "
        + b + "::" + type + " AS dst FROM range(1000) t(i)");
    List<long[]> e = edges(p);
    assertEquals(1000, e.size());
    assertArrayEquals(new long[] {Long.parseLong(a), Long.parseLong(b)}, e.get(0));
    assertArrayEquals(new long[] {Long.parseLong(b), Long.parseLong(b)}, e.get(1));
    Path nodes = parquet("SELECT " + b + "::" + type + " AS id, [1.5, 2.5]::FLOAT[] AS features");
    assertEquals(List.of(Long.parseLong(b)), nodeIds(nodes));
  }

  @Test
  void unsignedIdsAboveTwoToThe31AreNotNegative() {
    Path p = parquet("SELECT (3000000000 + i)::UINTEGER AS id, [1.0]::FLOAT[] AS features FROM range(3) t(i)");
    assertEquals(List.of(3_000_000_000L, 3_000_000_001L, 3_000_000_002L), nodeIds(p));
  }

  @Test
  void uint64AboveTwoToThe63IsRefusedNamingTheRow() {
    Path p = parquet("SELECT (CASE WHEN i = 2 THEN 9223372036854775808 ELSE i END)::UBIGINT AS src, "
        + "1::UBIGINT AS dst FROM range(5) t(i)");
    assertRefused(() -> edges(p), p, ":3: src 9223372036854775808 does not fit int64");
    Path nodes = parquet("SELECT 18446744073709551615::UBIGINT AS id, [1.0]::FLOAT[] AS features");
    assertRefused(() -> nodeIds(nodes), nodes, ":1: id 18446744073709551615 does not fit int64");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "DECIMAL(18,2)|1.00::DECIMAL(18,2)|a DECIMAL with scale 2 is not an integer",
      "DECIMAL(9,3)|1::DECIMAL(9,3)|a DECIMAL with scale 3 is not an integer",
      "DATE|DATE '2024-01-02'|column 'src' has type",
      "TIMESTAMP|TIMESTAMP '2024-01-02 03:04:05'|column 'src' has type",
      "TIME|TIME '03:04:05'|column 'src' has type",
      "DOUBLE|1.0::DOUBLE|column 'src' has type",
      "FLOAT|1.0::FLOAT|column 'src' has type",
      "VARCHAR|CAST(1 AS VARCHAR)|column 'src' has type",
      "BOOLEAN|true|column 'src' has type",
      "DECIMAL(38,0)|1::DECIMAL(38,0)|is a DECIMAL stored as FIXED_LEN_BYTE_ARRAY, which is not supported",
  })
  void nonIntegerIdColumnsAreRefusedNamingFileAndColumn(String name, String value, String reason) {
    Path p = parquet("SELECT " + value + " AS src, 2::BIGINT AS dst");
    assertRefused(() -> edges(p), p, reason);
    Path nodes = parquet("SELECT " + value + " AS id, [1.0]::FLOAT[] AS features");
    assertRefused(() -> nodeIds(nodes), nodes, "column 'id'");
  }

  @Test
  void theSmallestInt64IsAnOrdinaryId() {
    Path p = parquet("SELECT (-9223372036854775807 - 1)::BIGINT AS id, [1.0]::FLOAT[] AS features UNION ALL "
        + "SELECT 9223372036854775807::BIGINT, [2.0]::FLOAT[]");
    assertEquals(List.of(Long.MIN_VALUE, Long.MAX_VALUE), nodeIds(p));
  }

  @Test
  void doubleWeightsOutsideFloatRangeOrNotFiniteAreRefused() {
    Path ok = parquet("SELECT 1::BIGINT AS src, 2::BIGINT AS dst, 3.4e38::DOUBLE AS weight");
    float[] w = new float[1];
    EdgeTable.open(TempTables.CONF, ok, TableReadOptions.defaults()).read((s, d, x, r) -> w[0] = x);
    assertEquals(3.4e38f, w[0]);
    Path big = parquet("SELECT i::BIGINT AS src, 2::BIGINT AS dst, "
        + "(CASE WHEN i = 3 THEN -1e300 ELSE 0.5 END)::DOUBLE AS weight FROM range(10) t(i)");
    assertRefused(() -> edges(big), big, ":4: weight is outside float range");
    Path nan = parquet("SELECT 1::BIGINT AS src, 2::BIGINT AS dst, 'NaN'::DOUBLE AS weight");
    assertRefused(() -> edges(nan), nan, ":1: weight is NaN or infinite");
    Path inf = parquet("SELECT 1::BIGINT AS src, 2::BIGINT AS dst, 'inf'::DOUBLE AS weight");
    assertRefused(() -> edges(inf), inf, ":1: weight is NaN or infinite");
  }

  @ParameterizedTest
  @ValueSource(strings = {"uncompressed", "snappy", "gzip", "zstd", "lz4_raw"})
  void codecsParquetMrReads(String codec) {
    Path p = parquet("SELECT i::BIGINT AS src, (i + 1)::BIGINT AS dst FROM range(5000) t(i)",
        ", COMPRESSION " + codec);
    List<long[]> e = edges(p);
    assertEquals(5000, e.size());
    assertArrayEquals(new long[] {4999, 5000}, e.get(4999));
  }

  @Test
  void aCodecTheClasspathLacksIsNamedWithItsFile() {
    Path p = parquet("SELECT i::BIGINT AS src, (i + 1)::BIGINT AS dst FROM range(100) t(i)", ", COMPRESSION brotli");
    assertRefused(() -> edges(p), p, "compression codec BROTLI is not available");
  }
}
