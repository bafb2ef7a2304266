package org.yarngnn.app.train;

import org.yarngnn.app.graphworker.GraphWorkerCodec;
import org.yarngnn.app.runtime.WeightGradients;
import org.yarngnn.app.runtime.Weights;
import org.yarngnn.app.tensor.PoolMessages;
import org.yarngnn.app.transport.MessageCodec;

/** The transport codec of training jobs: inference's messages, the weight messages, the tensor pool's and
 * bounded asynchrony's. */
final class TrainCodec {
  static final MessageCodec CODEC = AsyncMessages.register(PoolMessages.register(GraphWorkerCodec.builder()
      .register(Weights.TYPE, Weights::read)
      .register(WeightGradients.TYPE, WeightGradients::read)
      .register(TrainRows.TYPE, TrainRows::read)
      .register(LinkMessage.TYPE, LinkMessage::read)))
      .build();

  private TrainCodec() {}
}
