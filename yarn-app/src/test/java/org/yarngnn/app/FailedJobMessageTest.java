package org.yarngnn.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A failed application's diagnostics reach the user without the stack traces YARN copies from stderr. */
class FailedJobMessageTest {
  private static final String APP = "application_1_0001";

  @Test
  void aStderrTailsTraceIsCutWhereItStarts() {
    String diag = "Application " + APP + " failed 2 times due to AM Container exited with exitCode: 1\n"
        + "Last 4096 bytes of stderr :\n"
        + "yarn-gnn AM failed before it could unregister:\n"
        + "java.lang.IllegalStateException: no job.xml\n"
        + "\tat org.yarngnn.app.yarn.AmMain.main(AmMain.java:22)\n"
        + "Caused by: java.io.IOException: gone\n"
        + "\t... 3 more\n"
        + ". Failing the application.";
    String shown = JobCommands.withoutTraces(diag, APP);
    assertTrue(shown.contains("java.lang.IllegalStateException: no job.xml"), shown);
    assertFalse(shown.contains("\tat "), shown);
    assertFalse(shown.contains("Caused by"), shown);
    assertTrue(shown.endsWith("(the rest is in the application's logs: yarn logs -applicationId " + APP + ")"),
        shown);
    RuntimeException e = JobCommands.failed(new org.yarngnn.app.yarn.JobResult(APP, null, null, diag, "", 1.0));
    assertFalse(e.getMessage().contains("\tat "), e.getMessage());
  }

  @Test
  void diagnosticsWithoutATraceAreKeptWhole() {
    String diag = "the driver failed: worker 1 died\nstopped 1 other container";
    assertEquals(diag, JobCommands.withoutTraces(diag, APP));
  }
}
