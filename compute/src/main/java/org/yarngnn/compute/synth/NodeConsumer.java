package org.yarngnn.compute.synth;

/**
 * Receives generated nodes. {@code label} is -1 when the graph has no labels and {@code split} is one of
 * "train", "val", "test", "none". The {@code features} array is reused by the generator for the next node:
 * copy it if it must outlive the call.
 */
@FunctionalInterface
public interface NodeConsumer {
  void node(long id, int label, String split, float[] features);
}
