package org.yarngnn.app.topk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.graphworker.GraphJobOptions;

/** topk's options on the shared base: its own defaults of shared options, job.xml both ways, the refusals. */
class TopkOptionsTest {
  private static TopkOptions parse(String... args) {
    return TopkOptions.parse(CommandLine.parse(TopkOptions.optionSpec(), args, new Configuration(false)));
  }

  @Test
  void aSharedOptionKeepsTheCommandsOwnDefaultWhicheverDeclarationReadsIt() {
    TopkOptions o = parse("--local", "--embeddings", "/e", "--k", "5", "--output", "/o");
    assertEquals("yarn-gnn-topk", o.get(GraphJobOptions.NAME));
    assertEquals("yarn-gnn-topk", o.get(TopkOptions.NAME));
    assertEquals(24 * 3600L, o.get(GraphJobOptions.ROUND_TIMEOUT), "a retrieval's limit is a day");
    assertEquals(0, o.getInt(GraphJobOptions.WORKERS), "not given: the command picks");
    assertEquals(5, o.getInt(TopkOptions.K));
    TopkOptions back = TopkOptions.fromConfiguration(o.toConfiguration());
    assertEquals(o, back);
    assertEquals(o.hashCode(), back.hashCode());
    assertNotEquals(o, o.toBuilder().set(TopkOptions.K, 6).build());
  }

  @Test
  void refusalsNameTheOption() {
    assertEquals("topk needs --k", assertThrows(UsageException.class,
        () -> parse("--local", "--embeddings", "/e", "--output", "/o")).getMessage());
    assertEquals("topk needs --embeddings", assertThrows(UsageException.class,
        () -> parse("--local", "--k", "5", "--output", "/o")).getMessage());
    assertEquals("option --k must be between 1 and 100000, not 0", assertThrows(UsageException.class,
        () -> parse("--local", "--embeddings", "/e", "--k", "0", "--output", "/o")).getMessage());
  }
}
