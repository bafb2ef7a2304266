package org.yarngnn.app.infer;

import org.yarngnn.app.runtime.PhaseAborted;
import org.yarngnn.app.runtime.PhaseCommand;
import org.yarngnn.app.runtime.PhaseDone;
import org.yarngnn.app.runtime.WorkerFailure;
import org.yarngnn.app.transport.MessageCodec;

/** The transport codec of inference jobs: the built-in messages plus construction and halo messages. */
public final class InferenceCodec {
  public static final MessageCodec CODEC = builder().build();

  private InferenceCodec() {}

  /** The registrations of {@link #CODEC}, for a job that adds messages of its own (training). */
  public static MessageCodec.Builder builder() {
    return MessageCodec.builder()
        .register(ConstructionBlock.TYPE, ConstructionBlock::read)
        .register(ConstructionFinding.TYPE, ConstructionFinding::read)
        .register(HaloRequest.TYPE, HaloRequest::read)
        .register(WorkerHello.TYPE, WorkerHello::read)
        .register(PhaseEnd.TYPE, PhaseEnd::read)
        .register(PhaseCommand.TYPE, PhaseCommand::read)
        .register(PhaseDone.TYPE, PhaseDone::read)
        .register(WorkerFailure.TYPE, WorkerFailure::read)
        .register(PhaseAborted.TYPE, PhaseAborted::read);
  }
}
