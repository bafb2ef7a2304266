package org.yarngnn.compute.layer;

/**
 * A gcn degree {@code d_v = 1 + sum of v's in-edge weights} that is not positive (negative edge weights):
 * {@code 1 / sqrt(d_v)} would be NaN or infinite. Bad input: the caller names the edges table.
 */
public final class DegreeException extends IllegalArgumentException {
  private final long nodeId;

  public DegreeException(long nodeId, double degree) {
    super("node " + nodeId + ": gcn degree 1 + sum of in-edge weights is " + degree
        + ", not positive (gcn normalises by 1/sqrt(degree); check the edge weights)");
    this.nodeId = nodeId;
  }

  public long nodeId() {
    return nodeId;
  }
}
