package org.yarngnn.io.table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/** Test helper: Hadoop paths under a JUnit temp dir on the local FileSystem, and raw text files. */
public final class TempTables {
  public static final Configuration CONF = new Configuration();

  private TempTables() {
  }

  public static Path path(java.nio.file.Path dir, String name) {
    return new Path(dir.resolve(name).toUri());
  }

  /** Writes {@code text} to {@code dir/name}, gzip-compressed when the name ends in .gz. */
  static Path text(java.nio.file.Path dir, String name, String text) {
    try {
      java.nio.file.Path p = dir.resolve(name);
      Files.createDirectories(p.getParent());
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      if (name.endsWith(".gz")) {
        try (GZIPOutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
          out.write(bytes);
        }
      } else {
        Files.write(p, bytes);
      }
      return new Path(p.toUri());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The shared data folder: system property yarngnn.shared.dir, else ../../shared from the module. */
  static java.nio.file.Path sharedDir() {
    String prop = System.getProperty("yarngnn.shared.dir");
    java.nio.file.Path p = prop != null ? java.nio.file.Path.of(prop) : java.nio.file.Path.of("../../shared");
    if (!Files.isDirectory(p.resolve("data"))) {
      p = java.nio.file.Path.of("../../shared");
    }
    return p.toAbsolutePath().normalize();
  }
}
