package org.yarngnn.app.infer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.graphworker.GraphWorkerCodec;
import org.yarngnn.app.graphworker.ThreadWorkers;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.runtime.Participants;
import org.yarngnn.app.runtime.Phase;
import org.yarngnn.app.runtime.PhaseDone;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.app.runtime.WorkerLauncher;
import org.yarngnn.app.transport.InboundQueue;
import org.yarngnn.app.transport.PeerConnection;
import org.yarngnn.app.transport.TransportClient;
import org.yarngnn.app.transport.TransportOptions;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.RandomModels;
import org.yarngnn.io.table.TableFormat;

/**
 * The driver accepts answers only from the workers that registered: a connection that answers a phase before it
 * said Hello is closed, and the job finishes as if it had never been there.
 */
class DriverRefusesStrangersTest {
  @TempDir Path dir;

  @Test
  void anAnswerFromAnUnregisteredConnectionIsRefusedAndTheJobGoesOn() throws Exception {
    Files.writeString(dir.resolve("nodes.tsv"), "10\t1,2,3\n20\t0,0,1\n30\t0.5,0.5,0.5\n40\t1,0,0\n");
    Files.writeString(dir.resolve("edges.tsv"), "10\t20\n20\t30\n30\t40\n40\t10\n");
    Files.createDirectories(dir.resolve("work"));
    Model model = RandomModels.random(new ModelSpec("none", List.of(LayerSpec.gcn(3, 2, Activation.RELU, true)),
        "none", false), 1);
    InferOptions job = InferOptions.builder().set(GraphJobOptions.EDGES,
        dir.resolve("edges.tsv").toString()).set(GraphJobOptions.NODES, dir.resolve("nodes.tsv").toString())
        .set(GraphJobOptions.OUTPUT_FORMAT, TableFormat.PARQUET).set(GraphJobOptions.WORKERS, 2)
        .set(GraphJobOptions.THREADS, 2).set(GraphJobOptions.LOCAL, true).set(GraphJobOptions.WORK_DIR,
        dir.resolve("work").toString()).set(GraphJobOptions.LAYERS, 1).set(InferOptions.MODEL, dir.resolve("model")
        .toString())
        .set(GraphJobOptions.OUTPUT, dir.resolve("out").toString()).build();
    Configuration conf = new Configuration();
    CompletableFuture<PeerConnection> stranger = new CompletableFuture<>();
    InboundQueue strangerInbox = new InboundQueue();
    JobTransport transport = JobTransport.local(conf);
    // An insider: it holds the job's secret and proves worker 0, but answers before it registered.
    TransportOptions options = transport.options(GraphWorkerCodec.CODEC, Participants.worker(0));
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    try (TransportClient intruder = new TransportClient(options, strangerInbox);
        ThreadWorkers real = InferenceWorker.threads(conf, job, model, transport)) {
      intruder.start();
      WorkerLauncher launcher = new StrangerFirstLauncher((host, port) -> {
        // Before the real workers: a stranger answers the first phase without registering.
        PeerConnection c = intruder.connect(host, port);
        c.sendBlocking(new PhaseDone(Phase.JOB, 0, PhaseResult.EMPTY));
        stranger.complete(c);
      }, real);
      InferenceDriver.Result r = new InferenceDriver(job, transport, launcher, null,
          new PrintStream(log, true, StandardCharsets.UTF_8)).run(1);
      assertEquals(4, r.nodes());
      assertEquals(2, r.workers().size());
      stranger.get().closeFuture().get(10, TimeUnit.SECONDS);
    }
    String text = log.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("closed connection") && text.contains("unexpected registration"), text);
    assertEquals(0, countMessages(strangerInbox), "the stranger received nothing");
  }

  private static int countMessages(InboundQueue q) throws InterruptedException {
    int n = 0;
    for (InboundQueue.Event e = q.poll(0, TimeUnit.MILLISECONDS); e != null; e = q.poll(0, TimeUnit.MILLISECONDS)) {
      n += e.isClose() ? 0 : 1;
    }
    return n;
  }
}
