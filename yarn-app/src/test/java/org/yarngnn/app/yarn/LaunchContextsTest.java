package org.yarngnn.app.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Test;

class LaunchContextsTest {
  @Test
  void javaCommandAddsTheVectorModuleQuotesArgumentsAndLogsToTheLogDir() {
    List<String> cmd = LaunchContexts.javaCommand("-Xmx100m", "a.B", List.of("hdfs:///x y", "3"));
    assertEquals(1, cmd.size());
    assertEquals("{{JAVA_HOME}}/bin/java -Xmx100m -Dyarngnn.log.file=<LOG_DIR>/yarn-gnn.log"
        + " --add-modules jdk.incubator.vector a.B 'hdfs:///x y' '3'"
        + " 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr", cmd.get(0));
  }

  @Test
  void argumentsTheLaunchScriptWouldMangleAreRefused() {
    for (String bad : List.of("a'b", "a\"b", "$HOME", "`x`", "a\\b", "a\nb")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> LaunchContexts.javaCommand("", "a.B", List.of(bad)));
      assertTrue(e.getMessage().contains("shipped file"), e.getMessage());
    }
  }

  @Test
  void classpathPutsTheShippedConfigurationFirstThenTheJarThenTheClusterClasspath() {
    Configuration conf = new Configuration(false);
    conf.set(YarnConfiguration.YARN_APPLICATION_CLASSPATH, "/opt/hadoop/*, /opt/conf");
    assertEquals("{{PWD}}/yarngnn-conf<CPS>{{PWD}}/*<CPS>/opt/hadoop/*<CPS>/opt/conf", LaunchContexts.classpath(conf));
    // Without the key: YARN's cross-platform default, which starts with the cluster's HADOOP_CONF_DIR.
    String dflt = LaunchContexts.classpath(new Configuration(false));
    assertTrue(dflt.startsWith("{{PWD}}/yarngnn-conf<CPS>{{PWD}}/*<CPS>{{HADOOP_CONF_DIR}}"), dflt);
  }

  @Test
  void environmentSetsJavaHomeOnlyWhenConfiguredAndCallerVariablesWin() {
    Configuration conf = new Configuration(false);
    Map<String, String> env = LaunchContexts.environment(conf, Map.of("X", "1"));
    assertFalse(env.containsKey("JAVA_HOME"));
    assertEquals("1", env.get("X"));
    assertTrue(env.get("CLASSPATH").startsWith("{{PWD}}/yarngnn-conf"));
    conf.set(LaunchContexts.JAVA_HOME_KEY, "/jdk");
    assertEquals("/jdk", LaunchContexts.environment(conf, Map.of()).get("JAVA_HOME"));
    assertEquals("/other", LaunchContexts.environment(conf, Map.of("JAVA_HOME", "/other")).get("JAVA_HOME"));
  }

  @Test
  void defaultHeapLeavesAQuarterOfTheContainerForTheRestOfTheJvm() {
    assertEquals("-Xmx768m", LaunchContexts.defaultJavaOpts(1024));
    assertEquals("-Xmx48m", LaunchContexts.defaultJavaOpts(64));
  }

  /** As a container's launch script runs it: through a shell, unquoted; the JVM takes the command, quietly. */
  @Test
  void kernelCompileCommandReachesTheJvmThroughTheShellAndPrintsNothing() throws Exception {
    String bin = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder("bash", "-c", bin + " " + LaunchContexts.KERNEL_JIT
        + " -XX:+PrintCommandLineFlags -version").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    assertTrue(out.contains(" -XX:CompileCommand=CompileThresholdScaling,org.yarngnn.compute.kernel.*::*,0.05 "),
        out);
    // A command the JVM cannot parse is reported on stdout even when quiet; an accepted one prints nothing.
    assertFalse(out.contains("error") || out.contains("CompileCommand:"), out);
  }

  @Test
  void largeComputeContainersAskForHugePagesAndAllUseTheirOwnVcores() {
    String jit = " " + LaunchContexts.KERNEL_JIT;
    assertEquals("-Xmx3072m -XX:+UseTransparentHugePages" + jit
        + " -Djava.util.concurrent.ForkJoinPool.common.parallelism=8", LaunchContexts.computeJavaOpts(4096, 8));
    assertEquals("-Xmx1536m -XX:+UseTransparentHugePages" + jit
        + " -Djava.util.concurrent.ForkJoinPool.common.parallelism=2", LaunchContexts.computeJavaOpts(2048, 2));
    assertEquals("-Xmx1535m" + jit + " -Djava.util.concurrent.ForkJoinPool.common.parallelism=1",
        LaunchContexts.computeJavaOpts(2047, 0));
  }
}
