package org.yarngnn.app.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataInputByteBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.app.runtime.JobSecretKey;
import org.yarngnn.app.transport.TransportSecret;

/**
 * The job's transport secret travels only in the containers' credentials: the AM's launch context carries it in
 * its tokens, the workers' tokens keep it (without the AM-RM token), and it is in no command line, no
 * environment variable and no staged file, in any encoding.
 */
class JobSecretShippingTest {
  @TempDir java.nio.file.Path tmp;

  @Test
  void theSecretIsInTheCredentialsAndNowhereElse() throws Exception {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    conf.set(org.yarngnn.app.yarn.JarCache.DIR_KEY, tmp.resolve("lib").toUri().toString());
    FileSystem fs = FileSystem.getLocal(conf);
    java.nio.file.Path jar = Files.writeString(tmp.resolve("app.jar"), "jar bytes");
    JobSubmission s = JobSubmission.builder().jar(new Path(jar.toString())).jobConf(new Configuration(false))
        .driver(SelfTestDriver.class.getName(), List.of("ping")).env("SOME_VAR", "value").build();
    Path staging = new Path(tmp.resolve("staging").toUri());
    StagingDir.populate(conf, fs, staging, s);

    YarnJobClient client = new YarnJobClient(conf, new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8));
    Credentials made = new Credentials();
    ByteBuffer tokens = client.tokens(s, staging, made);
    TransportSecret secret = JobSecretKey.read(made);
    ContainerLaunchContext am = client.amContainer(s, fs, staging, "application_1_0001", tokens);

    Credentials shipped = read(am.getTokens());
    assertEquals(secret, JobSecretKey.read(shipped), "the AM's credentials carry the secret");
    assertNotEquals(secret, JobSecretKey.read(readFresh(client, s, staging)), "a fresh secret per application");

    List<String> forms = forms(secret.bytes());
    List<String> visible = new ArrayList<>(am.getCommands());
    for (Map.Entry<String, String> e : am.getEnvironment().entrySet()) {
      visible.add(e.getKey() + "=" + e.getValue());
    }
    try (var files = Files.walk(tmp.resolve("staging"))) {
      for (java.nio.file.Path f : files.filter(Files::isRegularFile).toList()) {
        visible.add(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1));
      }
    }
    for (String text : visible) {
      for (String form : forms) {
        assertFalse(text.contains(form), "the secret appears in " + text);
      }
    }

    // The AM passes its credentials on to the workers without the AM-RM token.
    Credentials amCreds = new Credentials(shipped);
    Token<AMRMTokenIdentifier> amrm = new Token<>(new byte[] {1}, new byte[] {2}, AMRMTokenIdentifier.KIND_NAME,
        new Text("rm"));
    amCreds.addToken(new Text("amrm"), amrm);
    Credentials worker = read(ContainerPool.workerTokens(amCreds));
    assertEquals(secret, JobSecretKey.read(worker));
    assertTrue(worker.getAllTokens().stream().noneMatch(t -> AMRMTokenIdentifier.KIND_NAME.equals(t.getKind())));
  }

  private static Credentials readFresh(YarnJobClient client, JobSubmission s, Path staging) throws Exception {
    Credentials c = new Credentials();
    client.tokens(s, staging, c);
    return c;
  }

  private static void assertNotEquals(Object a, Object b, String why) {
    assertFalse(a.equals(b), why);
  }

  private static Credentials read(ByteBuffer tokens) throws Exception {
    assertNotNull(tokens);
    DataInputByteBuffer in = new DataInputByteBuffer();
    in.reset(tokens.duplicate());
    Credentials c = new Credentials();
    c.readTokenStorageStream(in);
    return c;
  }

  /** The key as raw bytes (Latin-1), hex (both cases) and Base64 (plain and URL-safe, padded or not). */
  private static List<String> forms(byte[] key) {
    String hex = HexFormat.of().formatHex(key);
    String b64 = Base64.getEncoder().encodeToString(key);
    String url = Base64.getUrlEncoder().encodeToString(key);
    return List.of(new String(key, StandardCharsets.ISO_8859_1), hex, hex.toUpperCase(java.util.Locale.ROOT),
        b64, b64.replace("=", ""), url, url.replace("=", ""));
  }
}
