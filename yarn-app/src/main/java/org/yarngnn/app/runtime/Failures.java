package org.yarngnn.app.runtime;

import java.util.concurrent.ExecutionException;
import org.yarngnn.app.transport.TransportException;
import org.yarngnn.compute.model.ModelFormatException;
import org.yarngnn.io.table.InputException;

/** How a worker's exception becomes a {@link WorkerFailure}: its kind and its one-line reason. */
public final class Failures {
  private Failures() {}

  /** Bad input (the user's tables, model or options), a lost peer, or an internal failure. */
  public static FailureKind kindOf(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof InputException || t instanceof ModelFormatException) {
        return FailureKind.BAD_INPUT;
      }
      if (!(t instanceof ExecutionException) && !(t instanceof TransportException)) {
        break;
      }
    }
    return e instanceof TransportException ? FailureKind.WORKER_LOST : FailureKind.INTERNAL;
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
