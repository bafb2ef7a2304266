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
    return of(in, null);
  }

  /**
   * As {@link #of(Csr)}, in the arrays of {@code reuse} when it has the same slots and room for the edges (a
   * per-epoch sample then allocates nothing); {@code reuse} is not valid afterwards.
   */
  public static OutEdges of(Csr in, OutEdges reuse) {
    int slots = in.numCols();
    int rows = in.numRows();
    int[] rowPtr = in.rowPtr();
    int[] col = in.colIdx();
    int nnz = rowPtr[rows];
    boolean fits = reuse != null && reuse.numSlots == slots && reuse.dst.length >= nnz;
    int[] ptr = fits ? reuse.ptr : new int[slots + 1];
    int[] dst = fits ? reuse.dst : new int[nnz];
    int[] pos = fits ? reuse.pos : new int[nnz];
    java.util.Arrays.fill(ptr, 0);
    for (int e = 0; e < nnz; e++) {
      ptr[col[e] + 1]++;
    }
    for (int s = 0; s < slots; s++) {
      ptr[s + 1] += ptr[s];
    }
    // ptr[s] serves as slot s's fill position, ending at slot s+1's start; shifted back below.
    for (int i = 0; i < rows; i++) {
      for (int e = rowPtr[i]; e < rowPtr[i + 1]; e++) {
        int k = ptr[col[e]]++;
        dst[k] = i;
        pos[k] = e;
      }
    }
    System.arraycopy(ptr, 0, ptr, 1, slots);
    ptr[0] = 0;
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
