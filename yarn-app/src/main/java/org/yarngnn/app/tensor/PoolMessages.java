package org.yarngnn.app.tensor;

import java.util.ArrayList;
import java.util.List;
import org.yarngnn.app.transport.Endpoint;
import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.Message;
import org.yarngnn.app.transport.MessageCodec;

/**
 * The control messages of the tensor-worker pool (types 45-51), between the driver's {@link TensorPool}, the
 * tensor workers and the graph workers' {@link TensorClient}s. Endpoints are written as in
 * {@link org.yarngnn.app.transport.Hello} (vInt index, string host, vInt port), with the tensor worker's id as
 * the index.
 */
public final class PoolMessages {
  /** What a tensor worker speaks: the built-in messages, weights, and the pool's. */
  public static final MessageCodec CODEC = register(MessageCodec.builder()
      .register(org.yarngnn.app.runtime.Weights.TYPE, org.yarngnn.app.runtime.Weights::read)).build();

  private PoolMessages() {}

  /** Registers the pool's messages (and tasks and results) with a codec. */
  public static MessageCodec.Builder register(MessageCodec.Builder b) {
    return b.register(TensorTask.TYPE, TensorTask::read)
        .register(TensorResult.TYPE, TensorResult::read)
        .register(Join.TYPE, Join::read)
        .register(Members.TYPE, Members::read)
        .register(WeightRequest.TYPE, WeightRequest::read)
        .register(Load.TYPE, Load::read)
        .register(Retire.TYPE, in -> new Retire())
        .register(PoolAddress.TYPE, PoolAddress::read)
        .register(Subscribe.TYPE, Subscribe::read);
  }

  private static Endpoint readEndpoint(FrameReader in) {
    int id = FrameReader.nonNegative(in.readVInt(), "tensor worker id");
    String host = in.readString();
    int port = in.readVInt();
    if (host.isEmpty() || port <= 0 || port > 0xFFFF) {
      throw new MalformedFrameException("endpoint " + id + " with host '" + host + "' port " + port);
    }
    return new Endpoint(id, host, port);
  }

  private static void writeEndpoint(FrameWriter out, Endpoint e) {
    out.writeVInt(e.workerIndex());
    out.writeString(e.host());
    out.writeVInt(e.port());
  }

  /** Tensor worker to the pool: it runs and takes tasks at {@code endpoint} (index = its id). */
  public record Join(Endpoint endpoint) implements Message {
    static final byte TYPE = 45;

    @Override
    public byte type() {
      return TYPE;
    }

    @Override
    public void writeBody(FrameWriter out) {
      writeEndpoint(out, endpoint);
    }

    static Join read(FrameReader in) {
      return new Join(readEndpoint(in));
    }
  }

  /** Pool to graph workers: the tensor workers that take tasks now (a worker left out is retiring or lost). */
  public record Members(List<Endpoint> workers) implements Message {
    static final byte TYPE = 46;

    @Override
    public byte type() {
      return TYPE;
    }

    @Override
    public int bodySizeHint() {
      return 8 + 32 * workers.size();
    }

    @Override
    public void writeBody(FrameWriter out) {
      out.writeVInt(workers.size());
      for (Endpoint e : workers) {
        writeEndpoint(out, e);
      }
    }

    static Members read(FrameReader in) {
      int n = in.readCount(3, "tensor workers");
      List<Endpoint> l = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        l.add(readEndpoint(in));
      }
      return new Members(List.copyOf(l));
    }
  }

  /** Tensor worker to the pool (the parameter server's front): the weights of {@code version}, please. */
  public record WeightRequest(long version) implements Message {
    static final byte TYPE = 47;

    @Override
    public byte type() {
      return TYPE;
    }

    @Override
    public void writeBody(FrameWriter out) {
      out.writeVLong(version);
    }

    static WeightRequest read(FrameReader in) {
      long v = in.readVLong();
      if (v < 0) {
        throw new MalformedFrameException("weights request for version " + v);
      }
      return new WeightRequest(v);
    }
  }

  /**
   * Tensor worker to the pool, a few times a second: tasks waiting and running, the longest a task waited since
   * the last report (or the oldest waiting now, if longer),
   * the tasks it finished so far and the milliseconds it spent running them (what the pool grows and shrinks on).
   */
  public record Load(int queued, int running, long oldestWaitMillis, long done, long busyMillis) implements Message {
    static final byte TYPE = 48;

    @Override
    public byte type() {
      return TYPE;
    }

    @Override
    public void writeBody(FrameWriter out) {
      out.writeVInt(queued);
      out.writeVInt(running);
      out.writeVLong(oldestWaitMillis);
      out.writeVLong(done);
      out.writeVLong(busyMillis);
    }

    static Load read(FrameReader in) {
      int q = FrameReader.nonNegative(in.readVInt(), "queued tasks");
      int r = FrameReader.nonNegative(in.readVInt(), "running tasks");
      long w = in.readVLong();
      long d = in.readVLong();
      long b = in.readVLong();
      if (w < 0 || d < 0 || b < 0) {
        throw new MalformedFrameException("load with wait " + w + ", done " + d + ", busy " + b);
      }
      return new Load(q, r, w, d, b);
    }
  }

  /** Pool to a tensor worker: finish what you hold, then exit (the pool is shrinking). */
  public record Retire() implements Message {
    static final byte TYPE = 49;

    @Override
    public byte type() {
      return TYPE;
    }

    @Override
    public void writeBody(FrameWriter out) {}
  }

  /** Driver to a graph worker: where the tensor-worker pool's service listens (index unused, 0). */
  public record PoolAddress(Endpoint endpoint) implements Message {
    static final byte TYPE = 50;

    @Override
    public byte type() {
      return TYPE;
    }

    @Override
    public void writeBody(FrameWriter out) {
      writeEndpoint(out, endpoint);
    }

    static PoolAddress read(FrameReader in) {
      return new PoolAddress(readEndpoint(in));
    }
  }

  /** Graph worker to the pool: send me {@link Members} now and on every change. */
  public record Subscribe(int graphWorker) implements Message {
    static final byte TYPE = 51;

    @Override
    public byte type() {
      return TYPE;
    }

    @Override
    public void writeBody(FrameWriter out) {
      out.writeVInt(graphWorker);
    }

    static Subscribe read(FrameReader in) {
      return new Subscribe(FrameReader.nonNegative(in.readVInt(), "graph worker index"));
    }
  }
}
