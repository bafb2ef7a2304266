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
 * The {@code yarngnn.*} keys a command finds in its configuration, through the CLI: a workflow's steps share
 * {@code -conf} files (and site files), so another command's options and the runtime's documented keys there are
 * no error; a {@code -D} on the command's own line that it does not know is one; a {@code -conf} file that is
 * missing or not XML, and a boolean key that is not a boolean, are refused in one line naming them.
 */
class ConfigurationKeysTest {
  @TempDir Path dir;

  private List<String> infer(String... generic) throws Exception {
    Path[] t = RunLimitsTest.tinyJob(dir);
    List<String> args = new ArrayList<>(List.of("infer"));
    args.addAll(List.of(generic));
    args.addAll(List.of("--local", "--workers", "2", "--edges", t[0].toString(), "--nodes", t[1].toString(),
        "--model", t[2].toString(), "--output", dir.resolve("out").toString()));
    return args;
  }

  private static CliRun run(List<String> args) {
    return CliRun.of(args.toArray(new String[0]));
  }

  private Path conf(String name, String... keyValues) throws Exception {
    StringBuilder xml = new StringBuilder("<configuration>");
    for (int i = 0; i < keyValues.length; i += 2) {
      xml.append("<property><name>").append(keyValues[i]).append("</name><value>").append(keyValues[i + 1])
          .append("</value></property>");
    }
    return Files.writeString(dir.resolve(name), xml.append("</configuration>").toString());
  }

  private static void assertOneLine(CliRun run, String expected) {
    assertEquals(2, run.status(), run::toString);
    assertTrue(run.err().contains(expected), run::toString);
    assertEquals(1, run.err().strip().lines().count(), run::toString);
  }

  @Test
  void aWorkflowsSharedConfFileWithOtherCommandsKeysRuns() throws Exception {
    // train's, topk's and the runtime's keys beside one of infer's own: what an Oozie workflow's steps share.
    Path shared = conf("workflow.xml", "yarngnn.epochs", "50", "yarngnn.k", "10", "yarngnn.history-dir",
        dir.resolve("history").toString(), "yarngnn.staging-dir", dir.resolve("staging").toString(),
        "yarngnn.seed", "3");
    CliRun run = run(infer("-conf", shared.toString()));
    assertEquals(0, run.status(), run::toString);
    assertFalse(run.err().contains("warning"), run::toString);
    assertTrue(Files.exists(dir.resolve("out/_SUCCESS")), run::toString);
  }

  @Test
  void aDocumentedRuntimeKeyGivenWithDIsAccepted() throws Exception {
    CliRun run = run(infer("-D", "yarngnn.history-dir=" + dir.resolve("history"), "-D",
        "yarngnn.staging-dir=" + dir.resolve("staging"), "-D", "yarngnn.transport.encrypt=true", "--dry-run"));
    assertEquals(0, run.status(), run::toString);
  }

  @Test
  void aDKeyTheCommandDoesNotKnowIsStillATypo() throws Exception {
    assertOneLine(run(infer("-D", "yarngnn.workerz=3", "--dry-run")), "unknown option -D yarngnn.workerz for infer");
    // Given on infer's own line, train's option is no option of infer either.
    assertOneLine(run(infer("-D", "yarngnn.epochs=3", "--dry-run")), "unknown option -D yarngnn.epochs for infer");
  }

  @Test
  void aKeyNoCommandKnowsInAConfFileWarnsInOneLine() throws Exception {
    Path shared = conf("workflow.xml", "yarngnn.workerz", "3");
    CliRun run = run(infer("-conf", shared.toString(), "--dry-run"));
    assertEquals(0, run.status(), run::toString);
    List<String> warnings = run.err().lines().filter(l -> l.contains("yarngnn.workerz")).toList();
    assertEquals(1, warnings.size(), run::toString);
    assertTrue(warnings.get(0).contains("warning") && warnings.get(0).contains(shared.toString()), run::toString);
  }

  @Test
  void aConfFileThatIsMissingOrNotXmlIsRefusedNamingIt() throws Exception {
    Path missing = dir.resolve("no-such.xml");
    assertOneLine(run(infer("-conf", missing.toString(), "--dry-run")), "-conf " + missing + ": no such file");
    Path text = Files.writeString(dir.resolve("settings.txt"), "yarngnn.seed=3\n");
    CliRun run = run(infer("-conf", text.toString(), "--dry-run"));
    assertOneLine(run, "-conf " + text + ": not a Hadoop configuration file");
    assertFalse(run.err().contains("ctc") || run.err().contains("wstx") || run.err().contains("Exception"),
        run::toString);
    assertFalse(Files.exists(dir.resolve("out")), run::toString);
  }

  @Test
  void aBooleanKeyThatIsNotABooleanIsRefusedNamingIt() throws Exception {
    assertOneLine(run(infer("-D", "yarngnn.transport.encrypt=yes")),
        "yarngnn.transport.encrypt is true or false, not 'yes'");
    Path shared = conf("workflow.xml", "yarngnn.transport.encrypt", "maybe");
    assertOneLine(run(infer("-conf", shared.toString())), "yarngnn.transport.encrypt is true or false, not 'maybe'");
    // An option's own switch as a key, too.
    assertOneLine(run(infer("-D", "yarngnn.undirected=yes")), "option --undirected is true or false, not 'yes'");
    assertFalse(Files.exists(dir.resolve("out")));
  }
}
