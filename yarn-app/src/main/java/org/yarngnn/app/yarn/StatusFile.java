package org.yarngnn.app.yarn;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The AM's progress line for the client: one file {@code _status} in the staging directory holding
 * {@code <progress 0..1> <TAB> <status text>}. YARN's application report carries the progress number but no text,
 * so the text travels through the cluster FileSystem, which both sides already use. Readers tolerate a missing or
 * half-written file (the writer overwrites in place).
 */
public final class StatusFile {
  public static final String NAME = "_status";

  public record Status(float progress, String text) {}

  private StatusFile() {}

  public static void write(FileSystem fs, Path stagingDir, float progress, String text) throws IOException {
    String line = String.format(Locale.ROOT, "%.4f\t%s", progress, text.replace('\n', ' ').replace('\t', ' '));
    try (OutputStream out = fs.create(new Path(stagingDir, NAME), true)) {
      out.write(line.getBytes(StandardCharsets.UTF_8));
    }
  }

  public static Optional<Status> read(FileSystem fs, Path stagingDir) {
    try (InputStream in = fs.open(new Path(stagingDir, NAME))) {
      String line = new String(in.readNBytes(4096), StandardCharsets.UTF_8);
      int tab = line.indexOf('\t');
      if (tab < 0) {
        return Optional.empty();
      }
      return Optional.of(new Status(Float.parseFloat(line.substring(0, tab)), line.substring(tab + 1)));
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (IOException | NumberFormatException e) {
      // Caught mid-rewrite or the directory is gone: the next poll reads it again.
      return Optional.empty();
    }
  }
}
