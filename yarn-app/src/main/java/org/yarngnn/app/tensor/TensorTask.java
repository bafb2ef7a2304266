package org.yarngnn.app.tensor;

import org.yarngnn.app.transport.Credit;
import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.StreamedMessage;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * One tensor task of one vertex interval, sent by a graph worker to a tensor worker: everything the task needs
 * but the weights, which the tensor worker fetches by {@code version} from the parameter server. Kinds:
 * <ul>
 *   <li>{@link Kind#FORWARD} (apply-vertex): {@code input} = the interval's dropped-out layer-input rows; answers
 *   their linear rows {@code H W} of layer {@code layer};</li>
 *   <li>{@link Kind#BACKWARD}: {@code input} = the same rows again (tensor workers keep nothing), {@code second} =
 *   the gradients of their linear rows; answers the layer's linear-weight gradients and, with
 *   {@code inputGradient}, the rows {@code dLin W^T};</li>
 *   <li>{@link Kind#LOSS}: {@code input} = the output rows of the interval's {@code train} nodes, {@code labels}
 *   their labels, {@code scale} one over the global train count; answers the loss sum and the logit gradients.</li>
 * </ul>
 * Credited on {@link #STREAM}: a tensor worker holds at most the transport's credit of tasks per graph worker.
 * Wire form: vLong id, int8 kind, vInt layer, vLong version, bool inputGradient, float32 scale, input and second
 * ({@link MatrixWire}), labels (vInt count, int32 each).
 */
public final class TensorTask implements StreamedMessage {
  public static final byte TYPE = 43;
  /** Tasks and their results travel on this credit stream. */
  public static final int STREAM = 0;

  public enum Kind { FORWARD, BACKWARD, LOSS }

  private final long id;
  private final Kind kind;
  private final int layer;
  private final long version;
  private final boolean inputGradient;
  private final float scale;
  private final DenseMatrix input;
  private final DenseMatrix second;
  private final int[] labels;
  private final Credit credit = new Credit();

  public TensorTask(long id, Kind kind, int layer, long version, boolean inputGradient, float scale,
      DenseMatrix input, DenseMatrix second, int[] labels) {
    if (layer < 0 || version < 0 || input == null || second == null || labels == null) {
      throw new IllegalArgumentException("tensor task of layer " + layer + ", version " + version);
    }
    this.id = id;
    this.kind = kind;
    this.layer = layer;
    this.version = version;
    this.inputGradient = inputGradient;
    this.scale = scale;
    this.input = input;
    this.second = second;
    this.labels = labels;
  }

  public static TensorTask forward(long id, int layer, long version, DenseMatrix rows) {
    return new TensorTask(id, Kind.FORWARD, layer, version, false, 0f, rows, MatrixWire.EMPTY, new int[0]);
  }

  public static TensorTask backward(long id, int layer, long version, DenseMatrix rows, DenseMatrix linearGrad,
      boolean inputGradient) {
    return new TensorTask(id, Kind.BACKWARD, layer, version, inputGradient, 0f, rows, linearGrad, new int[0]);
  }

  public static TensorTask loss(long id, int layer, long version, DenseMatrix outputs, int[] labels, float scale) {
    return new TensorTask(id, Kind.LOSS, layer, version, false, scale, outputs, MatrixWire.EMPTY, labels);
  }

  /** The same task under another id (a resend to another worker). */
  public TensorTask withId(long newId) {
    return new TensorTask(newId, kind, layer, version, inputGradient, scale, input, second, labels);
  }

  public long id() {
    return id;
  }

  public Kind kind() {
    return kind;
  }

  public int layer() {
    return layer;
  }

  public long version() {
    return version;
  }

  public boolean inputGradient() {
    return inputGradient;
  }

  public float scale() {
    return scale;
  }

  public DenseMatrix input() {
    return input;
  }

  public DenseMatrix second() {
    return second;
  }

  public int[] labels() {
    return labels;
  }

  @Override
  public int stream() {
    return STREAM;
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
    return 40 + MatrixWire.bytes(input) + MatrixWire.bytes(second) + 4 * labels.length;
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeVLong(id);
    out.writeByte(kind.ordinal());
    out.writeVInt(layer);
    out.writeVLong(version);
    out.writeBoolean(inputGradient);
    out.writeFloat(scale);
    MatrixWire.write(out, input);
    MatrixWire.write(out, second);
    out.writeIntArray(labels);
  }

  static TensorTask read(FrameReader in) {
    long id = in.readVLong();
    int k = in.readByte();
    if (k < 0 || k >= Kind.values().length) {
      throw new MalformedFrameException("tensor task of kind " + k);
    }
    Kind kind = Kind.values()[k];
    int layer = FrameReader.nonNegative(in.readVInt(), "layer");
    long version = in.readVLong();
    if (version < 0) {
      throw new MalformedFrameException("tensor task on weights version " + version);
    }
    boolean inputGradient = in.readBoolean();
    float scale = in.readFloat();
    DenseMatrix input = MatrixWire.read(in, "task input");
    DenseMatrix second = MatrixWire.read(in, "task second input");
    int[] labels = in.readIntArray();
    boolean shaped = switch (kind) {
      case FORWARD -> second.rows() == 0 && labels.length == 0;
      case BACKWARD -> second.rows() == input.rows() && labels.length == 0;
      case LOSS -> second.rows() == 0 && labels.length == input.rows() && Float.isFinite(scale);
    };
    if (!shaped) {
      throw new MalformedFrameException("tensor task " + kind + " of " + input.rows() + " rows with "
          + second.rows() + " second rows and " + labels.length + " labels");
    }
    return new TensorTask(id, kind, layer, version, inputGradient, scale, input, second, labels);
  }

  @Override
  public String toString() {
    return "TensorTask(" + id + " " + kind + " layer " + layer + " v" + version + ", " + input.rows() + " rows)";
  }
}
