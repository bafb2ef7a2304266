package org.yarngnn.app.topk;

import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.runtime.FaultHooks;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.runtime.Phase;
import org.yarngnn.app.runtime.PhaseCommand;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.app.runtime.RoundMessages;
import org.yarngnn.app.runtime.WorkerSession;
import org.yarngnn.app.transport.Endpoint;
import org.yarngnn.app.transport.MessageCodec;

/**
 * The {@code topk} worker's role on the shared runtime ({@link WorkerSession}): {@link Phase#RETRIEVE} runs
 * {@link TopkRetrieval} for this worker's queries, {@link Phase#EXIT} reports and stops. The workers exchange
 * nothing with each other (each streams the candidates from the table), so no peer server is bound: the
 * advertised port is 0.
 */
final class TopkWorker implements WorkerSession.Role {
  /** The transport codec of topk jobs: the runtime's round messages only. */
  static final MessageCodec CODEC = RoundMessages.codec().build();

  private final Configuration conf;
  private final TopkOptions options;
  private final int index;
  private int workers;

  private TopkWorker(Configuration conf, TopkOptions options, int index) {
    this.conf = conf;
    this.options = options;
    this.index = index;
  }

  /** Serves worker {@code index}'s session with the driver at {@code host:port}; returns its exit status. */
  static int serve(Configuration conf, TopkOptions options, int index, String host, int port,
      JobTransport transport) {
    return new WorkerSession(index, host, port, transport, CODEC, options.get(TopkOptions.VERBOSE))
        .faults(FaultHooks.of(conf), 0)
        .run(() -> new TopkWorker(conf, options, index));
  }

  @Override
  public int peerPort() {
    return 0;
  }

  @Override
  public void peers(List<Endpoint> endpoints) {
    workers = endpoints.size();
  }

  @Override
  public PhaseResult run(PhaseCommand command) {
    switch (command.phase()) {
      case RETRIEVE:
        Map<String, Double> figures = new TopkRetrieval(conf, options, index, workers).run();
        return new PhaseResult.WorkerReport(figures);
      case EXIT:
        return new PhaseResult.WorkerReport(Map.of("peakHeapBytes", (double) TopkRetrieval.peakHeap()));
      default:
        throw new IllegalStateException("a topk worker does not run " + command.phase().label());
    }
  }

  @Override
  public void close() {}
}
