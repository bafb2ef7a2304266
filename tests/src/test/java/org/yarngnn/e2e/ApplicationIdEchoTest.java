package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** An application id is echoed escaped: control characters in it cannot rewrite the terminal or split the line. */
class ApplicationIdEchoTest {
  @Test
  void anIdWithControlCharactersIsRefusedEscaped() {
    String id = "application_1700000000000_0001\n\u001b[2Kyarn-gnn status: SUCCEEDED\tdone\u0007";
    CliRun run = CliRun.of("status", id, "--local");
    assertEquals(2, run.status(), run::toString);
    assertEquals(1, run.err().strip().lines().count(), () -> "one line: " + run);
    assertFalse(run.err().strip().chars().anyMatch(c -> c < 0x20 || c == 0x7f), run::toString);
    assertTrue(run.err().contains("\"application_1700000000000_0001\\n\\u001B[2Kyarn-gnn status: SUCCEEDED\\tdone"
        + "\\u0007\" is not an application id"), run::toString);
  }
}
