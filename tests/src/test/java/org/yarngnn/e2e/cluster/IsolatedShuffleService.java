package org.yarngnn.e2e.cluster;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ApplicationClassLoader;
import org.apache.hadoop.util.ReflectionUtils;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.AuxiliaryLocalPathHandler;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;
import org.apache.hadoop.yarn.server.api.ContainerInitializationContext;
import org.apache.hadoop.yarn.server.api.ContainerTerminationContext;

/**
 * The NodeManager's MapReduce shuffle service ({@code org.apache.hadoop.mapred.ShuffleHandler}) loaded from the
 * unshaded framework jars in its own class loader, inside a NodeManager that runs on the shaded minicluster.
 * Hadoop has this built in ({@code yarn.nodemanager.aux-services.NAME.classpath}), but its wrapper does not pass
 * on the local path handler, without which ShuffleHandler cannot find a map output (NullPointerException on the
 * first fetch); this wrapper forwards every call.
 */
public final class IsolatedShuffleService extends AuxiliaryService {
  /** The framework's jars, path-separated. */
  static final String CLASSPATH_KEY = "yarngnn.harness.shuffle.classpath";
  /** Classes taken from the NodeManager rather than the jars (ApplicationClassLoader syntax). */
  static final String SYSTEM_CLASSES_KEY = "yarngnn.harness.shuffle.system-classes";
  static final String SERVICE = "mapreduce_shuffle";

  private ClassLoader loader;
  private AuxiliaryService shuffle;

  public IsolatedShuffleService() {
    super(SERVICE);
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    loader = new ApplicationClassLoader(conf.get(CLASSPATH_KEY), getClass().getClassLoader(),
        Arrays.asList(conf.getTrimmedStrings(SYSTEM_CLASSES_KEY)));
    Configuration own = new Configuration(conf);
    own.setClassLoader(loader);
    shuffle = inLoader(() -> {
      AuxiliaryService s = ReflectionUtils.newInstance(
          Class.forName("org.apache.hadoop.mapred.ShuffleHandler", true, loader).asSubclass(AuxiliaryService.class),
          own);
      s.setAuxiliaryLocalPathHandler(getAuxiliaryLocalPathHandler());
      if (getRecoveryPath() != null) {
        s.setRecoveryPath(getRecoveryPath());
      }
      s.init(own);
      return s;
    });
    super.serviceInit(conf);
  }

  @Override
  protected void serviceStart() throws Exception {
    inLoader(() -> {
      shuffle.start();
      return null;
    });
  }

  @Override
  protected void serviceStop() throws Exception {
    if (shuffle != null) {
      inLoader(() -> {
        shuffle.stop();
        return null;
      });
    }
  }

  @Override
  public void setAuxiliaryLocalPathHandler(AuxiliaryLocalPathHandler handler) {
    super.setAuxiliaryLocalPathHandler(handler);
    if (shuffle != null) {
      shuffle.setAuxiliaryLocalPathHandler(handler);
    }
  }

  @Override
  public void setRecoveryPath(Path recoveryPath) {
    super.setRecoveryPath(recoveryPath);
    if (shuffle != null) {
      shuffle.setRecoveryPath(recoveryPath);
    }
  }

  @Override
  public void initializeApplication(ApplicationInitializationContext context) {
    run(() -> shuffle.initializeApplication(context));
  }

  @Override
  public void stopApplication(ApplicationTerminationContext context) {
    run(() -> shuffle.stopApplication(context));
  }

  @Override
  public void initializeContainer(ContainerInitializationContext context) {
    run(() -> shuffle.initializeContainer(context));
  }

  @Override
  public void stopContainer(ContainerTerminationContext context) {
    run(() -> shuffle.stopContainer(context));
  }

  @Override
  public ByteBuffer getMetaData() {
    return unchecked(shuffle::getMetaData);
  }

  private interface Call<T> {
    T call() throws Exception;
  }

  private void run(Runnable r) {
    unchecked(() -> {
      r.run();
      return null;
    });
  }

  private <T> T unchecked(Call<T> c) {
    try {
      return inLoader(c);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** The shuffle service runs with its own loader as context loader (as Hadoop's wrapper does). */
  private <T> T inLoader(Call<T> c) throws Exception {
    Thread t = Thread.currentThread();
    ClassLoader original = t.getContextClassLoader();
    t.setContextClassLoader(loader);
    try {
      return c.call();
    } finally {
      t.setContextClassLoader(original);
    }
  }
}
