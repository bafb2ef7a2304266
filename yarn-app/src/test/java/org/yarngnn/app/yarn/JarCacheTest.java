package org.yarngnn.app.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.LocalResourceVisibility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JarCacheTest {
  @TempDir java.nio.file.Path tmp;

  private Configuration conf() {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    conf.set(StagingDir.ROOT_KEY, tmp.resolve("staging").toUri().toString());
    conf.set(JarCache.DIR_KEY, tmp.resolve("lib").toUri().toString());
    return conf;
  }

  private JobSubmission submission(java.nio.file.Path jar) {
    return JobSubmission.builder().jar(jar).driver("x.Driver", List.of("a")).build();
  }

  @Test
  void aSecondSubmissionOfTheSameJarUploadsNothingAndContainersGetItAsAPrivateResource() throws Exception {
    Configuration conf = conf();
    FileSystem fs = FileSystem.getLocal(conf);
    java.nio.file.Path jar = Files.writeString(tmp.resolve("app.jar"), "jar bytes");
    Path first = StagingDir.forApplication(conf, fs, "application_1_0001");
    StagingDir.populate(conf, fs, first, submission(jar));
    assertFalse(fs.exists(new Path(first, LaunchContexts.JAR_NAME)), "the jar is not copied into staging");
    Path cached = JarCache.pointedFrom(fs, first);
    long uploaded = fs.getFileStatus(cached).getModificationTime();
    Thread.sleep(1100); // the local FileSystem's times are in seconds on some file systems

    Path second = StagingDir.forApplication(conf, fs, "application_1_0002");
    StagingDir.populate(conf, fs, second, submission(jar));
    assertEquals(cached, JarCache.pointedFrom(fs, second));
    assertEquals(uploaded, fs.getFileStatus(cached).getModificationTime(), "not uploaded again");
    assertEquals(1, fs.listStatus(cached.getParent()).length, "one jar, no leftover upload");

    Map<String, LocalResource> resources = LaunchContexts.localResources(fs, second);
    LocalResource r = resources.get(LaunchContexts.JAR_NAME);
    assertEquals(LocalResourceVisibility.PRIVATE, r.getVisibility());
    assertEquals(9, r.getSize());
    assertEquals(uploaded, r.getTimestamp());
    assertFalse(resources.containsKey(JarCache.POINTER), "the pointer is the runtime's own file");

    // Another jar content: another cached file beside the first.
    Files.writeString(jar, "other jar bytes");
    Path third = StagingDir.forApplication(conf, fs, "application_1_0003");
    StagingDir.populate(conf, fs, third, submission(jar));
    assertFalse(cached.equals(JarCache.pointedFrom(fs, third)));
    assertEquals(15, fs.getFileStatus(JarCache.pointedFrom(fs, third)).getLen());
  }

  @Test
  void aTornCachedJarIsReplaced() throws Exception {
    Configuration conf = conf();
    FileSystem fs = FileSystem.getLocal(conf);
    java.nio.file.Path jar = Files.writeString(tmp.resolve("app.jar"), "jar bytes");
    Path cached = JarCache.ship(conf, new Path(jar.toUri()), fs);
    try (OutputStream out = fs.create(cached, true)) {
      out.write("jar".getBytes(StandardCharsets.UTF_8)); // an upload cut short
    }
    assertEquals(cached, JarCache.ship(conf, new Path(jar.toUri()), fs));
    assertEquals(9, fs.getFileStatus(cached).getLen());
  }

  @Test
  void withoutTheCacheTheJarIsInStaging() throws Exception {
    Configuration conf = conf();
    conf.setBoolean(JarCache.ENABLED_KEY, false);
    FileSystem fs = FileSystem.getLocal(conf);
    java.nio.file.Path jar = Files.writeString(tmp.resolve("app.jar"), "jar bytes");
    Path dir = StagingDir.forApplication(conf, fs, "application_1_0001");
    StagingDir.populate(conf, fs, dir, submission(jar));
    assertNull(JarCache.pointedFrom(fs, dir));
    assertTrue(fs.exists(new Path(dir, LaunchContexts.JAR_NAME)));
    assertEquals(LocalResourceVisibility.APPLICATION,
        LaunchContexts.localResources(fs, dir).get(LaunchContexts.JAR_NAME).getVisibility());
    assertFalse(fs.exists(new Path(tmp.resolve("lib").toUri())), "nothing cached");
  }

  @Test
  void aPointerThatIsNotACachedJarIsRefused() throws Exception {
    Configuration conf = conf();
    FileSystem fs = FileSystem.getLocal(conf);
    Path dir = new Path(tmp.resolve("staging").toUri());
    fs.mkdirs(dir);
    JarCache.point(fs, dir, new Path("/etc/passwd"));
    IOException e = assertThrows(IOException.class, () -> JarCache.pointedFrom(fs, dir));
    assertTrue(e.getMessage().contains("not a cached yarn-gnn jar"), e.getMessage());
    try (OutputStream out = fs.create(new Path(dir, JarCache.POINTER), true)) {
      out.write(new byte[JarCache.MAX_POINTER_BYTES + 1]);
    }
    e = assertThrows(IOException.class, () -> JarCache.pointedFrom(fs, dir));
    assertTrue(e.getMessage().contains("bytes, not a path"), e.getMessage());
  }
}
