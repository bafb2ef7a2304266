package org.yarngnn.app.yarn;

import org.yarngnn.app.options.RuntimeKeys;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.yarngnn.compute.json.Json;

/**
 * The job page's last state, kept after the application: {@code <root>/<appId>.json} on the cluster FileSystem
 * (root {@code yarngnn.history-dir}, default {@code ~/.yarn-gnn/history}, beside the staging root), written by the
 * ApplicationMaster as it unregisters and read by {@code yarn-gnn status APP_ID}. The staging directory cannot
 * hold it: the AM and the client delete staging however a run ends. Owner-only, as staging: it holds the
 * driver's log lines. Written under a temporary name and renamed, so a reader never sees half a summary.
 */
public final class JobHistory {
  public static final String ROOT_KEY = RuntimeKeys.HISTORY_DIR.key();
  /** Largest summary read back (a page keeps 500 log lines and 1,000 worker rows: well under this). */
  static final int MAX_BYTES = 32 << 20;

  private JobHistory() {}

  public static Path forApplication(Configuration conf, FileSystem fs, String appId) {
    String root = conf.getTrimmed(ROOT_KEY);
    Path rootPath = root == null || root.isEmpty()
        ? new Path(fs.getHomeDirectory(), ".yarn-gnn/history") : new Path(root);
    return fs.makeQualified(new Path(rootPath, appId + ".json"));
  }

  static void write(FileSystem fs, Path file, Map<String, Object> summary) throws IOException {
    fs.mkdirs(file.getParent(), new FsPermission((short) 0700));
    Path tmp = new Path(file.getParent(), "." + file.getName() + ".tmp");
    try (OutputStream out = fs.create(tmp, true)) {
      out.write(Json.write(summary).getBytes(StandardCharsets.UTF_8));
    }
    fs.setPermission(tmp, new FsPermission((short) 0600));
    if (fs.exists(file)) {
      fs.delete(file, false); // a second attempt of the same application replaces the first one's
    }
    if (!fs.rename(tmp, file)) {
      throw new IOException("cannot rename " + tmp + " to " + file);
    }
  }

  /** The summary, or empty when there is none; a file that is not a summary is an {@link IOException}. */
  public static Optional<Map<?, ?>> read(FileSystem fs, Path file) throws IOException {
    byte[] bytes;
    try (InputStream in = fs.open(file)) {
      bytes = in.readNBytes(MAX_BYTES + 1);
    } catch (FileNotFoundException e) {
      return Optional.empty();
    }
    if (bytes.length > MAX_BYTES) {
      throw new IOException(file + ": larger than " + (MAX_BYTES >> 20) + " MiB: not a job summary");
    }
    Object parsed;
    try {
      parsed = Json.parse(new String(bytes, StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw new IOException(file + ": not a job summary: " + e.getMessage());
    }
    if (!(parsed instanceof Map<?, ?> m) || !(m.get("application") instanceof String)
        || !(m.get("workers") instanceof java.util.List) || !(m.get("log") instanceof java.util.List)) {
      throw new IOException(file + ": not a job summary (no application, workers and log)");
    }
    return Optional.of(m);
  }
}
