package org.yarngnn.app.yarn;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The container side of {@link SelfTestDriver}: {@code SelfTestWorker OUTPUT MODE [SHIPPED_NAME...]}. Writes
 * {@code OUTPUT/started-<i>}, checks that the shipped jar, configuration and files are in its directory, then in
 * mode {@code ok} writes {@code OUTPUT/worker-<i>} and exits 0. In modes {@code exit} and {@code kill}, worker 0
 * waits until every worker started, then exits 1 or SIGKILLs itself; the others sleep until they are stopped.
 */
public final class SelfTestWorker {
  private SelfTestWorker() {}

  public static void main(String[] args) throws Exception {
    Path output = new Path(args[0]);
    String mode = args[1];
    List<String> expected = List.of(args).subList(2, args.length);
    int index = ContainerEnv.index();
    int count = ContainerEnv.count();
    FileSystem fs = output.getFileSystem(new Configuration());
    String host = InetAddress.getLocalHost().getHostName();
    write(fs, new Path(output, "started-" + index), host);

    for (String name : concat(List.of(LaunchContexts.JAR_NAME, LaunchContexts.CONF_DIR + "/core-site.xml"), expected)) {
      if (!new File(name).exists()) {
        System.err.println("SelfTestWorker " + index + ": shipped file " + name + " is missing from "
            + new File(".").getAbsolutePath());
        System.exit(3);
      }
    }
    if (!mode.equals("ok")) {
      if (index == 0) {
        awaitStarted(fs, output, count);
        System.err.println("SelfTestWorker 0: failing on purpose (mode " + mode + ")");
        System.err.flush();
        if (mode.equals("kill")) {
          long pid = ProcessHandle.current().pid();
          new ProcessBuilder("kill", "-9", Long.toString(pid)).inheritIO().start().waitFor();
        }
        System.exit(1);
      }
      // The other workers outlive the test: they must be stopped by the ApplicationMaster.
      Thread.sleep(600_000);
    }
    write(fs, new Path(output, "worker-" + index), index + " of " + count + " on " + host);
  }

  private static void awaitStarted(FileSystem fs, Path output, int count) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < deadline) {
      if (fs.globStatus(new Path(output, "started-*")).length >= count) {
        return;
      }
      Thread.sleep(100);
    }
  }

  private static void write(FileSystem fs, Path p, String text) throws IOException {
    try (OutputStream out = fs.create(p, true)) {
      out.write((text + "\n").getBytes(StandardCharsets.UTF_8));
    }
  }

  private static List<String> concat(List<String> a, List<String> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
  }
}
