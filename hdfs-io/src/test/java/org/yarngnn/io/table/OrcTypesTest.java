package org.yarngnn.io.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** ORC id columns by type (written with orc-core): integers and decimal(p,0) accepted, the rest refused. */
class OrcTypesTest {
  @TempDir
  java.nio.file.Path tmp;
  private int n;

  /** An edges file {@code struct<src:TYPE,dst:bigint[,weight:double]>} with the given src values. */
  private Path edges(String srcType, long[] src, double[] weights) throws Exception {
    Path p = TempTables.path(tmp, "e" + (n++) + ".orc");
    TypeDescription schema = TypeDescription.fromString(
        "struct<src:" + srcType + ",dst:bigint" + (weights != null ? ",weight:double" : "") + ">");
    try (Writer w = OrcFile.createWriter(p, OrcFile.writerOptions(TempTables.CONF).setSchema(schema))) {
      VectorizedRowBatch b = schema.createRowBatch();
      for (int i = 0; i < src.length; i++) {
        set(b.cols[0], i, src[i]);
        ((LongColumnVector) b.cols[1]).vector[i] = 7;
        if (weights != null) {
          ((DoubleColumnVector) b.cols[2]).vector[i] = weights[i];
        }
      }
      b.size = src.length;
      w.addRowBatch(b);
    }
    return p;
  }

  private static void set(ColumnVector v, int i, long value) {
    if (v instanceof LongColumnVector) {
      ((LongColumnVector) v).vector[i] = value;
    } else if (v instanceof DecimalColumnVector) {
      ((DecimalColumnVector) v).set(i, HiveDecimal.create(value));
    } else if (v instanceof DoubleColumnVector) {
      ((DoubleColumnVector) v).vector[i] = value;
    } else if (v instanceof TimestampColumnVector) {
      ((TimestampColumnVector) v).time[i] = value;
    } else {
      ((BytesColumnVector) v).setVal(i, Long.toString(value).getBytes());
    }
  }

  private static List<Long> srcs(Path p) {
    List<Long> out = new ArrayList<>();
    EdgeTable.open(TempTables.CONF, p, TableReadOptions.defaults()).read((s, d, w, r) -> out.add(s));
    return out;
  }

  @ParameterizedTest
  @CsvSource({"tinyint, -128, 127", "smallint, -32768, 32767", "int, -2147483648, 2147483647",
      "bigint, -9223372036854775808, 9223372036854775807", "'decimal(18,0)', -999999999999999999, 999999999999999999",
      "'decimal(5,0)', -99999, 99999"})
  void integerTypesAreAccepted(String type, long a, long b) throws Exception {
    assertEquals(List.of(a, b, 0L), srcs(edges(type, new long[] {a, b, 0}, null)));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "decimal(18,2)|a decimal with scale 2 is not an integer",
      "decimal(38,0)|which is not supported",
      "date|column 'src' has type date",
      "timestamp|column 'src' has type timestamp",
      "float|column 'src' has type float",
      "double|column 'src' has type double",
      "string|column 'src' has type string",
      "boolean|column 'src' has type boolean",
  })
  void otherTypesAreRefusedNamingFileAndColumn(String type, String reason) throws Exception {
    Path p = edges(type, new long[] {1}, null);
    InputException e = assertThrows(InputException.class, () -> srcs(p));
    assertTrue(e.getMessage().startsWith(p + ": "), e.getMessage());
    assertTrue(e.getMessage().contains(reason), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(doubles = {1e300, -3.5e38})
  void doubleWeightsOutsideFloatRangeAreRefused(double weight) throws Exception {
    Path p = edges("bigint", new long[] {1, 2}, new double[] {0.5, weight});
    InputException e = assertThrows(InputException.class, () -> srcs(p));
    assertTrue(e.getMessage().startsWith(p + ":2: weight " + weight + " is outside float range"), e.getMessage());
  }

  @Test
  void nanWeightsAreRefused() throws Exception {
    Path p = edges("bigint", new long[] {1}, new double[] {Double.NaN});
    InputException e = assertThrows(InputException.class, () -> srcs(p));
    assertTrue(e.getMessage().startsWith(p + ":1: weight is NaN or infinite"), e.getMessage());
  }
}
