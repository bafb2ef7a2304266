package org.yarngnn.app.graphworker;

import org.yarngnn.app.runtime.RoundMessages;
import org.yarngnn.app.transport.MessageCodec;

/**
 * The transport codec of graph workers: the driver protocol's messages plus construction and halo messages. It is
 * inference's whole codec; a role with messages of its own (training) adds them to {@link #builder()}.
 */
public final class GraphWorkerCodec {
  public static final MessageCodec CODEC = builder().build();

  private GraphWorkerCodec() {}

  /** The registrations of {@link #CODEC}, for a role that adds messages of its own. */
  public static MessageCodec.Builder builder() {
    return RoundMessages.codec()
        .register(ConstructionBlock.TYPE, ConstructionBlock::read)
        .register(ConstructionFinding.TYPE, ConstructionFinding::read)
        .register(HaloRequest.TYPE, HaloRequest::read)
        .register(WorkerHello.TYPE, WorkerHello::read)
        .register(PhaseEnd.TYPE, PhaseEnd::read);
  }
}
