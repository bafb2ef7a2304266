package org.yarngnn.partition;

import java.util.Arrays;

/**
 * Where every node of an in-memory build goes: nodes numbered by global index (nodes-table order) and by rank
 * (ascending id); each rank's owner and local index (owners keep their nodes in ascending id order). With dense
 * ids in order, index and rank coincide and no permutation is stored.
 */
final class RankLayout {
  final int n;
  final Ownership ownership;
  /** Ids in ascending order. */
  final long[] idOfRank;
  /** Rank of each global index, or null when ranks equal indices. */
  final int[] rankOfIndex;
  /** Global index of each rank, or null when ranks equal indices. */
  final int[] indexOfRank;
  final int[] ownerOfRank;
  final int[] localOfRank;
  /** Per partition, the ranks of its nodes in local order. */
  final int[][] ranksOf;

  private RankLayout(long[] ids, int n, Ownership.Kind kind, int parts) {
    this.n = n;
    boolean inOrder = true;
    for (int i = 0; i < n && inOrder; i++) {
      inOrder = ids[i] == i;
    }
    if (inOrder) {
      idOfRank = Arrays.copyOf(ids, n);
      rankOfIndex = null;
      indexOfRank = null;
    } else {
      idOfRank = Arrays.copyOf(ids, n);
      Arrays.parallelSort(idOfRank);
      rankOfIndex = new int[n];
      Arrays.parallelSetAll(rankOfIndex, i -> Arrays.binarySearch(idOfRank, ids[i]));
      indexOfRank = new int[n];
      for (int i = 0; i < n; i++) {
        indexOfRank[rankOfIndex[i]] = i;
      }
    }
    ownership = Ownership.choose(kind, parts, n, n == 0 ? 0 : idOfRank[0], n == 0 ? -1 : idOfRank[n - 1]);
    ownerOfRank = new int[n];
    localOfRank = new int[n];
    int[] sizes = new int[parts];
    for (int r = 0; r < n; r++) {
      int p = ownership.owner(idOfRank[r]);
      ownerOfRank[r] = p;
      localOfRank[r] = sizes[p]++;
    }
    ranksOf = new int[parts][];
    for (int p = 0; p < parts; p++) {
      ranksOf[p] = new int[sizes[p]];
    }
    for (int r = 0; r < n; r++) {
      ranksOf[ownerOfRank[r]][localOfRank[r]] = r;
    }
  }

  static RankLayout of(NodeRows rows, Ownership.Kind kind, int parts) {
    return new RankLayout(rows.rawIds(), rows.size(), kind, parts);
  }

  int parts() {
    return ranksOf.length;
  }

  int rank(int index) {
    return rankOfIndex == null ? index : rankOfIndex[index];
  }

  int index(int rank) {
    return indexOfRank == null ? rank : indexOfRank[rank];
  }

  long[] nodeIds(int p) {
    int[] ranks = ranksOf[p];
    long[] ids = new long[ranks.length];
    for (int i = 0; i < ranks.length; i++) {
      ids[i] = idOfRank[ranks[i]];
    }
    return ids;
  }
}
