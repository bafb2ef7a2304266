package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.model.ModelDirectory;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.RandomModels;
import org.yarngnn.compute.model.Safetensors;

/**
 * "Nothing lost, nothing wrong" through the CLI: an output never replaces an input, numbers are finite or the
 * job fails, a model file cannot promise more than it holds. Every refusal: exit 2 (bad input) or 1 (failed
 * while running), one line, no _SUCCESS, no part files, inputs untouched.
 */
class SafeOutputTest {
  private static final ModelSpec SPEC = new ModelSpec("none",
      List.of(LayerSpec.gcn(3, 2, Activation.NONE, true)), "none", false);

  @TempDir Path dir;
  Path model;
  Path edges;
  Path nodes;
  Path out;

  @BeforeEach
  void inputs() throws Exception {
    model = dir.resolve("model");
    ModelDirectory.write(RandomModels.random(SPEC, 1), model);
    nodes = write("nodes.tsv", "10\t1,2,3", "20\t0,0,1", "30\t0.5,0.5,0.5");
    edges = write("edges.tsv", "10\t20", "20\t30", "30\t10");
    out = dir.resolve("out");
  }

  private Path write(String name, String... lines) throws Exception {
    Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    Files.write(p, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    return p;
  }

  private CliRun infer(Path output, String... extra) {
    List<String> args = new ArrayList<>(List.of("infer", "--local", "--edges", edges.toString(), "--nodes",
        nodes.toString(), "--model", model.toString(), "--output", output.toString()));
    args.addAll(List.of(extra));
    return CliRun.of(args.toArray(new String[0]));
  }

  /** Every file under {@code root} with its bytes' hash: to show the inputs are untouched. */
  private static Map<String, Integer> snapshot(Path root) throws Exception {
    Map<String, Integer> m = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(Files::isRegularFile).collect(Collectors.toList())) {
        m.put(root.relativize(p).toString(), Arrays.hashCode(Files.readAllBytes(p)));
      }
    }
    return m;
  }

  private static void refused(CliRun run, int status, String... fragments) {
    assertEquals(status, run.status(), run.toString());
    String msg = run.err().trim();
    assertEquals(1, msg.lines().count(), "one line: " + msg);
    for (String f : fragments) {
      assertTrue(msg.contains(f), "message names '" + f + "': " + msg);
    }
  }

  private void noOutput() throws Exception {
    assertFalse(Files.exists(out.resolve("_SUCCESS")), "no _SUCCESS");
    if (Files.exists(out)) {
      try (Stream<Path> s = Files.list(out)) {
        assertFalse(s.anyMatch(p -> p.getFileName().toString().startsWith("part-")), "no part files");
      }
    }
    try (Stream<Path> s = Files.list(dir)) {
      assertFalse(s.anyMatch(p -> p.getFileName().toString().startsWith(".out")), "no leftover work directory");
    }
  }

  // ---- 1. outputs never touch inputs -------------------------------------------------------------------------

  @Test
  void outputThatIsContainsOrLiesInsideAnInputIsRefused() throws Exception {
    Path nodesDir = dir.resolve("nodesdir");
    Files.createDirectories(nodesDir);
    Files.move(nodes, nodesDir.resolve("nodes.tsv"));
    nodes = nodesDir;
    Map<String, Integer> before = snapshot(dir);
    refused(infer(nodesDir, "--overwrite"), 2, "--output " + nodesDir + " is --nodes " + nodesDir);
    refused(infer(dir, "--overwrite"), 2, "--output " + dir + " contains --edges " + edges);
    refused(infer(model.resolve("sub"), "--overwrite"), 2, "lies inside --model " + model);
    refused(infer(Path.of(dir + "/x/../nodesdir/"), "--overwrite"), 2, " is --nodes ");
    refused(CliRun.of("partition", "--local", "--edges", edges.toString(), "--nodes", nodes.toString(),
        "--output", dir.toString(), "--overwrite"), 2, "--output " + dir + " contains --edges");
    refused(CliRun.of("import", "--edges", edges.toString(), "--output", dir.toString(), "--overwrite"), 2,
        "contains --edges");
    assertEquals(before, snapshot(dir), "inputs untouched");
  }

  @Test
  void dotWithTheInputsInItIsRefused() throws Exception {
    // The tests run in the module directory: inputs under ./target, and --output . (or ./target).
    Path local = Path.of("target", "safe-output-test");
    Files.createDirectories(local);
    Path relNodes = local.resolve("nodes.tsv");
    Files.copy(nodes, relNodes, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    nodes = relNodes;
    refused(infer(Path.of("."), "--overwrite"), 2, "--output . contains --nodes " + relNodes);
    refused(infer(Path.of("target"), "--overwrite"), 2, "--output target contains --nodes " + relNodes);
    assertTrue(Files.exists(relNodes) && Files.exists(Path.of("pom.xml")));
  }

  @Test
  void overwriteReplacesAndLeavesNothingBeside() throws Exception {
    assertEquals(0, infer(out).status());
    CliRun again = infer(out, "--overwrite");
    assertEquals(0, again.status(), again.toString());
    assertTrue(Files.exists(out.resolve("_SUCCESS")));
    try (Stream<Path> s = Files.list(dir)) {
      assertEquals(List.of(), s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("."))
          .collect(Collectors.toList()), "no hidden work or old directory is left");
    }
  }

  // ---- 3. numbers are finite or the job fails ----------------------------------------------------------------

  private void weights(float value, String tensor, int index) throws Exception {
    Model m = RandomModels.random(SPEC, 1);
    m.weights().get(tensor).data()[index] = value;
    Files.write(model.resolve(ModelDirectory.WEIGHTS), Safetensors.toBytes(m.weights().values(), null));
  }

  @Test
  void nonFiniteWeightIsBadInput() throws Exception {
    weights(Float.NaN, "layers.0.weight", 3);
    refused(infer(out), 2, model + "/weights.safetensors", "tensor layers.0.weight holds NaN at index 3 [1, 1]");
    noOutput();
    weights(Float.POSITIVE_INFINITY, "layers.0.bias", 0);
    refused(infer(out, "--strategy", "nodewise"), 2, "tensor layers.0.bias holds Infinity at index 0");
    noOutput();
  }

  @Test
  void nonPositiveGcnDegreeIsBadInputNamingTheNodeAndTheEdges() throws Exception {
    edges = write("edges.tsv", "10\t20\t1", "20\t30\t-2.5", "30\t10\t1");
    for (String[] mode : new String[][] {{}, {"--workers", "2"}, {"--strategy", "nodewise"}}) {
      refused(infer(out, mode), 2, edges.toString(), "node 30: gcn degree 1 + sum of in-edge weights is -1.5");
      noOutput();
    }
  }

  @Test
  void nonFiniteEmbeddingFailsTheJobAndCommitsNothing() throws Exception {
    // Finite weights, but 3e38 * (1 + 2 + 3) overflows float: the embeddings are infinite.
    Model m = RandomModels.random(SPEC, 1);
    Arrays.fill(m.weights().get("layers.0.weight").data(), 3e38f);
    ModelDirectory.write(m, model);
    for (String[] mode : new String[][] {{}, {"--workers", "2"}, {"--strategy", "nodewise"}}) {
      refused(infer(out, mode), 1, "embedding is not finite after layer 0");
      noOutput();
    }
    // An existing output survives a failed overwrite.
    ModelDirectory.write(RandomModels.random(SPEC, 1), model);
    assertEquals(0, infer(out).status());
    ModelDirectory.write(m, model);
    refused(infer(out, "--overwrite"), 1, "embedding is not finite");
    assertTrue(Files.exists(out.resolve("_SUCCESS")), "the previous output is kept");
  }

  // ---- 4. bounds ---------------------------------------------------------------------------------------------

  @Test
  void weightsFilePromisingMoreThanItHoldsIsRefusedAtOnce() throws Exception {
    String header = "{\"layers.0.weight\":{\"dtype\":\"F32\",\"shape\":[2147483639],"
        + "\"data_offsets\":[0,8589934556]}}";
    byte[] json = header.getBytes(StandardCharsets.US_ASCII);
    ByteBuffer b = ByteBuffer.allocate(8 + json.length + 4).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(json.length).put(json).putFloat(1f);
    Files.write(model.resolve(ModelDirectory.WEIGHTS), b.array());
    long t0 = System.nanoTime();
    refused(infer(out), 2, "weights.safetensors: truncated: the header promises 8589934556 data bytes");
    assertTrue(System.nanoTime() - t0 < 20e9);
    noOutput();
  }

  @Test
  void hugeModelJsonIsRefusedUnread() throws Exception {
    byte[] big = new byte[(16 << 20) + 1];
    Arrays.fill(big, (byte) ' ');
    big[0] = '{';
    big[big.length - 1] = '}';
    Files.write(model.resolve(ModelDirectory.MODEL_JSON), big);
    refused(infer(out), 2, "model.json: 16777217 bytes; at most 16777216");
    noOutput();
  }
}
