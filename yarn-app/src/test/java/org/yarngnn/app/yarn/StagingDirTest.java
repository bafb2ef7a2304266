package org.yarngnn.app.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Staging, shipped configuration and the status file, on the local file system. */
class StagingDirTest {
  @TempDir
  java.nio.file.Path tmp;

  private Configuration localConf() {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    conf.set(StagingDir.ROOT_KEY, tmp.resolve("staging").toUri().toString());
    conf.set(JarCache.DIR_KEY, tmp.resolve("lib").toUri().toString());
    return conf;
  }

  @Test
  void populateShipsTheJarFilesDirectoriesAndConfigurationAsLocalResources() throws Exception {
    Configuration conf = localConf();
    conf.set("yarngnn.some.setting", "42");
    FileSystem fs = FileSystem.getLocal(conf);
    java.nio.file.Path jar = Files.writeString(tmp.resolve("app.jar"), "jar bytes");
    java.nio.file.Path model = Files.createDirectories(tmp.resolve("model"));
    Files.writeString(model.resolve("model.json"), "{}");
    JobSubmission s = JobSubmission.builder().jar(jar).file(model).driver("x.Driver", List.of("a")).build();

    Path dir = StagingDir.forApplication(conf, fs, "application_1_0001");
    assertEquals(new Path(tmp.resolve("staging").toUri().toString(), "application_1_0001").toUri().getPath(),
        dir.toUri().getPath());
    StagingDir.populate(conf, fs, dir, s);
    StatusFile.write(fs, dir, 0.5f, "half way");

    Map<String, LocalResource> resources = LaunchContexts.localResources(fs, dir);
    assertEquals(java.util.Set.of(LaunchContexts.JAR_NAME, "model", LaunchContexts.CONF_DIR), resources.keySet());
    assertEquals(9, resources.get(LaunchContexts.JAR_NAME).getSize());
    assertTrue(fs.exists(new Path(dir, "model/model.json")));

    Configuration shipped = new Configuration(false);
    try (InputStream in = fs.open(new Path(dir, LaunchContexts.CONF_DIR + "/yarn-site.xml"))) {
      shipped.addResource(in);
      assertEquals("42", shipped.get("yarngnn.some.setting"));
      // Values only from *-default.xml stay behind: the cluster's jars carry them.
      assertNull(shipped.get("io.file.buffer.size"));
    }
    assertTrue(StagingDir.delete(fs, dir));
    assertFalse(fs.exists(dir));
    assertTrue(StagingDir.delete(fs, dir), "deleting what is gone is not an error");
  }

  @Test
  void aMissingShippedFileIsNamed() throws Exception {
    Configuration conf = localConf();
    FileSystem fs = FileSystem.getLocal(conf);
    java.nio.file.Path jar = Files.writeString(tmp.resolve("app.jar"), "x");
    JobSubmission s = JobSubmission.builder().jar(jar).file(tmp.resolve("nope")).build();
    IOException e = assertThrows(IOException.class,
        () -> StagingDir.populate(conf, fs, StagingDir.forApplication(conf, fs, "a"), s));
    assertTrue(e.getMessage().contains("nope"), e.getMessage());
  }

  @Test
  void statusFileRoundTripsAndToleratesAbsentOrTornFiles() throws Exception {
    FileSystem fs = FileSystem.getLocal(localConf());
    Path dir = new Path(tmp.toUri().toString());
    assertEquals(Optional.empty(), StatusFile.read(fs, dir));
    StatusFile.write(fs, dir, 0.25f, "layer 1/4\tgraph\nworkers");
    StatusFile.Status st = StatusFile.read(fs, dir).orElseThrow();
    assertEquals(0.25f, st.progress());
    assertEquals("layer 1/4 graph workers", st.text());
    Files.writeString(tmp.resolve(StatusFile.NAME), "0.");
    assertEquals(Optional.empty(), StatusFile.read(fs, dir));
  }

  @Test
  void progressLineShowsTheNewerProgressAndTheStatusText() {
    assertEquals("RUNNING  40% layer 2", YarnJobClient.progressLine(YarnApplicationState.RUNNING, 0.1f,
        Optional.of(new StatusFile.Status(0.4f, "layer 2"))));
    assertEquals("ACCEPTED   0%", YarnJobClient.progressLine(YarnApplicationState.ACCEPTED, 0f, Optional.empty()));
    assertEquals("RUNNING 100%", YarnJobClient.progressLine(YarnApplicationState.RUNNING, 1.5f, Optional.empty()));
  }

  @Test
  void submissionsRefuseClashingOrReservedNamesAndDefaultToTheDriverMain() throws Exception {
    java.nio.file.Path jar = Files.writeString(tmp.resolve("app.jar"), "x");
    JobSubmission s = JobSubmission.builder().jar(jar).driver("x.Driver", List.of("a", "b")).build();
    assertEquals(AmMain.class.getName(), s.amMainClass());
    assertEquals(List.of("x.Driver", "a", "b"), s.amArgs());
    assertEquals("file", s.jar().toUri().getScheme());
    assertEquals("-Xmx768m", s.amJavaOpts());
    assertThrows(IllegalArgumentException.class,
        () -> JobSubmission.builder().jar(jar).file(tmp.resolve("a/yarn-gnn.jar")).build());
    assertThrows(IllegalArgumentException.class,
        () -> JobSubmission.builder().jar(jar).file(tmp.resolve("_status")).build());
    assertThrows(IllegalArgumentException.class,
        () -> JobSubmission.builder().jar(jar).file(tmp.resolve("a/m")).file(tmp.resolve("b/m")).build());
    assertThrows(IllegalArgumentException.class,
        () -> JobSubmission.builder().jar(jar).driver("x.Driver", List.of("it's")).build());
  }
}
