// Tables for scripts/bench/topk and scripts/bench/topk-check, with .npy twins for the Python side:
//   java -cp yarn-gnn.jar:HADOOP_CLASSPATH scripts/bench/topk-tables.java generate DIR QUERIES CANDIDATES DIM SEED KIND
//     writes DIR/emb/ (an infer-style embeddings table: 4 Parquet part files, columns id, embedding), the id
//     tables DIR/queries.parquet (ids 0..QUERIES-1) and DIR/candidates.parquet (ids QUERIES..QUERIES+CANDIDATES-1),
//     and the same rows as DIR/q.npy and DIR/c.npy (float32, row i of q.npy is id i, row j of c.npy is id
//     QUERIES+j). KIND gauss: N(0,1) values; KIND int: integers in -3..3 (every score exact in float, many ties).
//   java -cp ... scripts/bench/topk-tables.java dump OUTPUT_DIR FILE.tsv [OUTPUT_DIR FILE.tsv ...]
//     reads each topk output with parquet-mr's example reader (not the project's) and writes query, rank,
//     candidate, score (as the float's exact decimal) one row a line.
//   java -cp ... scripts/bench/topk-tables.java embeddings EMBEDDINGS_DIR FILE.npy
//     reads an infer output (id, embedding) with parquet-mr's example reader and writes its rows as a float32 .npy
//     file, row i = id i (the ids must be 0..N-1, each once, as Cora's are).
//   java -cp ... scripts/bench/topk-tables.java edges EDGES_DIR FILE.tsv
//     reads a Parquet edges table (src, dst; e.g. train --link-pairs' train or test) the same way and writes
//     src, dst one pair a line.
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.yarngnn.io.table.EmbeddingWriter;
import org.yarngnn.io.table.IdTable;
import org.yarngnn.io.table.TableFormat;

public class TopkTables {
  static final int FILES = 4;

  public static void main(String[] args) throws Exception {
    if (args[0].equals("generate")) {
      generate(java.nio.file.Path.of(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]),
          Integer.parseInt(args[4]), Long.parseLong(args[5]), args[6]);
    } else if (args[0].equals("dump")) {
      for (int i = 1; i + 1 < args.length; i += 2) {
        dump(args[i], java.nio.file.Path.of(args[i + 1]));
      }
    } else if (args[0].equals("embeddings")) {
      embeddings(args[1], java.nio.file.Path.of(args[2]));
    } else if (args[0].equals("edges")) {
      edges(args[1], java.nio.file.Path.of(args[2]));
    } else {
      throw new IllegalArgumentException("generate, dump, embeddings or edges, not " + args[0]);
    }
  }

  static void generate(java.nio.file.Path dir, int queries, int candidates, int dim, long seed, String kind)
      throws IOException {
    Configuration conf = new Configuration();
    Files.createDirectories(dir.resolve("emb"));
    SplittableRandom rnd = new SplittableRandom(seed);
    float[] q = fill(rnd, queries, dim, kind);
    float[] c = fill(rnd, candidates, dim, kind);
    long total = (long) queries + candidates;
    for (int f = 0; f < FILES; f++) {
      // File f holds a contiguous run of ids, as infer's parts hold each worker's rows.
      long from = total * f / FILES;
      long to = total * (f + 1) / FILES;
      try (EmbeddingWriter w = EmbeddingWriter.create(conf, new Path(dir.resolve("emb/part-0000" + f
          + ".parquet").toString()), TableFormat.PARQUET, dim, false)) {
        for (long id = from; id < to; id++) {
          if (id < queries) {
            w.write(id, q, (int) id * dim, -1);
          } else {
            w.write(id, c, (int) (id - queries) * dim, -1);
          }
        }
      }
    }
    long[] qIds = new long[queries];
    for (int i = 0; i < queries; i++) {
      qIds[i] = i;
    }
    long[] cIds = new long[candidates];
    for (int j = 0; j < candidates; j++) {
      cIds[j] = (long) queries + j;
    }
    IdTable.write(conf, new Path(dir.resolve("queries.parquet").toString()), TableFormat.PARQUET, qIds);
    IdTable.write(conf, new Path(dir.resolve("candidates.parquet").toString()), TableFormat.PARQUET, cIds);
    npy(dir.resolve("q.npy"), q, queries, dim);
    npy(dir.resolve("c.npy"), c, candidates, dim);
  }

  static float[] fill(SplittableRandom rnd, int rows, int dim, String kind) {
    float[] v = new float[Math.multiplyExact(rows, dim)];
    for (int i = 0; i < v.length; i++) {
      v[i] = kind.equals("int") ? rnd.nextInt(7) - 3 : (float) rnd.nextGaussian();
    }
    return v;
  }

  /** A float32 C-order .npy file (format 1.0). */
  static void npy(java.nio.file.Path file, float[] v, int rows, int cols) throws IOException {
    String header = String.format(Locale.ROOT, "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }",
        rows, cols);
    int pad = 64 - (10 + header.length() + 1) % 64;
    header = header + " ".repeat(pad % 64) + "\n";
    ByteBuffer head = ByteBuffer.allocate(10 + header.length()).order(ByteOrder.LITTLE_ENDIAN);
    head.put((byte) 0x93).put("NUMPY".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).put((byte) 1)
        .put((byte) 0).putShort((short) header.length()).put(header.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
      out.write(head.array());
      ByteBuffer b = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
      for (float x : v) {
        if (!b.hasRemaining()) {
          out.write(b.array(), 0, b.position());
          b.clear();
        }
        b.putFloat(x);
      }
      out.write(b.array(), 0, b.position());
    }
  }

  static void dump(String output, java.nio.file.Path tsv) throws IOException {
    Configuration conf = new Configuration();
    try (BufferedWriter out = Files.newBufferedWriter(tsv); var files = Files.list(java.nio.file.Path.of(output))) {
      for (java.nio.file.Path f : files.filter(p -> p.getFileName().toString().startsWith("part-")).sorted()
          .toList()) {
        try (ParquetReader<Group> r = ParquetReader.builder(new GroupReadSupport(), new Path(f.toString()))
            .withConf(conf).build()) {
          for (Group g = r.read(); g != null; g = r.read()) {
            out.write(g.getLong("query", 0) + "\t" + g.getInteger("rank", 0) + "\t" + g.getLong("candidate", 0)
                + "\t" + new java.math.BigDecimal(g.getFloat("score", 0)).toPlainString() + "\n");
          }
        }
      }
    }
  }

  static java.util.List<java.nio.file.Path> parts(String dir) throws IOException {
    try (var files = Files.list(java.nio.file.Path.of(dir))) {
      return files.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList();
    }
  }

  static void embeddings(String dir, java.nio.file.Path npyFile) throws IOException {
    Configuration conf = new Configuration();
    java.util.TreeMap<Long, float[]> rows = new java.util.TreeMap<>();
    int width = -1;
    for (java.nio.file.Path f : parts(dir)) {
      try (ParquetReader<Group> r = ParquetReader.builder(new GroupReadSupport(), new Path(f.toString()))
          .withConf(conf).build()) {
        for (Group g = r.read(); g != null; g = r.read()) {
          // embedding: a LIST<FLOAT>, i.e. a group holding one repeated group of one float each.
          Group list = g.getGroup("embedding", 0);
          int n = list.getFieldRepetitionCount(0);
          float[] v = new float[n];
          for (int i = 0; i < n; i++) {
            v[i] = list.getGroup(0, i).getFloat(0, 0);
          }
          if (width >= 0 && n != width) {
            throw new IOException(f + ": an embedding of " + n + " values after rows of " + width);
          }
          width = n;
          if (rows.put(g.getLong("id", 0), v) != null) {
            throw new IOException(f + ": id " + g.getLong("id", 0) + " twice");
          }
        }
      }
    }
    if (rows.isEmpty() || rows.firstKey() != 0 || rows.lastKey() != rows.size() - 1) {
      throw new IOException(dir + ": ids are not 0.." + (rows.size() - 1));
    }
    float[] all = new float[rows.size() * width];
    int at = 0;
    for (float[] v : rows.values()) {
      System.arraycopy(v, 0, all, at, width);
      at += width;
    }
    npy(npyFile, all, rows.size(), width);
  }

  static void edges(String dir, java.nio.file.Path tsv) throws IOException {
    Configuration conf = new Configuration();
    try (BufferedWriter out = Files.newBufferedWriter(tsv)) {
      out.write("# src\tdst\n");
      for (java.nio.file.Path f : parts(dir)) {
        try (ParquetReader<Group> r = ParquetReader.builder(new GroupReadSupport(), new Path(f.toString()))
            .withConf(conf).build()) {
          for (Group g = r.read(); g != null; g = r.read()) {
            out.write(g.getLong("src", 0) + "\t" + g.getLong("dst", 0) + "\n");
          }
        }
      }
    }
  }
}
