package org.yarngnn.compute.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.tensor.DenseMatrix;

/** A JVM started without {@code --add-modules jdk.incubator.vector} (as {@code yarn jar} starts one) still multiplies. */
class GemmFallbackTest {
  /** Runs in the child JVM: prints the kernel name, then "ok" if a product checks out against the exact one. */
  public static final class Child {
    public static void main(String[] args) {
      System.out.println(Gemm.kernelName());
      Random rnd = new Random(9);
      DenseMatrix a = GemmTest.random(70, 45, rnd);
      DenseMatrix b = GemmTest.random(45, 33, rnd);
      DenseMatrix c = new DenseMatrix(70, 33);
      Gemm.multiply(a, b, c);
      GemmTest.assertProduct(a, b, c.data(), 0, 33, "child");
      System.out.println("ok");
    }
  }

  @Test
  void jvmWithoutVectorModuleUsesScalarKernel() throws Exception {
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    Process p = new ProcessBuilder(List.of(java, "-Xmx256m", "-cp", classPath, Child.class.getName()))
        .redirectErrorStream(true)
        .start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child JVM timed out");
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), out);
    assertTrue(out.startsWith("scalar-blocked"), out);
    assertTrue(out.contains("ok"), out);
  }

  @Test
  void kernelCanBeForcedToScalarByProperty() throws Exception {
    // Only checked through a child JVM: the kernel is chosen once per JVM.
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    Process p = new ProcessBuilder(List.of(java, "-Xmx256m", "--add-modules", "jdk.incubator.vector",
        "-Dyarngnn.gemm.kernel=scalar", "-cp", classPath, Child.class.getName()))
        .redirectErrorStream(true)
        .start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child JVM timed out");
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), out);
    assertTrue(out.contains("scalar-blocked") && out.contains("ok"), out);
  }
}
