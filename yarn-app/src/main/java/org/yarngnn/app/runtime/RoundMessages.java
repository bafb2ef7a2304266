package org.yarngnn.app.runtime;

import org.yarngnn.app.transport.MessageCodec;

/**
 * The driver protocol's messages, which every role's codec starts from: a round's command, a worker's answer, its
 * failure, and an aborted phase. A role registers its own messages on top ({@code GraphWorkerCodec}, training's
 * codec); topk, whose workers exchange nothing, uses these alone.
 */
public final class RoundMessages {
  private RoundMessages() {}

  public static MessageCodec.Builder codec() {
    return MessageCodec.builder()
        .register(PhaseCommand.TYPE, PhaseCommand::read)
        .register(PhaseDone.TYPE, PhaseDone::read)
        .register(WorkerFailure.TYPE, WorkerFailure::read)
        .register(PhaseAborted.TYPE, PhaseAborted::read);
  }
}
