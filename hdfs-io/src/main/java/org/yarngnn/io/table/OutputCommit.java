package org.yarngnn.io.table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * An output directory written atomically: part files go to a hidden sibling work directory, which
 * {@link #commit()} renames to the output path (one rename, atomic on HDFS) before writing {@code _SUCCESS}
 * last. A failed or aborted job therefore adds no part files and no {@code _SUCCESS} at the output path.
 * With overwrite, an existing output is replaced only at commit, so a failed rerun leaves the previous
 * (complete) output as it was.
 */
public final class OutputCommit {
  public static final String SUCCESS = "_SUCCESS";

  private final FileSystem fs;
  private final Path outputDir;
  private final Path workDir;
  private final boolean overwrite;
  private boolean done;

  private OutputCommit(FileSystem fs, Path outputDir, Path workDir, boolean overwrite) {
    this.fs = fs;
    this.outputDir = outputDir;
    this.workDir = workDir;
    this.overwrite = overwrite;
  }

  /**
   * Prepares to write {@code outputDir}. An existing path is refused unless {@code overwrite}, in which case it
   * is replaced only at {@link #commit()}: a job that fails first leaves the previous output as it was.
   */
  public static OutputCommit begin(Configuration conf, Path outputDir, boolean overwrite) {
    try {
      FileSystem fs = outputDir.getFileSystem(conf);
      Path out = fs.makeQualified(outputDir);
      if (out.getParent() == null) {
        throw new InputException(outputDir + ": cannot write output to a file system root");
      }
      if (fs.exists(out) && !overwrite) {
        throw new InputException(outputDir + ": output exists (use --overwrite)");
      }
      Path work = new Path(out.getParent(), "." + out.getName() + ".tmp-"
          + UUID.randomUUID().toString().substring(0, 8).toLowerCase(Locale.ROOT));
      if (!fs.mkdirs(work)) {
        throw new IOException("could not create " + work);
      }
      return new OutputCommit(fs, out, work, overwrite);
    } catch (IOException e) {
      throw new UncheckedIOException("preparing output " + outputDir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Takes over a commit that {@link #begin} started elsewhere (the client begins, checking the output before
   * anything runs; the ApplicationMaster commits once every worker wrote its part).
   */
  public static OutputCommit resume(Configuration conf, Path outputDir, Path workDir, boolean overwrite) {
    try {
      FileSystem fs = outputDir.getFileSystem(conf);
      if (!fs.isDirectory(workDir)) {
        throw new IOException("work directory " + workDir + " is missing");
      }
      return new OutputCommit(fs, fs.makeQualified(outputDir), fs.makeQualified(workDir), overwrite);
    } catch (IOException e) {
      throw new UncheckedIOException("resuming output " + outputDir + ": " + e.getMessage(), e);
    }
  }

  /** Where the part files go until commit. */
  public Path workDir() {
    return workDir;
  }

  public Path outputDir() {
    return outputDir;
  }

  /** {@code workDir()/part-NNNNN.<ext>}. */
  public Path partFile(int part, TableFormat format) {
    return new Path(workDir, partName(part, format));
  }

  public static String partName(int part, TableFormat format) {
    return String.format(Locale.ROOT, "part-%05d.%s", part, format.extension());
  }

  /** Promotes the work directory to the output path, then writes {@code _SUCCESS}. */
  public void commit() {
    if (done) {
      throw new IllegalStateException("output " + outputDir + " already committed or aborted");
    }
    done = true;
    try {
      if (fs.exists(outputDir)) {
        // Renaming onto an existing directory would nest the work directory inside it.
        if (!overwrite) {
          throw new IOException(outputDir + " appeared while the job ran");
        }
        if (!fs.delete(outputDir, true)) {
          throw new IOException("could not delete the previous " + outputDir);
        }
      }
      if (!fs.rename(workDir, outputDir)) {
        throw new IOException("could not rename " + workDir + " to " + outputDir);
      }
      fs.create(new Path(outputDir, SUCCESS), false).close();
    } catch (IOException e) {
      deleteQuietly(workDir);
      throw new UncheckedIOException("committing output " + outputDir + ": " + e.getMessage(), e);
    }
  }

  /** Deletes the work directory; the output path is left absent. Safe to call more than once. */
  public void abort() {
    done = true;
    deleteQuietly(workDir);
  }

  private void deleteQuietly(Path p) {
    try {
      fs.delete(p, true);
    } catch (IOException ignored) {
      // Best effort: a leftover hidden work directory is ignored by every reader.
    }
  }
}
