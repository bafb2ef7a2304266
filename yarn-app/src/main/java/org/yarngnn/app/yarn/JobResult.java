package org.yarngnn.app.yarn;

import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;

/** How a submitted application ended, as the ResourceManager reports it. */
public record JobResult(String applicationId, YarnApplicationState state, FinalApplicationStatus finalStatus,
    String diagnostics, String trackingUrl, double seconds) {

  /** True only when the ApplicationMaster unregistered SUCCEEDED. */
  public boolean succeeded() {
    return state == YarnApplicationState.FINISHED && finalStatus == FinalApplicationStatus.SUCCEEDED;
  }
}
