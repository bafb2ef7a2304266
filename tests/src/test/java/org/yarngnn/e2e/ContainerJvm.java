package org.yarngnn.e2e;

import java.time.Instant;
import java.util.List;

/**
 * The JVMs of a role's containers, found by their main class. A container runs {@code bash -c "java ... 1>stdout
 * 2>stderr"}: bash forks for the redirections, so the wrapper's command line names the main class too. Killing the
 * wrapper leaves the JVM running until the NodeManager's clean-up reaches it, and a test that means "SIGKILL the
 * worker" must kill the JVM itself, as the kernel's OOM killer does.
 */
final class ContainerJvm {
  private ContainerJvm() {
  }

  /** The live JVMs whose command line names {@code mainClass}, started after {@code after}, oldest first. */
  static List<ProcessHandle> running(String mainClass, Instant after) {
    return ProcessHandle.allProcesses()
        .filter(h -> h.info().command().orElse("").endsWith("/java")
            && h.info().commandLine().orElse("").contains(mainClass)
            && h.info().startInstant().map(t -> t.isAfter(after)).orElse(false))
        .sorted(java.util.Comparator.comparing(h -> h.info().startInstant().orElse(Instant.MAX)))
        .toList();
  }
}
