package org.yarngnn.compute.train;

import org.yarngnn.compute.graph.Csr;

/**
 * The transpose of a layer's in-edge {@link Csr}, for the backward pass: for every source slot (local nodes and
 * halo slots alike) the edges leaving it, as (destination row, position of the edge in the forward CSR), the
 * destinations ascending. The backward then gathers each message-row gradient from its out-edges instead of
 * scattering from destinations, so every row of {@code dMsg} is written by one thread in a fixed order: no
 * atomics, no per-thread copies of {@code dMsg}, and the same sums whatever the thread count.
 * <p>Memory: {@code 4 (numSlots + 1)} bytes of pointers plus 8 bytes per edge (an int destination and an int
 * forward position, through which the backward reads the edge's weight, attention coefficient and so on);
 * built in O(edges + slots), once per block (or per epoch for a sampled layer).
 */
public final class OutEdges {
  private final int numSlots;
  private final int[] ptr;
  private final int[] dst;
  private final int[] pos;

  private OutEdges(int numSlots, int[] ptr, int[] dst, int[] pos) {
    this.numSlots = numSlots;
    this.ptr = ptr;
    this.dst = dst;
    this.pos = pos;
  }

  public static OutEdges of(Csr in) {
    int slots = in.numCols();
    int rows = in.numRows();
    int[] rowPtr = in.rowPtr();
    int[] col = in.colIdx();
    int nnz = rowPtr[rows];
    int[] ptr = new int[slots + 1];
    for (int e = 0; e < nnz; e++) {
      ptr[col[e] + 1]++;
    }
    for (int s = 0; s < slots; s++) {
      ptr[s + 1] += ptr[s];
    }
    int[] fill = new int[slots];
    System.arraycopy(ptr, 0, fill, 0, slots);
    int[] dst = new int[nnz];
    int[] pos = new int[nnz];
    for (int i = 0; i < rows; i++) {
      for (int e = rowPtr[i]; e < rowPtr[i + 1]; e++) {
        int k = fill[col[e]]++;
        dst[k] = i;
        pos[k] = e;
      }
    }
    return new OutEdges(slots, ptr, dst, pos);
  }

  public int numSlots() {
    return numSlots;
  }

  /** Out-edges of slot s are {@code [ptr[s], ptr[s+1])}. */
  public int[] ptr() {
    return ptr;
  }

  /** Destination row of each out-edge. */
  public int[] dst() {
    return dst;
  }

  /** Position of each out-edge in the forward CSR's {@code colIdx} (and weights). */
  public int[] pos() {
    return pos;
  }

  public long sizeInBytes() {
    return 4L * ptr.length + 8L * dst.length;
  }
}
