package org.yarngnn.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/options.md is what the option declarations generate; {@code -Dyarngnn.write-docs=true} rewrites it. */
class OptionsReferenceTest {
  /** The module's tests run in yarn-app/; the docs are the repository's. */
  private static final Path DOC = Path.of("..", "docs", "options.md");

  @Test
  void theCommittedReferenceIsWhatTheDeclarationsGenerate() throws Exception {
    String generated = OptionsReference.markdown();
    if (Boolean.getBoolean("yarngnn.write-docs")) {
      Files.writeString(DOC, generated, StandardCharsets.UTF_8);
    }
    assertEquals(generated, Files.readString(DOC, StandardCharsets.UTF_8), "docs/options.md differs from the "
        + "declarations: regenerate it with mvn -o -q -pl yarn-app -am verify -Dtest=OptionsReferenceTest "
        + "-Dsurefire.failIfNoSpecifiedTests=false -Dyarngnn.write-docs=true");
  }
}
