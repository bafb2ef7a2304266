package org.yarngnn.io.table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * An embeddings output read whole into memory (for tests and small outputs): {@code id -> embedding} and,
 * when present, {@code id -> prediction}. Refuses duplicate ids; NaN values are kept.
 */
public final class EmbeddingTable {
  private final Map<Long, float[]> embeddings;
  private final Map<Long, Integer> predictions;
  private final int width;
  private final boolean committed;

  private EmbeddingTable(Map<Long, float[]> embeddings, Map<Long, Integer> predictions, int width,
      boolean committed) {
    this.embeddings = Collections.unmodifiableMap(embeddings);
    this.predictions = Collections.unmodifiableMap(predictions);
    this.width = width;
    this.committed = committed;
  }

  /** Reads an output directory (or one part file) in Parquet or ORC. */
  public static EmbeddingTable read(Configuration conf, Path path) {
    TableReadOptions opts = TableReadOptions.builder()
        .featuresColumn("embedding").labelColumn("prediction").splitColumn("_no_split_column")
        .allowNonFinite(true).build();
    NodeTable table = NodeTable.open(conf, path, opts);
    Map<Long, float[]> embeddings = new HashMap<>();
    Map<Long, Integer> predictions = new HashMap<>();
    boolean withPredictions = table.hasLabels();
    table.read(new NodeSink() {
      private String file;

      @Override
      public void beginFile(String f) {
        file = f;
      }

      @Override
      public void node(long id, int label, byte split, float[] features, long row) {
        if (embeddings.put(id, features.clone()) != null) {
          throw InputException.at(file, row, "duplicate id " + id);
        }
        if (withPredictions) {
          predictions.put(id, label);
        }
      }
    });
    boolean committed;
    try {
      committed = path.getFileSystem(conf).exists(new Path(path, OutputCommit.SUCCESS));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new EmbeddingTable(embeddings, predictions, table.featureWidth(), committed);
  }

  public Map<Long, float[]> embeddings() {
    return embeddings;
  }

  /** Empty when the output has no prediction column. */
  public Map<Long, Integer> predictions() {
    return predictions;
  }

  public boolean hasPredictions() {
    return !predictions.isEmpty();
  }

  public int width() {
    return width;
  }

  public int size() {
    return embeddings.size();
  }

  /** The embedding of {@code id}, or null. */
  public float[] embedding(long id) {
    return embeddings.get(id);
  }

  /** True when the directory holds a {@code _SUCCESS} marker. */
  public boolean committed() {
    return committed;
  }
}
