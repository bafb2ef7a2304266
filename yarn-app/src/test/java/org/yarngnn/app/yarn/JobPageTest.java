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
import org.yarngnn.compute.json.Json;

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

  /** The texts of the chart's {@code <text class='CLASS'>} elements, and their attribute {@code attr}. */
  private static Map<String, Double> ticks(String svg, String cls, String attr) {
    Map<String, Double> at = new LinkedHashMap<>();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("<text class='" + cls + "' ([^>]*)>([^<]*)</text>")
        .matcher(svg);
    while (m.find()) {
      java.util.regex.Matcher a = java.util.regex.Pattern.compile(attr + "='([-0-9.]+)'").matcher(m.group(1));
      assertTrue(a.find(), m.group());
      at.put(m.group(2), Double.parseDouble(a.group(1)));
    }
    return at;
  }

  /** A line of the chart: its dash pattern ("" for solid) and its points. */
  private record Line(String dash, List<double[]> points) {}

  private static Line line(String svg, String key) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("<polyline class='series " + key + "'([^>]*)/>")
        .matcher(svg);
    assertTrue(m.find(), "no line of " + key + ": " + svg);
    java.util.regex.Matcher dash = java.util.regex.Pattern.compile("stroke-dasharray='([^']*)'").matcher(m.group(1));
    java.util.regex.Matcher points = java.util.regex.Pattern.compile("points='([^']*)'").matcher(m.group(1));
    assertTrue(points.find(), m.group());
    List<double[]> xy = new java.util.ArrayList<>();
    for (String p : points.group(1).split(" ")) {
      String[] c = p.split(",");
      xy.add(new double[] {Double.parseDouble(c[0]), Double.parseDouble(c[1])});
    }
    return new Line(dash.find() ? dash.group(1) : "", xy);
  }

  /**
   * Epochs 1 to 4 with val and test accuracy equal: each axis is titled and ticked in its unit, a point sits at
   * its value's tick, and the two accuracy lines, drawn on the same points, differ in dash pattern and marker and
   * are named in the legend.
   */
  @Test
  void theTrainingChartHasLabelledAxesAndTellsCoincidingLinesApart() {
    double[] loss = {2.0, 1.5, 1.0, 0.5};
    double[] accuracy = {0.25, 0.5, 0.75, 0.75};
    List<Map<String, Object>> epochs = new java.util.ArrayList<>();
    for (int e = 0; e < loss.length; e++) {
      Map<String, Object> f = new LinkedHashMap<>();
      f.put("epoch", (long) e + 1);
      f.put("loss", loss[e]);
      f.put("val_accuracy", accuracy[e]);
      f.put("test_accuracy", accuracy[e]);
      epochs.add(f);
    }
    String svg = JobPageHtml.chart(epochs);
    assertTrue(svg.contains(">epoch</text>") && svg.contains(">loss</text>") && svg.contains(">accuracy (%)</text>"),
        svg);
    Map<String, Double> epochX = ticks(svg, "epoch-tick", "x");
    Map<String, Double> lossY = ticks(svg, "loss-tick", "y");
    Map<String, Double> accuracyY = ticks(svg, "accuracy-tick", "y");
    assertEquals(List.of("1", "2", "3", "4"), List.copyOf(epochX.keySet()), svg);
    assertEquals(List.of("0", "0.5", "1", "1.5", "2"), List.copyOf(lossY.keySet()), svg);
    assertEquals(List.of("0", "25", "50", "75", "100"), List.copyOf(accuracyY.keySet()), svg);

    Line lossLine = line(svg, "loss");
    Line val = line(svg, "val_accuracy");
    Line test = line(svg, "test_accuracy");
    assertEquals(epochX.get("3"), lossLine.points().get(2)[0], 0.11, "epoch 3 on its tick");
    assertEquals(lossY.get("1"), lossLine.points().get(2)[1], 0.11, "loss 1.0 on its tick");
    assertEquals(epochX.get("2"), val.points().get(1)[0], 0.11, "epoch 2 on its tick");
    assertEquals(accuracyY.get("50"), val.points().get(1)[1], 0.11, "accuracy 0.5 at 50 %");
    assertEquals(accuracyY.get("75"), test.points().get(3)[1], 0.11, "accuracy 0.75 at 75 %");
    for (int e = 0; e < loss.length; e++) {
      assertTrue(java.util.Arrays.equals(val.points().get(e), test.points().get(e)), "the lines coincide");
    }
    assertEquals("", lossLine.dash());
    assertFalse(val.dash().isEmpty() || test.dash().isEmpty() || val.dash().equals(test.dash()),
        "val and test accuracy need distinct dash patterns: " + val.dash() + " / " + test.dash());
    // One marker per epoch and one in the legend: circles for val, squares for test.
    assertEquals(loss.length + 1, svg.split("<circle ", -1).length - 1, svg);
    assertEquals(loss.length + 1, svg.split("<rect x='[-0-9.]+' y='[-0-9.]+' width='9'", -1).length - 1, svg);
    assertEquals(3, svg.split("<g class='legend'>", -1).length - 1, svg);
    assertTrue(svg.contains(">loss (left)</text>") && svg.contains(">val accuracy (%, right)</text>")
        && svg.contains(">test accuracy (%, right)</text>"), svg);
  }
}
