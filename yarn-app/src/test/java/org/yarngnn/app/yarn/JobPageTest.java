package org.yarngnn.app.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.app.runtime.DriverSession;
import org.yarngnn.app.runtime.Phase;
import org.yarngnn.app.runtime.PhaseCommand;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.compute.model.Json;

/** The job page over real HTTP: the workers' rows, the epochs, the pool, escaping; and the kept summary. */
class JobPageTest {
  @TempDir java.nio.file.Path dir;

  private static String get(String url, String method) throws IOException {
    HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
    c.setRequestMethod(method);
    if (c.getResponseCode() != 200) {
      return "HTTP " + c.getResponseCode();
    }
    return new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }

  private static void feed(JobPage page) {
    DriverSession.Progress p = page.figures();
    p.report(0.5f, "forward epoch 1 layer 1");
    for (int w = 0; w < 2; w++) {
      p.answered(new PhaseCommand(Phase.JOB), w, PhaseResult.EMPTY, Map.of(), 0.01);
      p.answered(new PhaseCommand(Phase.BUILD_EDGES), w, new PhaseResult.PartitionSizes(100 + w, 900, 40),
          Map.of("bytesSent", 1000.0, "heapUsedBytes", 5000.0), 0.5);
      p.answered(new PhaseCommand(Phase.FORWARD, 0, 1, null), w, PhaseResult.EMPTY, Map.of(), 0.25);
      p.answered(new PhaseCommand(Phase.FORWARD, 1, 1, null), w, PhaseResult.EMPTY, Map.of(), 0.25);
    }
    p.answered(new PhaseCommand(Phase.EXIT), 1, new PhaseResult.WorkerReport(Map.of("bytesSent", 2.0 * (1 << 20),
        "bytesReceived", 1024.0, "peakHeapBytes", 64.0 * (1 << 20), "t.bad", Double.NaN)), Map.of(), 0.1);
    Map<String, Object> epoch = new LinkedHashMap<>();
    epoch.put("epoch", 1L);
    epoch.put("loss", Double.NaN); // a diverged loss: JSON has no NaN
    epoch.put("val_accuracy", 0.5);
    epoch.put("max_staleness", 2L);
    p.epoch(epoch);
    p.tensorPool(2, List.of(Map.of("seconds", 0.0, "size", 1L), Map.of("seconds", 3.5, "size", 2L)));
    page.line("yarn-gnn train: <script>alert(1)</script> & more");
  }

  @Test
  void servesTheWorkersRowsEpochsAndPoolAsHtmlAndJson() throws Exception {
    JobPage page = new JobPage("application_1_0001");
    String url = page.start("127.0.0.1", (ProxyOnlyAccess) null);
    try {
      feed(page);
      Map<?, ?> json = (Map<?, ?>) Json.parse(get(url + "json", "GET"));
      List<?> rows = (List<?>) json.get("workers");
      assertEquals(2, rows.size(), json.toString());
      Map<?, ?> w0 = (Map<?, ?>) rows.get(0);
      assertEquals(100L, ((Number) w0.get("nodes")).longValue());
      assertEquals(0.5, ((Number) ((Map<?, ?>) w0.get("phase_seconds")).get("forward")).doubleValue(), 1e-9);
      assertEquals(1000L, ((Number) w0.get("bytes_sent")).longValue(), "the gauges before the exit report: " + w0);
      assertEquals(5000L, ((Number) w0.get("heap_bytes")).longValue(), w0.toString());
      assertFalse(w0.containsKey("bytes_received"), w0.toString());
      Map<?, ?> w1 = (Map<?, ?>) rows.get(1);
      assertEquals(2L << 20, ((Number) w1.get("bytes_sent")).longValue(), w1.toString());
      assertFalse(((Map<?, ?>) w1.get("report")).containsKey("t.bad"), w1.toString());
      Map<?, ?> epoch = (Map<?, ?>) ((List<?>) json.get("epochs")).get(0);
      assertTrue(epoch.containsKey("loss") && epoch.get("loss") == null, epoch.toString());
      assertEquals(2L, ((Number) ((Map<?, ?>) json.get("tensor_pool")).get("size")).longValue());
      String html = get(url, "GET");
      assertEquals(2, html.split("<tr class='worker'>", -1).length - 1, html);
      assertTrue(html.contains("<td>2.0 MiB</td>") && html.contains("<th>max staleness</th>")
          && html.contains("id='tensor-pool'"), html);
      assertFalse(html.contains("<script>"), html);
      assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more"), html);
      assertEquals("HTTP 405", get(url, "POST"));
    } finally {
      page.stop();
    }
  }

  /** As YARN's AmIpFilter: a request from elsewhere than a proxy host is sent to the proxy's URL of the page. */
  @Test
  void onlyTheProxyHostsAreAnsweredOthersAreSentToTheProxy() throws Exception {
    JobPage elsewhere = new JobPage("application_1_0005");
    String url = elsewhere.start("127.0.0.1",
        new ProxyOnlyAccess(List.of("192.0.2.1:8088"), "http://192.0.2.1:8088/proxy/application_1_0005/"));
    try {
      HttpURLConnection c = (HttpURLConnection) new URL(url + "json?x=1").openConnection();
      c.setInstanceFollowRedirects(false);
      assertEquals(302, c.getResponseCode());
      assertEquals("http://192.0.2.1:8088/proxy/application_1_0005/json?x=1", c.getHeaderField("Location"));
    } finally {
      elsewhere.stop();
    }
    JobPage here = new JobPage("application_1_0006");
    url = here.start("127.0.0.1", new ProxyOnlyAccess(List.of("127.0.0.1:8088"), "http://127.0.0.1:8088/proxy/a"));
    try {
      assertTrue(get(url + "json", "GET").contains("application_1_0006"));
    } finally {
      here.stop();
    }
  }

  @Test
  void theSummaryIsKeptAndReadBack() throws Exception {
    Configuration conf = new Configuration();
    conf.set(JobHistory.ROOT_KEY, dir.resolve("history").toUri().toString());
    FileSystem fs = FileSystem.getLocal(conf);
    JobPage page = new JobPage("application_1_0002");
    feed(page);
    Path file = JobHistory.forApplication(conf, fs, "application_1_0002");
    page.finish(fs, file, "FAILED", "worker 1 died");
    Map<?, ?> kept = JobHistory.read(fs, file).orElseThrow();
    assertEquals("FAILED", kept.get("final_status"));
    assertEquals("worker 1 died", kept.get("diagnostics"));
    assertEquals(2, ((List<?>) kept.get("workers")).size());
    assertTrue(JobHistory.read(fs, JobHistory.forApplication(conf, fs, "application_1_0003")).isEmpty());
    Files.writeString(dir.resolve("history/application_1_0004.json"), "{\"not\": \"a summary\"}");
    IOException e = assertThrows(IOException.class,
        () -> JobHistory.read(fs, JobHistory.forApplication(conf, fs, "application_1_0004")));
    assertTrue(e.getMessage().contains("not a job summary"), e.getMessage());
  }
}
