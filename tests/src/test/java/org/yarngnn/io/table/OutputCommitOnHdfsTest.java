package org.yarngnn.io.table;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The output commit's protocol cases ({@link OutputCommitProtocolCases}: a crash or a failed rename at every
 * step, a reader between the steps, the next begin's recovery) on a real MiniDFSCluster, whose rename, delete and
 * listing are the NameNode's, not the local file system's. In hdfs-io's package: the cases reach the commit's
 * package-private fail points.
 */
class OutputCommitOnHdfsTest extends OutputCommitProtocolCases {
  private static MiniDFSCluster dfs;
  private static final AtomicInteger DIRS = new AtomicInteger();

  @BeforeAll
  static void start() throws IOException {
    File base = new File(System.getProperty("yarngnn.build.dir", "target"), "minicluster/commit-hdfs");
    FileUtil.fullyDelete(base);
    Configuration c = new Configuration();
    c.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File(base, "dfs").getAbsolutePath());
    dfs = new MiniDFSCluster.Builder(c).numDataNodes(1).format(true).build();
    dfs.waitActive();
  }

  @AfterAll
  static void stop() {
    if (dfs != null) {
      dfs.shutdown();
    }
  }

  @Override
  protected Configuration conf() {
    return dfs.getConfiguration(0);
  }

  @Override
  protected Path freshDir() {
    try {
      Path d = dfs.getFileSystem().makeQualified(new Path("/commit/case-" + DIRS.incrementAndGet()));
      if (!dfs.getFileSystem().mkdirs(d)) {
        throw new IOException("could not create " + d);
      }
      return d;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
