package org.yarngnn.app.graphworker;

import java.util.Arrays;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;

/**
 * For one block of in-edges: how many halo in-edges each own row waits for, and which own rows use each halo slot
 * (with multiplicity), so that a pipelined exchange ({@link HaloExchange#receiveAndAggregate}) can tell when a row's
 * inputs are complete. Two passes over every in-edge build it; it is immutable, so exchanges over the same block
 * share one: gcn and gat aggregate every layer over the whole partition, and training does so every epoch.
 */
public final class HaloUsers {
  private final GraphBlock edges;
  /** waits[r]: the halo in-edges of own row r. */
  private final int[] waits;
  /** users[userPtr[j] .. userPtr[j + 1]): the own rows with an in-edge from halo slot n + j. */
  private final int[] userPtr;
  private final int[] users;

  private HaloUsers(GraphBlock edges, int[] waits, int[] userPtr, int[] users) {
    this.edges = edges;
    this.waits = waits;
    this.userPtr = userPtr;
    this.users = users;
  }

  /** The users of {@code edges}' halo slots. */
  public static HaloUsers of(GraphBlock edges) {
    int n = edges.numNodes();
    int halo = edges.numSlots() - n;
    if (halo == 0) {
      // A worker alone (or one whose sources are all its own) waits for nothing: no pass over the edges.
      return new HaloUsers(edges, new int[n], new int[1], new int[0]);
    }
    Csr c = edges.inEdges();
    int[] rowPtr = c.rowPtr();
    int[] col = c.colIdx();
    int[] waits = new int[n];
    int[] userPtr = new int[halo + 1];
    for (int r = 0; r < n; r++) {
      for (int e = rowPtr[r]; e < rowPtr[r + 1]; e++) {
        int slot = col[e];
        if (slot >= n) {
          waits[r]++;
          userPtr[slot - n + 1]++;
        }
      }
    }
    for (int j = 0; j < halo; j++) {
      userPtr[j + 1] += userPtr[j];
    }
    int[] users = new int[userPtr[halo]];
    int[] fill = Arrays.copyOf(userPtr, halo);
    for (int r = 0; r < n; r++) {
      for (int e = rowPtr[r]; e < rowPtr[r + 1]; e++) {
        int slot = col[e];
        if (slot >= n) {
          users[fill[slot - n]++] = r;
        }
      }
    }
    return new HaloUsers(edges, waits, userPtr, users);
  }

  /** Whether this describes {@code block} (the same object: blocks are not compared by content). */
  public boolean describes(GraphBlock block) {
    return block == edges;
  }

  /** A fresh copy of every own row's halo in-edge count, for one exchange to count down. */
  int[] waitCounts() {
    return waits.clone();
  }

  /** First index in {@link #users()} of halo slot {@code n + j}'s rows; {@code j = halo} gives the end. */
  int[] userPtr() {
    return userPtr;
  }

  int[] users() {
    return users;
  }
}
