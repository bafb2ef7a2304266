package org.yarngnn.io.text;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.TableFormat;

/** Row-count estimates for text files from their byte sizes. */
public final class TextSizes {
  /** Typical gzip ratio of numeric text. */
  private static final int GZIP_RATIO = 4;

  private TextSizes() {
  }

  public static long estimateRows(Configuration conf, Path file, int bytesPerRow) {
    try {
      long len = file.getFileSystem(conf).getFileStatus(file).getLen();
      if (TableFormat.isGzip(file.getName())) {
        len *= GZIP_RATIO;
      }
      return Math.max(1, len / bytesPerRow);
    } catch (IOException e) {
      throw InputException.wrap(file, "reading", e);
    }
  }
}
