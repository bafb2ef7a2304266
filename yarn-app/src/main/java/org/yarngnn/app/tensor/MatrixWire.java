package org.yarngnn.app.tensor;

import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * A dense matrix on the wire: vInt rows, vInt cols, then rows * cols float32 (row-major). The reader bounds
 * the element count by the bytes left before allocating; an absent matrix is 0 x 0.
 */
final class MatrixWire {
  static final DenseMatrix EMPTY = new DenseMatrix(0, 0);

  private MatrixWire() {}

  static int bytes(DenseMatrix m) {
    return 10 + 4 * m.rows() * m.cols();
  }

  static void write(FrameWriter out, DenseMatrix m) {
    out.writeVInt(m.rows());
    out.writeVInt(m.cols());
    out.writeFloats(m.data(), 0, m.rows() * m.cols());
  }

  static DenseMatrix read(FrameReader in, String what) {
    int rows = FrameReader.nonNegative(in.readVInt(), what + " rows");
    int cols = FrameReader.nonNegative(in.readVInt(), what + " columns");
    long count = (long) rows * cols;
    in.checkCount(count, Float.BYTES, what + " values");
    if (rows > 0 && cols == 0) {
      throw new MalformedFrameException(what + " of " + rows + " rows without columns");
    }
    float[] v = new float[(int) count];
    in.readFloats(v, 0, v.length);
    return rows == 0 ? EMPTY : new DenseMatrix(rows, cols, v);
  }
}
