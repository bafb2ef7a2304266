package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code train --task link} through the CLI: bad link options exit 2 with one line naming the option and write
 * nothing, and so do the options link prediction does not support yet (docs/link-prediction.md).
 */
class TrainLinkOptionsTest {
  static final String GAE_SPEC = "{\"format\": 1, \"input\": {\"normalize\": \"none\"}, \"layers\": ["
      + "{\"type\": \"gcn\", \"in\": 1433, \"out\": 32, \"activation\": \"relu\", \"bias\": true},"
      + "{\"type\": \"gcn\", \"in\": 32, \"out\": 16, \"activation\": \"none\", \"bias\": true}],"
      + " \"output\": {\"normalize\": \"none\", \"predict\": false}}";

  @TempDir Path work;

  @Test
  void badOrUnsupportedLinkOptionsAreRefusedWithNothingWritten() throws Exception {
    Path spec = Files.writeString(work.resolve("gae.json"), GAE_SPEC);
    Path cora = SharedData.planetoid("cora");
    String[][] cases = {
        {"--link-split", "0.6,0.4"}, {"--link-split"},
        {"--negatives", "0"}, {"--negatives"},
        {"--loss", "hinge"}, {"--loss"},
        {"--temperature", "-1"}, {"--temperature"},
        {"--staleness", "1"}, {"does not support --staleness"},
        {"--tensor-backend", "remote"}, {"does not support --tensor-backend remote"},
    };
    for (int i = 0; i < cases.length; i += 2) {
      Path out = work.resolve("out-" + i);
      List<String> a = new ArrayList<>(List.of("train", "--local", "--task", "link", "--edges",
          cora.resolve("edges.tsv").toString(), "--nodes", cora.resolve("nodes.tsv.gz").toString(), "--model-spec",
          spec.toString(), "--output", out.toString(), "--epochs", "2"));
      a.addAll(List.of(cases[i]));
      CliRun run = CliRun.of(a.toArray(new String[0]));
      assertEquals(2, run.status(), run.toString());
      assertTrue(run.err().contains(cases[i + 1][0]), run.toString());
      assertEquals(1, run.err().strip().lines().count(), "one line: " + run.err());
      assertFalse(Files.exists(out), "nothing written: " + run);
    }
    assertFalse(Files.list(work).anyMatch(p -> p.getFileName().toString().startsWith(".out-")));
  }
}
