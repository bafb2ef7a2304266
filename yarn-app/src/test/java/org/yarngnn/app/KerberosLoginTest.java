package org.yarngnn.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client's {@code --principal}/{@code --keytab} checks, before anything runs (the login itself is tested
 * against a MiniKdc in the tests module).
 */
class KerberosLoginTest {
  @TempDir Path dir;

  private record Run(int status, String err) {}

  private static Run run(String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        PrintStream o = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)) {
      status = Main.run(args, o, e);
    }
    return new Run(status, err.toString(StandardCharsets.UTF_8));
  }

  private String[] partition(String... extra) {
    String[] base = {"partition", "--local", "--edges", dir.resolve("none-edges.tsv").toString(), "--nodes",
        dir.resolve("none-nodes.tsv").toString(), "--output", dir.resolve("out").toString()};
    String[] all = java.util.Arrays.copyOf(base, base.length + extra.length);
    System.arraycopy(extra, 0, all, base.length, extra.length);
    return all;
  }

  private static void assertOneLine(Run r, String expected) {
    assertEquals(Main.BAD_INPUT, r.status(), r.err());
    assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
    assertTrue(r.err().contains(expected), r.err());
  }

  @Test
  void aPrincipalWithoutAKeytabIsRefused() {
    assertOneLine(run(partition("--principal", "etl@EXAMPLE.COM")), "--principal etl@EXAMPLE.COM needs --keytab");
    assertOneLine(run("infer", "--principal", "etl@EXAMPLE.COM", "--edges", "e", "--nodes", "n", "--model", "m",
        "--output", "o"), "needs --keytab");
  }

  @Test
  void aKeytabWithoutAPrincipalIsRefused() throws Exception {
    Path keytab = Files.write(dir.resolve("etl.keytab"), new byte[] {5, 2});
    assertOneLine(run(partition("--keytab", keytab.toString())), "--keytab needs --principal");
    assertOneLine(run("train", "-D", "yarngnn.keytab=" + keytab, "--edges", "e", "--nodes", "n", "--model-spec",
        "s", "--output", "o"), "--keytab needs --principal");
  }

  @Test
  void aMissingOrUnreadableKeytabIsRefusedNamingIt() throws Exception {
    Path missing = dir.resolve("missing.keytab");
    assertOneLine(run(partition("--principal", "etl@EXAMPLE.COM", "--keytab", missing.toString())),
        "--keytab " + missing + ": no such file");
    assertOneLine(run(partition("--principal", "etl@EXAMPLE.COM", "--keytab", dir.toString())),
        "--keytab " + dir + ": not a readable file");
  }

  @Test
  void withoutKerberosTheOptionsAreCheckedThenIgnoredWithAWarning() throws Exception {
    Path keytab = Files.write(dir.resolve("etl.keytab"), new byte[] {5, 2});
    Run r = run(partition("--principal", "etl@EXAMPLE.COM", "--keytab", keytab.toString()));
    assertTrue(r.err().contains("warning: hadoop.security.authentication is not kerberos"), r.err());
    // The command then ran, and refused the missing tables as it would without the options.
    assertEquals(Main.BAD_INPUT, r.status(), r.err());
    assertTrue(r.err().contains("none-edges.tsv"), r.err());
  }
}
