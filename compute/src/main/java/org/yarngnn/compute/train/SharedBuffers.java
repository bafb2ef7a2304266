package org.yarngnn.compute.train;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Float buffers of a chain of training steps, one array shared by buffers whose lifetimes do not overlap. A
 * lifetime is an interval of positions in one training pass (see {@link LayerStep#chain}: the forward of layer k
 * at k, its backward at {@code 2L-1-k}); an evaluation pass runs a prefix of the same positions, so sharing that
 * is safe in a training pass is safe in it too.
 * <p>Greedy by size: the largest request first, each into the first array none of whose users' lifetimes meets
 * its own, else into a new array of its size (so an array is as large as its first user and never grows).
 */
final class SharedBuffers {
  /** A requested buffer; {@link #data()} after {@link #allocate()}. */
  static final class Request {
    private final int size;
    private final int first;
    private final int last;
    private float[] data;

    private Request(int size, int first, int last) {
      this.size = size;
      this.first = first;
      this.last = last;
    }

    float[] data() {
      if (data == null) {
        throw new IllegalStateException("buffers not allocated yet");
      }
      return data;
    }

    boolean overlaps(Request o) {
      return first <= o.last && o.first <= last;
    }
  }

  private final List<Request> requests = new ArrayList<>();
  private long allocatedFloats = -1;

  /** A buffer of {@code size} floats live over positions {@code [first, last]}. */
  Request request(long size, int first, int last) {
    if (size < 0 || size > Integer.MAX_VALUE - 16 || first > last) {
      throw new IllegalArgumentException("buffer of " + size + " floats over [" + first + ", " + last + "]");
    }
    if (allocatedFloats >= 0) {
      throw new IllegalStateException("buffers already allocated");
    }
    Request r = new Request((int) size, first, last);
    requests.add(r);
    return r;
  }

  /** Assigns every request its array. */
  void allocate() {
    List<Request> bySize = new ArrayList<>(requests);
    bySize.sort(Comparator.comparingInt((Request r) -> r.size).reversed());
    List<List<Request>> arrays = new ArrayList<>();
    long total = 0;
    for (Request r : bySize) {
      List<Request> home = null;
      for (List<Request> users : arrays) {
        if (users.stream().noneMatch(r::overlaps)) {
          home = users;
          break;
        }
      }
      if (home == null) {
        home = new ArrayList<>();
        arrays.add(home);
        total += r.size;
      }
      home.add(r);
    }
    for (List<Request> users : arrays) {
      float[] data = new float[users.get(0).size];
      for (Request r : users) {
        r.data = data;
      }
    }
    allocatedFloats = total;
  }

  /** Floats allocated for all requests (their sizes' sum without sharing would be more). */
  long allocatedFloats() {
    return allocatedFloats;
  }

  /** The sum of all requests' sizes. */
  long requestedFloats() {
    return requests.stream().mapToLong(r -> r.size).sum();
  }
}
