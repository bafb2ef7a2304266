package org.yarngnn.e2e;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.yarngnn.app.Main;

/** One in-process run of the CLI with its exit status and what it printed. */
record CliRun(int status, String out, String err) {
  static CliRun of(String... args) {
    return watched(line -> false, () -> {}, args);
  }

  /**
   * As {@link #of}, and runs {@code then} once, on the thread that prints it, when a line of standard output
   * matches {@code line}: a test releases a job its hook holds when the job says what the test waits for.
   */
  static CliRun watched(java.util.function.Predicate<String> line, Runnable then, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream() {
      private int scanned;
      private boolean done;

      @Override
      public synchronized void write(byte[] b, int off, int len) {
        super.write(b, off, len);
        String text = toString(StandardCharsets.UTF_8);
        for (int nl = text.indexOf('\n', scanned); nl >= 0 && !done; nl = text.indexOf('\n', scanned)) {
          if (line.test(text.substring(scanned, nl))) {
            done = true;
            then.run();
          }
          scanned = nl + 1;
        }
      }
    };
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      status = Main.run(args, o, e);
    }
    return new CliRun(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Override
  public String toString() {
    return "exit " + status + "\n--- out\n" + out + "--- err\n" + err;
  }
}
