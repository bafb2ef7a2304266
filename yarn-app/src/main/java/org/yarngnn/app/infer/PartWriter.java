package org.yarngnn.app.infer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.graphworker.Background;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.table.EmbeddingWriter;
import org.yarngnn.io.table.TableFormat;

/**
 * Writes rows of embeddings (and predictions) as part files, several in parallel since encoding dominates
 * writing. The one writer of every inference mode: a graph worker writes its partition's rows, the single-JVM
 * run the whole graph's; the caller names each part's file (in its output commit's work directory).
 */
final class PartWriter {
  private final Configuration conf;
  private final TableFormat format;
  private final int layers;

  public PartWriter(Configuration conf, TableFormat format) {
    this(conf, format, 0);
  }

  /** {@code layers}: the model's layer count, named when a row is refused as not finite (0: unknown). */
  public PartWriter(Configuration conf, TableFormat format, int layers) {
    this.conf = conf;
    this.format = format;
    this.layers = layers;
  }

  /**
   * Writes row r of {@code embeddings} with id {@code ids[r]} (and {@code predictions[r]} when not null) into
   * {@code parts} files of about equal size, {@code fileOf(t)} naming part t, on at most {@code threads} threads;
   * returns the number of parts written. Every row is checked finite before any part is written
   * ({@link NumberChecks#requireFinite}): a NaN or infinite value throws {@link IllegalStateException}.
   */
  public int write(long[] ids, DenseMatrix embeddings, int[] predictions, int parts, int threads,
      IntFunction<Path> fileOf) throws Exception {
    NumberChecks.requireFinite(ids, embeddings, layers);
    int n = ids.length;
    AtomicInteger next = new AtomicInteger();
    List<Background> writers = new ArrayList<>();
    for (int t = 0; t < Math.max(1, Math.min(parts, threads)); t++) {
      writers.add(new Background("write-parts-" + t, () -> {
        for (int part = next.getAndIncrement(); part < parts; part = next.getAndIncrement()) {
          int from = (int) ((long) n * part / parts);
          int to = (int) ((long) n * (part + 1) / parts);
          try (EmbeddingWriter w = EmbeddingWriter.create(conf, fileOf.apply(part), format, embeddings.cols(),
              predictions != null)) {
            w.writeRows(ids, embeddings.data(), predictions, from, to);
          }
        }
      }));
    }
    Exception first = null;
    for (Background w : writers) {
      try {
        w.join();
      } catch (Exception e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
    return parts;
  }
}
