package org.yarngnn.app.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver endpoint file a later ApplicationMaster attempt publishes for the surviving workers: written whole
 * and read back; anything else in it (too long, unknown or repeated keys, a host with spaces or shell characters,
 * a port or attempt out of range, garbage) is refused with one line naming the file.
 */
class DriverEndpointTest {
  @TempDir java.nio.file.Path dir;

  private static IllegalArgumentException refused(String text) {
    return assertThrows(IllegalArgumentException.class,
        () -> DriverEndpoint.parse(text.getBytes(StandardCharsets.UTF_8), "f"));
  }

  @Test
  void publishedEndpointIsReadBackAndReplacedByTheNextAttempt() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    Path staging = new Path(dir.toUri());
    assertNull(DriverEndpoint.read(fs, staging), "nothing published yet");
    new DriverEndpoint("node-3.example.org", 41_234, 2).publish(fs, staging);
    assertEquals(new DriverEndpoint("node-3.example.org", 41_234, 2), DriverEndpoint.read(fs, staging));
    new DriverEndpoint("::1", 7, 3).publish(fs, staging);
    assertEquals(new DriverEndpoint("::1", 7, 3), DriverEndpoint.read(fs, staging));
    try (var files = Files.list(dir)) {
      assertTrue(files.noneMatch(f -> f.getFileName().toString().contains(".tmp")), "no temporary file left");
    }
  }

  @Test
  void hostileFilesAreRefusedWithOneLine() throws Exception {
    String ok = new DriverEndpoint("h", 1, 1).text();
    assertEquals(new DriverEndpoint("h", 1, 1), DriverEndpoint.parse(ok.getBytes(StandardCharsets.UTF_8), "f"));
    assertTrue(refused("").getMessage().contains("not a driver endpoint file"));
    assertTrue(refused("\u0000\u0001garbage").getMessage().startsWith("f: "));
    assertTrue(refused(ok + "x".repeat(600)).getMessage().contains("more than 512 bytes"));
    assertTrue(refused(ok + "port=2\n").getMessage().contains("line 5"));
    assertTrue(refused(ok.replace("host=h", "user=h")).getMessage().contains("line 2"));
    assertTrue(refused(ok.replace("attempt=1\n", "")).getMessage().contains("needs host, port and attempt"));
    assertTrue(refused(ok.replace("host=h", "host=h; rm -rf /")).getMessage().contains("bad host"));
    assertTrue(refused(ok.replace("host=h", "host=")).getMessage().contains("bad host"));
    assertTrue(refused(ok.replace("port=1", "port=65536")).getMessage().contains("bad port 65536"));
    assertTrue(refused(ok.replace("port=1", "port=0")).getMessage().contains("bad port 0"));
    assertTrue(refused(ok.replace("port=1", "port=-1")).getMessage().contains("not a number"));
    assertTrue(refused(ok.replace("port=1", "port=99999999999")).getMessage().contains("not a number"));
    assertTrue(refused(ok.replace("attempt=1", "attempt=0")).getMessage().contains("bad attempt 0"));
    assertTrue(refused(ok.replace("host=h", "host=" + "a".repeat(256))).getMessage().contains("bad host"));
  }

  @Test
  void anOversizedFileIsRefusedBeforeItIsRead() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    Files.write(dir.resolve(DriverEndpoint.FILE), new byte[1 << 20]);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DriverEndpoint.read(fs, new Path(dir.toUri())));
    assertTrue(e.getMessage().contains("more than 512 bytes"), e.getMessage());
  }
}
