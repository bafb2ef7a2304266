package org.yarngnn.compute.layer;

import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.tensor.DenseMatrix;

/** Shape checks shared by the layers, once per call (never per row), with messages that name the operand. */
final class LayerChecks {
  private LayerChecks() {}

  static void transform(Layer l, GraphBlock g, DenseMatrix h, int hRows, DenseMatrix msg, DenseMatrix self) {
    if (h.cols() != l.inWidth() || h.rows() < hRows) {
      throw new IllegalArgumentException("layer input " + h + " for " + hRows + " rows of width " + l.inWidth());
    }
    if (msg.cols() < l.messageWidth() || msg.rows() < g.numNodes()) {
      throw new IllegalArgumentException("message matrix " + msg + " for " + g.numNodes() + " nodes of width "
          + l.messageWidth());
    }
    if (l.selfWidth() > 0 && (self == null || self.cols() < l.selfWidth() || self.rows() < g.numNodes())) {
      throw new IllegalArgumentException("self matrix " + self + " for " + g.numNodes() + " nodes of width "
          + l.selfWidth());
    }
  }

  static void aggregate(Layer l, GraphBlock g, DenseMatrix msg, DenseMatrix self, int to, DenseMatrix out) {
    if (msg.cols() < l.messageWidth() || msg.rows() < g.numSlots()) {
      throw new IllegalArgumentException("message matrix " + msg + " for " + g.numSlots() + " slots of width "
          + l.messageWidth());
    }
    if (l.selfWidth() > 0 && (self == null || self.cols() < l.selfWidth() || self.rows() < to)) {
      throw new IllegalArgumentException("self matrix " + self + " for rows up to " + to + " of width "
          + l.selfWidth());
    }
    if (out.cols() != l.outWidth() || out.rows() < to || to > g.numNodes()) {
      throw new IllegalArgumentException("output " + out + " for rows up to " + to + " of width " + l.outWidth()
          + " (block has " + g.numNodes() + " nodes)");
    }
  }
}
