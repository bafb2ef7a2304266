package org.yarngnn.app.transport;

import java.util.ArrayList;
import java.util.List;

/** The driver tells every worker where all workers listen, once all have registered. */
public record PeerTable(List<Endpoint> endpoints) implements Message {
  public PeerTable {
    endpoints = List.copyOf(endpoints);
  }

  @Override
  public byte type() {
    return MessageCodec.PEER_TABLE;
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeVInt(endpoints.size());
    for (Endpoint e : endpoints) {
      e.write(out);
    }
  }

  @Override
  public int bodySizeHint() {
    return 8 + 32 * endpoints.size();
  }

  /** Bounds: n endpoints of at least {@link Endpoint#MIN_WIRE_BYTES} bytes each need n * 3 <= bytes left. */
  static PeerTable read(FrameReader in) {
    int n = in.readCount(Endpoint.MIN_WIRE_BYTES, "peer table endpoints");
    List<Endpoint> list = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      list.add(Endpoint.read(in));
    }
    return new PeerTable(list);
  }
}
