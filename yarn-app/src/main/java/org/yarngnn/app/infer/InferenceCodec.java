package org.yarngnn.app.infer;

import org.yarngnn.app.transport.MessageCodec;

/** The transport codec of inference jobs: the built-in messages plus construction and halo messages. */
final class InferenceCodec {
  static final MessageCodec CODEC = MessageCodec.builder()
      .register(NodeBlock.TYPE, NodeBlock::read)
      .register(EdgeBlock.TYPE, EdgeBlock::read)
      .register(HaloRequest.TYPE, HaloRequest::read)
      .register(WorkerHello.TYPE, WorkerHello::read)
      .build();

  private InferenceCodec() {}
}
