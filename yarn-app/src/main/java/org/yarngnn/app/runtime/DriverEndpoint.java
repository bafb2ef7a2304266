package org.yarngnn.app.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Where the driver of ApplicationMaster attempt {@code attempt} listens, published as the small text file
 * {@value #FILE} in the job's staging directory so that the graph workers of an attempt that died find the next
 * attempt's driver ({@link WorkerSession.Reconnect}). Written under a temporary name and renamed into place: a
 * reader sees no file or a whole one. Read as hostile input: at most {@value #MAX_BYTES} bytes, one magic line, the
 * keys {@code host}, {@code port} and {@code attempt} once each and nothing else, a host of host-name or address
 * characters, a port in 1..65535, an attempt in 1..{@value #MAX_ATTEMPT}. Knowing the endpoint grants nothing:
 * every connection still proves the job's secret.
 */
public record DriverEndpoint(String host, int port, int attempt) {
  public static final String FILE = "_driver";
  static final int MAX_BYTES = 512;
  static final int MAX_HOST_CHARS = 255;
  static final int MAX_ATTEMPT = 1000;
  private static final String MAGIC = "yarn-gnn driver 1";

  public DriverEndpoint {
    String why = problem(host, port, attempt);
    if (why != null) {
      throw new IllegalArgumentException(why);
    }
  }

  private static String problem(String host, int port, int attempt) {
    if (host == null || host.isEmpty() || host.length() > MAX_HOST_CHARS || !host.matches("[A-Za-z0-9.:_%\\[\\]-]+")) {
      return "bad host '" + (host == null ? "" : host.substring(0, Math.min(host.length(), 40))) + "'";
    }
    if (port < 1 || port > 0xFFFF) {
      return "bad port " + port;
    }
    if (attempt < 1 || attempt > MAX_ATTEMPT) {
      return "bad attempt " + attempt;
    }
    return null;
  }

  /** The file's text. */
  public String text() {
    return MAGIC + "\nhost=" + host + "\nport=" + port + "\nattempt=" + attempt + "\n";
  }

  /** Parses the file's bytes; throws {@link IllegalArgumentException} with a one-line reason naming {@code where}. */
  public static DriverEndpoint parse(byte[] bytes, String where) {
    if (bytes.length > MAX_BYTES) {
      throw new IllegalArgumentException(where + ": more than " + MAX_BYTES + " bytes");
    }
    String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n", -1);
    if (lines.length < 1 || !lines[0].equals(MAGIC)) {
      throw new IllegalArgumentException(where + ": not a driver endpoint file");
    }
    Map<String, String> kv = new HashMap<>();
    for (int i = 1; i < lines.length; i++) {
      if (lines[i].isEmpty() && i == lines.length - 1) {
        continue;
      }
      int eq = lines[i].indexOf('=');
      String key = eq < 0 ? lines[i] : lines[i].substring(0, eq);
      if (eq < 0 || !(key.equals("host") || key.equals("port") || key.equals("attempt"))
          || kv.put(key, lines[i].substring(eq + 1)) != null) {
        throw new IllegalArgumentException(where + ": line " + (i + 1) + " is not a new host=, port= or attempt=");
      }
    }
    if (kv.size() != 3) {
      throw new IllegalArgumentException(where + ": needs host, port and attempt");
    }
    int port = number(kv.get("port"), where, "port");
    int attempt = number(kv.get("attempt"), where, "attempt");
    String why = problem(kv.get("host"), port, attempt);
    if (why != null) {
      throw new IllegalArgumentException(where + ": " + why);
    }
    return new DriverEndpoint(kv.get("host"), port, attempt);
  }

  private static int number(String s, String where, String what) {
    if (!s.matches("[0-9]{1,6}")) {
      throw new IllegalArgumentException(where + ": " + what + " '" + s.substring(0, Math.min(s.length(), 10))
          + "' is not a number");
    }
    return Integer.parseInt(s);
  }

  /** Publishes this endpoint as {@code dir/}{@value #FILE}, replacing an earlier attempt's. */
  public void publish(FileSystem fs, Path dir) throws IOException {
    Path tmp = new Path(dir, "." + FILE + "." + attempt + ".tmp");
    try (OutputStream out = fs.create(tmp, true)) {
      out.write(text().getBytes(StandardCharsets.UTF_8));
    }
    Path file = new Path(dir, FILE);
    fs.delete(file, false);
    if (!fs.rename(tmp, file)) {
      throw new IOException("cannot rename " + tmp + " to " + file);
    }
  }

  /** The endpoint published in {@code dir}; null when there is none (yet). Throws on a bad file. */
  public static DriverEndpoint read(FileSystem fs, Path dir) throws IOException {
    Path file = new Path(dir, FILE);
    FileStatus st;
    try {
      st = fs.getFileStatus(file);
    } catch (java.io.FileNotFoundException e) {
      return null;
    }
    if (st.getLen() > MAX_BYTES) {
      throw new IllegalArgumentException(file + ": more than " + MAX_BYTES + " bytes");
    }
    byte[] buf = new byte[MAX_BYTES + 1];
    int n = 0;
    try (InputStream in = fs.open(file)) {
      for (int r; n < buf.length && (r = in.read(buf, n, buf.length - n)) > 0; ) {
        n += r;
      }
    } catch (java.io.FileNotFoundException e) {
      return null; // replaced meanwhile
    }
    return parse(java.util.Arrays.copyOf(buf, n), file.toString());
  }
}
