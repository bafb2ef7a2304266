package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.e2e.cluster.MiniClusters;

/**
 * scripts/airflow/yarn_gnn_dag.py: compiles with python3, and, imported against stand-ins for the few Airflow
 * names it uses (airflow_dag_check.py; Airflow itself is not installed), parses without network or processes,
 * has `train` upstream of `infer` with retries, and its tasks' commands run for real: `yarn` on PATH is a stand-in
 * that runs Hadoop's own RunJar (what `yarn jar` runs) on the shipped jar, no cluster configuration, so the jobs
 * run in one JVM each. train then infer succeed and write the model and the embeddings of the run's date; infer
 * on a missing nodes table exits 2, which the DAG turns into a failure without retry; exit 1 is left to retries.
 * Needs python3 (this machine and CI have it); without one the test is skipped, saying so.
 */
class AirflowDagExampleTest {
  private static final String DATE = "2026-12-01"; // the {{ ds }} airflow_dag_check.py renders

  static String python;

  @BeforeAll
  static void findPython() {
    python = null;
    for (String candidate : new String[] {"python3", "/usr/bin/python3"}) {
      try {
        Process p = new ProcessBuilder(candidate, "--version").redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0) {
          python = candidate;
          break;
        }
      } catch (IOException | InterruptedException e) {
        // not this one
      }
    }
    Assumptions.assumeTrue(python != null,
        "assumption: a python3 on PATH or /usr/bin/python3 to compile and import the DAG file; none found");
  }

  @Test
  void dagFileCompiles(@TempDir Path dir) throws Exception {
    Path dag = SchedulerFixture.scripts().resolve("airflow/yarn_gnn_dag.py");
    // PYTHONPYCACHEPREFIX keeps the .pyc out of the source tree.
    Result r = run(List.of(python, "-m", "py_compile", dag.toString()), Map.of("PYTHONPYCACHEPREFIX",
        dir.toString()), dir);
    assertEquals(0, r.status, "py_compile: " + r.output);
  }

  @Test
  void importsOnAirflow2NamesWithTrainBeforeInfer(@TempDir Path dir) throws Exception {
    Result r = check(dir, "airflow2", "wiring");
    assertTrue(r.output.contains("OK import-is-offline"), r.output);
    assertTrue(r.output.contains("OK wiring tasks=['infer', 'train'] infer.upstream=['train']"), r.output);
  }

  @Test
  void trainThenInferRunAndExit2FailsWithoutRetryWhileExit1IsRetried(@TempDir Path dir) throws Exception {
    SchedulerFixture.TinyGraph g = SchedulerFixture.tinyGraph(dir);
    Path models = dir.resolve("models");
    Path embeddings = dir.resolve("embeddings");
    Result r = check(dir, "airflow3", "wiring", "run", "bad-input", "fail-1",
        "YARN_GNN_EDGES", g.edges().toString(), "YARN_GNN_NODES", g.nodes().toString(),
        "YARN_GNN_MODEL_SPEC", g.spec().toString(), "YARN_GNN_MODEL_ROOT", models.toString(),
        "YARN_GNN_EMBEDDINGS_ROOT", embeddings.toString(), "YARN_GNN_EPOCHS", "3", "YARN_GNN_WORKERS", "2",
        "YARN_GNN_WORKER_MEMORY_MB", "512");
    String out = r.output;
    out.lines().filter(l -> l.matches("(OK|FAIL|INFO|RESULT) .*")).forEach(System.out::println);
    assertEquals(0, r.status, out);
    assertTrue(out.contains("OK import-is-offline"), out);
    assertTrue(out.contains("OK wiring tasks=['infer', 'train'] infer.upstream=['train']"), out);
    assertTrue(out.matches("(?s).*INFO retries train=[1-9]\\d* infer=[1-9]\\d*.*"), "both tasks retry: " + out);
    assertTrue(out.contains("RESULT train success"), out);
    assertTrue(out.contains("RESULT infer success"), out);
    assertTrue(Files.isRegularFile(models.resolve(DATE).resolve("_SUCCESS")), "train committed the model");
    assertTrue(Files.isRegularFile(models.resolve(DATE).resolve("weights.safetensors")), out);
    assertTrue(Files.isRegularFile(embeddings.resolve(DATE).resolve("_SUCCESS")), "infer committed the output");
    // Exit 2 from yarn-gnn itself (the table is named on its one line): failed, although retries remain.
    assertTrue(out.contains("RESULT infer-bad-input failed"), out);
    assertTrue(out.contains("nodes-missing"), "yarn-gnn's one line names the table: " + out);
    // Exit 1: an AirflowException, so the task goes up for retry.
    assertTrue(out.contains("RESULT infer-exit-1 up_for_retry"), out);
  }

  private Result check(Path dir, String flavour, String... scenariosThenEnv) throws Exception {
    Path script = dir.resolve("airflow_dag_check.py");
    try (InputStream in = getClass().getResourceAsStream("airflow_dag_check.py")) {
      Files.write(script, in.readAllBytes());
    }
    List<String> cmd = new ArrayList<>(List.of(python, script.toString(),
        SchedulerFixture.scripts().resolve("airflow/yarn_gnn_dag.py").toString(), flavour));
    Map<String, String> env = new java.util.HashMap<>();
    int i = 0;
    while (i < scenariosThenEnv.length && !scenariosThenEnv[i].startsWith("YARN_GNN_")) {
      cmd.add(scenariosThenEnv[i++]);
    }
    for (; i + 1 < scenariosThenEnv.length; i += 2) {
      env.put(scenariosThenEnv[i], scenariosThenEnv[i + 1]);
    }
    Path bin = fakeYarn(dir.resolve("bin"));
    env.put("PATH", bin + File.pathSeparator + System.getenv("PATH"));
    env.put("YARN_GNN_JAR", new File(MiniClusters.shippedJar().toUri()).getPath());
    env.put("YARN_GNN_TEST_JAVA", Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    env.put("YARN_GNN_TEST_HADOOP_CP", hadoopClasspath());
    env.put("PYTHONDONTWRITEBYTECODE", "1");
    // RunJar's documented switch: the jar stays on the classpath as is instead of being unpacked for every run
    // (the same main class and classes; unpacking was three quarters of this test's time here: 49 s against 12 s).
    env.put("HADOOP_CLIENT_SKIP_UNJAR", "true");
    return run(cmd, env, dir);
  }

  /** `yarn jar JAR ARGS...` as Hadoop runs it: RunJar, the jar's manifest main class, Hadoop's client classpath. */
  private static Path fakeYarn(Path bin) throws IOException {
    Files.createDirectories(bin);
    Path yarn = bin.resolve("yarn");
    Files.writeString(yarn, """
        #!/usr/bin/env bash
        # Test stand-in for Hadoop's `yarn jar JAR ARGS...`; YARN_GNN_FAKE_EXIT=N exits N instead.
        [ "${1:-}" = jar ] || { echo "fake yarn: only 'yarn jar JAR ARGS...'" >&2; exit 64; }
        if [ -n "${YARN_GNN_FAKE_EXIT:-}" ]; then
          echo "fake yarn: exiting $YARN_GNN_FAKE_EXIT as the test asks" >&2
          exit "$YARN_GNN_FAKE_EXIT"
        fi
        shift
        exec "$YARN_GNN_TEST_JAVA" -cp "$YARN_GNN_TEST_HADOOP_CP" org.apache.hadoop.util.RunJar "$@"
        """, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(yarn, PosixFilePermissions.fromString("rwxr-xr-x"));
    return bin;
  }

  private static String hadoopClasspath() throws IOException {
    Path jar = Paths.get(MiniClusters.shippedJar().toUri());
    Path f = jar.resolveSibling("hadoop-classpath.txt");
    if (!Files.isRegularFile(f)) {
      throw new IllegalStateException(f + " is missing: run mvn -q -B -DskipTests package");
    }
    return Files.readString(f, StandardCharsets.UTF_8).trim();
  }

  private record Result(int status, String output) {}

  private static Result run(List<String> cmd, Map<String, String> env, Path dir) throws Exception {
    Path log = Files.createTempFile(dir, "run-", ".log");
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    // No cluster configuration: the commands a worker would submit to YARN run in their own JVM here.
    pb.environment().remove("HADOOP_CONF_DIR");
    pb.environment().remove("YARN_CONF_DIR");
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(300, TimeUnit.SECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      throw new AssertionError(cmd + " did not finish in 300 s:\n" + Files.readString(log));
    }
    return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
  }
}
