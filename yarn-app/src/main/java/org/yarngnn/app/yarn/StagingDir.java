package org.yarngnn.app.yarn;

import org.yarngnn.app.options.RuntimeKeys;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * The per-application directory on the cluster FileSystem that every container localizes from:
 * {@code <root>/<appId>/} with {@value LaunchContexts#JAR_NAME}, {@value LaunchContexts#CONF_DIR}/ (the client's
 * configuration), {@value LaunchContexts#JOB_XML} (the job's settings, when it has them) and the shipped files. Root: {@code yarngnn.staging-dir}, default {@code ~/.yarn-gnn/staging}.
 */
public final class StagingDir {
  public static final String ROOT_KEY = RuntimeKeys.STAGING_DIR.key();
  /** The configuration file names written into the conf directory, each the same content: see {@link #writeConf}. */
  static final String[] CONF_FILES = {"core-site.xml", "hdfs-site.xml", "yarn-site.xml"};

  private StagingDir() {}

  public static Path forApplication(Configuration conf, FileSystem fs, String appId) {
    String root = conf.getTrimmed(ROOT_KEY);
    Path rootPath = root == null || root.isEmpty()
        ? new Path(fs.getHomeDirectory(), ".yarn-gnn/staging") : new Path(root);
    return fs.makeQualified(new Path(rootPath, appId));
  }

  /** Creates the directory (owner-only) and copies the jar, the configuration and the files into it. */
  public static void populate(Configuration conf, FileSystem fs, Path dir, JobSubmission s) throws IOException {
    fs.mkdirs(dir, new FsPermission((short) 0700));
    if (JarCache.enabled(conf)) {
      JarCache.point(fs, dir, JarCache.ship(conf, s.jar(), fs));
    } else {
      copy(conf, s.jar(), fs, new Path(dir, LaunchContexts.JAR_NAME));
    }
    for (Path f : s.files()) {
      copy(conf, f, fs, new Path(dir, f.getName()));
    }
    if (s.jobConf() != null) {
      try (OutputStream out = fs.create(new Path(dir, LaunchContexts.JOB_XML), true)) {
        s.jobConf().writeXml(out);
      }
    }
    writeConf(conf, fs, new Path(dir, LaunchContexts.CONF_DIR));
  }

  private static void copy(Configuration conf, Path src, FileSystem dstFs, Path dst) throws IOException {
    FileSystem srcFs = src.getFileSystem(conf);
    if (!srcFs.exists(src)) {
      throw new IOException("cannot ship " + src + ": no such file or directory");
    }
    FileUtil.copy(srcFs, src, dstFs, dst, false, true, conf);
  }

  /**
   * Writes the client's configuration, minus values that only come from Hadoop's *-default.xml files, as
   * core-site.xml, hdfs-site.xml and yarn-site.xml. The directory is first on every container's classpath, so
   * whichever of the three Hadoop loads last, the AM and the workers see the client's addresses and
   * {@code yarngnn.*} settings (as Spark ships its {@code __spark_conf__}).
   */
  static void writeConf(Configuration conf, FileSystem fs, Path confDir) throws IOException {
    Configuration own = new Configuration(false);
    for (Map.Entry<String, String> e : conf) {
      if (!onlyFromDefaults(conf.getPropertySources(e.getKey()))) {
        own.set(e.getKey(), e.getValue());
      }
    }
    fs.mkdirs(confDir);
    for (String name : CONF_FILES) {
      try (OutputStream out = fs.create(new Path(confDir, name), true)) {
        own.writeXml(out);
      }
    }
  }

  static boolean onlyFromDefaults(String[] sources) {
    if (sources == null || sources.length == 0) {
      return false;
    }
    for (String s : sources) {
      if (!s.endsWith("-default.xml")) {
        return false;
      }
    }
    return true;
  }

  /** Deletes the directory; false (never an exception) when it could not, so cleanup never hides the real error. */
  public static boolean delete(FileSystem fs, Path dir) {
    try {
      return fs.delete(dir, true) || !fs.exists(dir);
    } catch (IOException e) {
      return false;
    }
  }
}
