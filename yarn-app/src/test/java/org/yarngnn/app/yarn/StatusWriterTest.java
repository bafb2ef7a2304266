package org.yarngnn.app.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The AM's status written in the background: the latest status wins, and close leaves the last one. */
class StatusWriterTest {
  @TempDir
  java.nio.file.Path tmp;

  @Test
  void theFileCatchesUpWithTheLatestStatusAndCloseWritesTheLast() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    Path dir = new Path(tmp.toUri());
    StatusWriter w = new StatusWriter(fs, dir, 50);
    w.publish(0.1f, "first");
    long deadline = System.currentTimeMillis() + 10_000;
    while (!StatusFile.read(fs, dir).map(StatusFile.Status::text).orElse("").equals("first")) {
      assertTrue(System.currentTimeMillis() < deadline, "the first status was never written");
      Thread.sleep(10);
    }
    for (int i = 0; i < 1000; i++) {
      w.publish(i / 1000f, "round " + i);
    }
    w.close();
    assertEquals(Optional.of(new StatusFile.Status(0.999f, "round 999")), StatusFile.read(fs, dir));
  }
}
