package org.yarngnn.app.infer;

import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.yarngnn.app.runtime.DriverEndpoint;
import org.yarngnn.app.runtime.DriverSession;
import org.yarngnn.app.yarn.DriverContext;

/**
 * How a later ApplicationMaster attempt's inference driver takes over the graph workers the dead attempt left
 * running: it publishes its endpoint in the staging directory ({@link DriverEndpoint}), waits at most
 * {@value #WAIT_KEY} seconds (default 30) for as many survivors as the attempt's registration listed containers,
 * and releases the containers that did not come back in time.
 */
final class WorkerAdoption implements DriverSession.Adoption {
  static final String WAIT_KEY = "yarngnn.am.adopt-wait-seconds";

  private final DriverContext ctx;

  WorkerAdoption(DriverContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void announce(String host, int port) throws Exception {
    new DriverEndpoint(host, port, ctx.attempt()).publish(ctx.stagingDir().getFileSystem(ctx.conf()),
        ctx.stagingDir());
  }

  @Override
  public int candidates() {
    return ctx.previousContainers().size();
  }

  @Override
  public long waitMillis() {
    return TimeUnit.SECONDS.toMillis(Math.max(0, ctx.conf().getLong(WAIT_KEY, 30)));
  }

  @Override
  public void adopted(Set<String> containers) throws Exception {
    ctx.releasePrevious(containers);
  }
}
