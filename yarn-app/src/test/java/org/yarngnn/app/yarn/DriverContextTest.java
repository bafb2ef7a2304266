package org.yarngnn.app.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.app.runtime.DriverSession;

/**
 * What a driver reports through its context reaches the ResourceManager's progress, the client's status file and
 * the job page: progress never going back, the epochs' figures for the client.
 */
class DriverContextTest {
  @TempDir
  java.nio.file.Path tmp;

  private DriverContext context(FileSystem fs, JobPage page) {
    return new DriverContext(new Configuration(false), List.of(), null, fs, new Path(tmp.toUri()),
        "application_1_0001", "127.0.0.1", page);
  }

  /** As a round run again after a lost worker reports: the fraction before the one already reached. */
  @Test
  void progressNeverGoesBackWhereverItIsReported() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    JobPage page = new JobPage("application_1_0001");
    DriverContext ctx = context(fs, page);
    DriverSession.Progress reporter = ctx.reporter();
    reporter.report(0.3f, "forward epoch 2 layer 1");
    reporter.report(0.4f, "forward epoch 2 layer 1 done");
    reporter.report(0.39f, "replacing worker {1} (rejoin)");
    assertEquals(0.4f, ctx.progress(), "the ResourceManager's progress went back");
    assertEquals(0.4f, page.figures().progressNow(), "the job page's progress went back");
    reporter.report(0.38f, "forward epoch 2 layer 1 (catching up: build)");
    reporter.report(0.5f, "backward epoch 2 layer 1 done");
    assertEquals(0.5f, ctx.progress(), "a higher fraction is taken");
    reporter.report(0.01f, "waiting for 2 workers");
    ctx.close();
    assertEquals(new StatusFile.Status(0.5f, "waiting for 2 workers"),
        StatusFile.read(fs, new Path(tmp.toUri())).orElseThrow(), "the client's status file: the new text");
  }

  @Test
  void theEpochsReachTheStatusFileNewestLastAndWithoutNaN() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    DriverContext ctx = context(fs, new JobPage("application_1_0001"));
    int epochs = StatusFile.MAX_EPOCHS + 5;
    for (int e = 1; e <= epochs; e++) {
      Map<String, Object> figures = new LinkedHashMap<>();
      figures.put("epoch", (long) e);
      figures.put("loss", e == epochs ? Double.NaN : 1.0 / e); // a diverged last epoch: JSON has no NaN
      ctx.reporter().epoch(figures);
    }
    ctx.close();
    List<Map<String, Object>> kept = StatusFile.read(fs, new Path(tmp.toUri())).orElseThrow().epochs();
    assertEquals(StatusFile.MAX_EPOCHS, kept.size(), "the newest epochs are kept");
    assertEquals(6L, kept.get(0).get("epoch"));
    assertEquals(1.0 / (epochs - 1), (double) kept.get(kept.size() - 2).get("loss"), 1e-12);
    assertEquals((long) epochs, kept.get(kept.size() - 1).get("epoch"));
    assertNull(kept.get(kept.size() - 1).get("loss"));
  }
}
