package org.yarngnn.app.tensor;

import org.yarngnn.app.transport.Credit;
import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.StreamedMessage;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * A tensor worker's answer to {@link TensorTask} {@code id}: result rows (forward: linear rows; backward: input
 * gradient rows or none; loss: logit gradients), the layer's weight gradients (backward), and a scalar (loss:
 * the loss sum). A refusal ({@code refused} non-null: the worker is retiring, or cannot get the weights) asks
 * the graph worker to send the task elsewhere. Credited on {@link TensorTask#STREAM}.
 * Wire form: vLong id, string refused ("" = none), float64 scalar (as int64 bits), rows ({@link MatrixWire}),
 * gradients (vInt count, float32 each).
 */
public final class TensorResult implements StreamedMessage {
  public static final byte TYPE = 44;

  private final long id;
  private final String refused;
  private final double scalar;
  private final DenseMatrix rows;
  private final float[] gradients;
  private final Credit credit = new Credit();

  public TensorResult(long id, String refused, double scalar, DenseMatrix rows, float[] gradients) {
    this.id = id;
    this.refused = refused == null || refused.isEmpty() ? null : refused;
    this.scalar = scalar;
    this.rows = rows == null ? MatrixWire.EMPTY : rows;
    this.gradients = gradients == null ? new float[0] : gradients;
  }

  public static TensorResult refused(long id, String why) {
    return new TensorResult(id, why, 0, null, null);
  }

  public long id() {
    return id;
  }

  /** Why the worker did not run the task, or null. */
  public String refusal() {
    return refused;
  }

  public double scalar() {
    return scalar;
  }

  public DenseMatrix rows() {
    return rows;
  }

  public float[] gradients() {
    return gradients;
  }

  @Override
  public int stream() {
    return TensorTask.STREAM;
  }

  @Override
  public Credit credit() {
    return credit;
  }

  @Override
  public byte type() {
    return TYPE;
  }

  @Override
  public int bodySizeHint() {
    return 40 + MatrixWire.bytes(rows) + 4 * gradients.length + (refused == null ? 0 : refused.length() * 3);
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeVLong(id);
    out.writeString(refused == null ? "" : refused);
    out.writeLong(Double.doubleToRawLongBits(scalar));
    MatrixWire.write(out, rows);
    out.writeFloatArray(gradients);
  }

  static TensorResult read(FrameReader in) {
    long id = in.readVLong();
    String refused = in.readString();
    double scalar = Double.longBitsToDouble(in.readLong());
    DenseMatrix rows = MatrixWire.read(in, "result rows");
    float[] gradients = in.readFloatArray();
    return new TensorResult(id, refused, scalar, rows, gradients);
  }

  @Override
  public String toString() {
    return "TensorResult(" + id + (refused != null ? " refused: " + refused : ", " + rows.rows() + " rows") + ")";
  }
}
