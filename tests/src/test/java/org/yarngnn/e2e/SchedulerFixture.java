package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * What the scheduler examples' tests share: the repository's scripts folder, and a tiny labelled graph with a
 * random model and a training spec, made by the product's own {@code generate}.
 */
final class SchedulerFixture {
  private SchedulerFixture() {}

  /** The repository's {@code scripts/} (surefire runs in {@code tests/}). */
  static Path scripts() {
    Path p = Paths.get("").toAbsolutePath().getParent().resolve("scripts");
    if (!Files.isDirectory(p.resolve("oozie")) || !Files.isDirectory(p.resolve("airflow"))) {
      throw new IllegalStateException("scripts/oozie and scripts/airflow not found under " + p);
    }
    return p;
  }

  /** A graph of 300 nodes in 3 classes with 8 features: {@code dir/graph/{edges,nodes}}, {@code dir/model}. */
  record TinyGraph(Path edges, Path nodes, Path model, Path spec) {}

  static TinyGraph tinyGraph(Path dir) throws IOException {
    Path graph = dir.resolve("graph");
    Path model = dir.resolve("model");
    CliRun gen = CliRun.of("generate", "--type", "sbm", "--nodes", "300", "--classes", "3", "--avg-degree", "5",
        "--features", "8", "--files", "1", "--output", graph.toString(), "--model", model.toString(),
        "--model-type", "gcn", "--hidden", "8");
    assertEquals(0, gen.status(), gen.toString());
    Path spec = dir.resolve("spec.json");
    Files.writeString(spec, """
        {"format": 1, "input": {"normalize": "none"},
         "layers": [{"type": "gcn", "in": 8, "out": 8, "activation": "relu"},
                    {"type": "gcn", "in": 8, "out": 3, "activation": "none"}],
         "output": {"normalize": "none", "predict": true}}
        """, StandardCharsets.UTF_8);
    return new TinyGraph(graph.resolve("edges"), graph.resolve("nodes"), model, spec);
  }

  /** True when this JVM would submit to a cluster (a yarn-site.xml under HADOOP_CONF_DIR / YARN_CONF_DIR). */
  static boolean clusterConfigured() {
    for (String env : new String[] {"YARN_CONF_DIR", "HADOOP_CONF_DIR"}) {
      String d = System.getenv(env);
      if (d != null && Files.isRegularFile(Paths.get(d, "yarn-site.xml"))) {
        return true;
      }
    }
    return false;
  }
}
