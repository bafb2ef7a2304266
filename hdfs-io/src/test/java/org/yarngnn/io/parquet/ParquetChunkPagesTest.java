package org.yarngnn.io.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.yarngnn.io.table.TempTables;

/**
 * Column chunks read through a window smaller than a page, or than a page header, or a few pages wide, give
 * the pages parquet-mr's own reader gives, byte for byte: v1 and v2 pages, dictionary pages, Snappy, gzip and
 * uncompressed chunks, several row groups; with and without a reused page buffer.
 */
class ParquetChunkPagesTest {
  private static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message t {\n"
      + "  required int64 src;\n"
      + "  required binary split (STRING);\n"
      + "  required group features (LIST) { repeated group list { required float element; } }\n"
      + "}\n");

  @TempDir
  java.nio.file.Path tmp;

  @ParameterizedTest
  @CsvSource({"SNAPPY, PARQUET_1_0", "SNAPPY, PARQUET_2_0", "UNCOMPRESSED, PARQUET_1_0",
      "UNCOMPRESSED, PARQUET_2_0", "GZIP, PARQUET_1_0"})
  void anyWindowGivesParquetMrsPages(CompressionCodecName codec, WriterVersion version) throws IOException {
    Path file = TempTables.path(tmp, "t.parquet");
    Random rnd = new Random(7);
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(file).withConf(TempTables.CONF).withType(SCHEMA)
        .withCompressionCodec(codec).withWriterVersion(version).withPageSize(3000).withDictionaryPageSize(4096)
        .withRowGroupSize(60_000L).build()) {
      for (int i = 0; i < 4000; i++) {
        Group g = groups.newGroup().append("src", rnd.nextLong()).append("split", i % 3 == 0 ? "train" : "test");
        Group list = g.addGroup("features");
        for (int k = 0; k < i % 9; k++) {
          list.addGroup("list").append("element", rnd.nextFloat());
        }
        w.write(g);
      }
    }
    List<List<byte[]>> expected = new ArrayList<>();
    List<BlockMetaData> blocks;
    try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(file, TempTables.CONF))) {
      blocks = r.getFooter().getBlocks();
      for (PageReadStore store = r.readNextRowGroup(); store != null; store = r.readNextRowGroup()) {
        for (ColumnDescriptor c : SCHEMA.getColumns()) {
          expected.add(pages(store.getPageReader(c)));
        }
      }
    }
    assertTrue(blocks.size() >= 2, "row groups: " + blocks.size());
    CodecFactory codecs = new CodecFactory(TempTables.CONF, 0);
    try (SeekableInputStream in = HadoopInputFile.fromPath(file, TempTables.CONF).newStream()) {
      for (int window : new int[] {1, 17, 700, 5000, ParquetChunkPages.WINDOW_BYTES}) {
        for (boolean reuse : new boolean[] {false, true}) {
          int k = 0;
          for (BlockMetaData b : blocks) {
            for (ColumnChunkMetaData c : b.getColumns()) {
              ParquetChunkPages pages = new ParquetChunkPages(in, c.getStartingPos(), c.getTotalSize(),
                  c.getCodec(), codec == CompressionCodecName.SNAPPY || codec == CompressionCodecName.UNCOMPRESSED
                      ? null : codecs.getDecompressor(c.getCodec()), c.getValueCount(), reuse, window);
              List<byte[]> want = expected.get(k++);
              List<byte[]> got = pages(pages);
              String where = "window " + window + ", reuse " + reuse + ", " + c.getPath();
              assertEquals(want.size(), got.size(), where);
              for (int p = 0; p < want.size(); p++) {
                assertArrayEquals(want.get(p), got.get(p), where + ", page " + p);
              }
            }
          }
        }
      }
    } finally {
      codecs.release();
    }
  }

  /** Each page's bytes (levels and values, uncompressed), the dictionary first when there is one. */
  private static List<byte[]> pages(PageReader r) throws IOException {
    List<byte[]> out = new ArrayList<>();
    DictionaryPage d = r.readDictionaryPage();
    out.add(d == null ? new byte[0] : d.getBytes().toByteArray());
    for (DataPage p = r.readPage(); p != null; p = r.readPage()) {
      if (p instanceof DataPageV1) {
        out.add(((DataPageV1) p).getBytes().toByteArray());
      } else {
        DataPageV2 v2 = (DataPageV2) p;
        assertNotNull(v2.getData());
        out.add(concat(v2.getRepetitionLevels().toByteArray(), v2.getDefinitionLevels().toByteArray(),
            v2.getData().toByteArray()));
      }
    }
    assertNull(r.readPage());
    return out;
  }

  private static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += p.length;
    }
    byte[] out = new byte[n];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }
}
