package org.yarngnn.compute.cost;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cost model's answer for one job: each phase's seconds (the slowest worker's, named as {@code --metrics}
 * names them: read-nodes, route-nodes, edges, plan, layer0.., write; for train "epochs", every epoch's
 * forward, backward and evaluation instead of the layers and the write), their total, the bytes all workers send
 * each other at each layer and in each phase (all workers' sends: the node rows, the edges, the plan's halo
 * requests, the layers' or the epochs' halo rows), the halo rows of a worker, and a worker's peak heap and
 * resident set.
 */
public record CostEstimate(Map<String, Double> phaseSeconds, double seconds, List<Long> bytesPerLayer,
    Map<String, Double> sentBytes, double haloRowsPerWorker, long heapBytesPerWorker, long rssBytesPerWorker) {
  public CostEstimate {
    phaseSeconds = Collections.unmodifiableMap(new LinkedHashMap<>(phaseSeconds));
    bytesPerLayer = List.copyOf(bytesPerLayer);
    sentBytes = Collections.unmodifiableMap(new LinkedHashMap<>(sentBytes));
  }

  /** Bytes all workers send each other in the whole job. */
  public double totalSentBytes() {
    double s = 0;
    for (double b : sentBytes.values()) {
      s += b;
    }
    return s;
  }

  /** Seconds of one epoch (train; 0 for infer). */
  public double epochSeconds(int epochs) {
    return epochs > 0 ? phaseSeconds.getOrDefault("epochs", 0.0) / epochs : 0;
  }
}
