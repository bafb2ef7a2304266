package org.yarngnn.app.runtime;

import java.util.concurrent.ExecutionException;
import org.yarngnn.app.transport.TransportException;
import org.yarngnn.compute.model.ModelFormatException;
import org.yarngnn.io.table.InputException;

/** How a worker's exception becomes a {@link WorkerFailure}: its kind and its one-line reason. */
public final class Failures {
  private Failures() {}

  /** Causes looked at, at most: a chain is short, but a cyclic one must not hang a failing worker. */
  private static final int MAX_DEPTH = 32;

  /**
   * Bad input (the user's tables, model or options), a lost peer, or an internal failure. Bad input comes first:
   * found at the top or under wrappers that only carry it (an {@link ExecutionException}, a
   * {@link TransportException}), it is what a new run would meet again. Else a {@link TransportException}
   * anywhere in the chain is a lost peer, also when a worker's code wrapped it in its own exception (a routing
   * thread's "routing to worker 2: ..."): the job decides whether it goes on without that peer.
   */
  public static FailureKind kindOf(Throwable e) {
    int depth = 0;
    for (Throwable t = e; t != null && depth++ < MAX_DEPTH; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof InputException || t instanceof ModelFormatException) {
        return FailureKind.BAD_INPUT;
      }
      if (!(t instanceof ExecutionException) && !(t instanceof TransportException)) {
        break;
      }
    }
    depth = 0;
    for (Throwable t = e; t != null && depth++ < MAX_DEPTH; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof TransportException) {
        return FailureKind.WORKER_LOST;
      }
    }
    return FailureKind.INTERNAL;
  }

  /** The messages of {@code e} and its causes on one line, without repeats, at most about 1000 characters. */
  public static String describe(Throwable e) {
    StringBuilder sb = new StringBuilder();
    String last = null;
    for (Throwable t = e; t != null && sb.length() < 1000; t = t.getCause() == t ? null : t.getCause()) {
      String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
      if (last != null && last.contains(m)) {
        continue;
      }
      if (sb.length() > 0) {
        sb.append(": ");
      }
      sb.append(m);
      last = m;
    }
    return sb.toString().replace('\n', ' ');
  }
}
