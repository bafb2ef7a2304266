package org.yarngnn.compute.synth;

/** Receives generated edges, one call per edge (messages flow from {@code src} to {@code dst}). */
@FunctionalInterface
public interface EdgeConsumer {
  void edge(long src, long dst);
}
