package org.yarngnn.app.train;

import org.yarngnn.app.infer.InferenceCodec;
import org.yarngnn.app.runtime.WeightGradients;
import org.yarngnn.app.runtime.Weights;
import org.yarngnn.app.transport.MessageCodec;

/** The transport codec of training jobs: inference's messages plus the weight messages. */
final class TrainCodec {
  static final MessageCodec CODEC = InferenceCodec.builder()
      .register(Weights.TYPE, Weights::read)
      .register(WeightGradients.TYPE, WeightGradients::read)
      .build();

  private TrainCodec() {}
}
