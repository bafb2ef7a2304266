package org.yarngnn.app.yarn;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.yarngnn.compute.json.Json;

/**
 * The AM's progress for the client: one file {@code _status} in the staging directory, a JSON object with the
 * progress (0..1), a one-line status text and, for training, the newest {@value #MAX_EPOCHS} epochs' figures
 * (which the client prints as the epochs end). YARN's application report carries the progress number but no
 * text, so the rest travels through the cluster FileSystem, which both sides already use. Readers tolerate a
 * missing or half-written file (the writer overwrites in place).
 */
public final class StatusFile {
  public static final String NAME = "_status";

  /**
   * Epochs the file keeps (the newest). The client polls every second or so and prints those it has not: it would
   * take this many epochs between two of its reads to miss one, and the file stays small however long the run.
   */
  static final int MAX_EPOCHS = 200;

  /** The largest file read (an epoch's figures take about 200 bytes). */
  private static final int MAX_BYTES = 1 << 20;

  /** {@code epochs}: the figures of the newest epochs, oldest first, as {@link JobFigures#epoch} takes them. */
  public record Status(float progress, String text, List<Map<String, Object>> epochs) {
    public Status(float progress, String text) {
      this(progress, text, List.of());
    }
  }

  private StatusFile() {}

  public static void write(FileSystem fs, Path stagingDir, float progress, String text) throws IOException {
    write(fs, stagingDir, new Status(progress, text));
  }

  public static void write(FileSystem fs, Path stagingDir, Status s) throws IOException {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("progress", (double) s.progress());
    m.put("status", s.text() == null ? "" : s.text().replace('\n', ' ').replace('\t', ' '));
    List<Object> epochs = new ArrayList<>();
    s.epochs().forEach(e -> epochs.add(JobFigures.finite(e)));
    m.put("epochs", epochs);
    try (OutputStream out = fs.create(new Path(stagingDir, NAME), true)) {
      out.write(Json.writeCompact(m).getBytes(StandardCharsets.UTF_8));
    }
  }

  @SuppressWarnings("unchecked")
  public static Optional<Status> read(FileSystem fs, Path stagingDir) {
    try (InputStream in = fs.open(new Path(stagingDir, NAME))) {
      byte[] bytes = in.readNBytes(MAX_BYTES + 1);
      if (bytes.length > MAX_BYTES
          || !(Json.parse(new String(bytes, StandardCharsets.UTF_8)) instanceof Map<?, ?> m)
          || !(m.get("progress") instanceof Number progress) || !(m.get("status") instanceof String text)
          || !(m.get("epochs") instanceof List<?> epochs) || !epochs.stream().allMatch(e -> e instanceof Map)) {
        return Optional.empty();
      }
      return Optional.of(new Status(progress.floatValue(), text, (List<Map<String, Object>>) epochs));
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (IOException | IllegalArgumentException e) {
      // Caught mid-rewrite or the directory is gone: the next poll reads it again.
      return Optional.empty();
    }
  }
}
