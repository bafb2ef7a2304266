package org.yarngnn.partition.mr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** What a failed partition job's message says when YARN's job status has only "NA": the task's root cause. */
class FailureReasonTest {
  @Test
  void theLastCausedByLineIsTheReason() {
    String trace = """
        Error: org.apache.hadoop.mapreduce.task.reduce.Shuffle$ShuffleError: error in shuffle in fetcher#1
        \tat org.apache.hadoop.mapreduce.task.reduce.Shuffle.run(Shuffle.java:136)
        Caused by: java.lang.ExceptionInInitializerError
        \tat org.apache.hadoop.io.SecureIOUtils.openForRead(SecureIOUtils.java:1)
        Caused by: java.lang.RuntimeException: Secure IO is not possible without native code extensions.
        \tat org.apache.hadoop.io.SecureIOUtils.<clinit>(SecureIOUtils.java:2)
        """;
    assertEquals("java.lang.RuntimeException: Secure IO is not possible without native code extensions.",
        PartitionJob.rootCause(trace));
  }

  @Test
  void aTraceWithoutCauseGivesItsFirstLineAndABlankOneNothing() {
    assertEquals("java.io.IOException: disk full", PartitionJob.rootCause("\n java.io.IOException: disk full\n"
        + "\tat x.y(Z.java:1)\n"));
    assertNull(PartitionJob.rootCause("  \n "));
  }
}
