package org.yarngnn.partition;

/** Collects resolved edges (global node indices) into one buffer. */
final class BufferCollector extends EdgeCollector {
  final EdgeBuffer buffer;

  BufferCollector(NodeIndex index, boolean undirected, NodeRows addMissing, boolean weighted) {
    super(index, undirected, addMissing);
    this.buffer = new EdgeBuffer(1 << 16, weighted);
  }

  @Override
  void accept(int d, int s, float weight) {
    buffer.add(d, s, weight);
  }
}
