package org.yarngnn.app.infer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
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
import org.yarngnn.app.transport.Hello;
import org.yarngnn.app.transport.InboundQueue;
import org.yarngnn.app.transport.PeerConnection;
import org.yarngnn.app.transport.RawPeer;
import org.yarngnn.app.transport.TransportClient;
import org.yarngnn.app.transport.TransportException;
import org.yarngnn.app.transport.TransportSecret;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.RandomModels;
import org.yarngnn.io.table.TableFormat;

/**
 * A 2-worker inference over loopback sockets while intruders connect to the driver's port before the workers
 * register: without the secret (a wrong key, a raw Hello, garbage, a stalled handshake), and with it but claiming
 * another worker's index. Each is closed, none receives anything, and the job finishes with every node.
 */
@Timeout(120)
class IntrudersTest {
  @TempDir Path dir;

  @Test
  void intrudersAtTheDriverAreClosedAndTheJobFinishes() throws Exception {
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
    JobTransport transport = JobTransport.local(conf);
    JobTransport stranger = new JobTransport(TransportSecret.generate(), false, JobTransport.LOOPBACK);
    InboundQueue insiderInbox = new InboundQueue();
    List<RawPeer> raws = new ArrayList<>();
    CompletableFuture<PeerConnection> insider = new CompletableFuture<>();
    List<String> refusals = new ArrayList<>();
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    try (TransportClient wrongKey = new TransportClient(stranger.options(GraphWorkerCodec.CODEC,
            Participants.worker(0)), new InboundQueue());
        TransportClient claimsAnother = new TransportClient(transport.options(GraphWorkerCodec.CODEC,
            Participants.worker(1)), insiderInbox);
        ThreadWorkers real = InferenceWorker.threads(conf, job, model, transport)) {
      wrongKey.start();
      claimsAnother.start();
      WorkerLauncher launcher = new StrangerFirstLauncher((host, port) -> {
        TransportException e = assertThrows(TransportException.class, () -> wrongKey.connect(host, port));
        refusals.add(e.getMessage());
        RawPeer rawHello = RawPeer.connect(host, port);
        rawHello.send(new Hello(0, host, 1));
        raws.add(rawHello);
        RawPeer garbage = RawPeer.connect(host, port);
        garbage.write(new byte[] {5, 0, 0, 0, 99, 1, 2, 3, 4});
        raws.add(garbage);
        raws.add(RawPeer.connect(host, port)); // connects and stalls
        // With the secret, proven as worker 1, but registering as worker 0 and answering a phase.
        PeerConnection c = claimsAnother.connect(host, port, Participants.DRIVER);
        c.sendBlocking(new Hello(0, host, 1));
        c.sendBlocking(new PhaseDone(Phase.JOB, 0, PhaseResult.EMPTY));
        insider.complete(c);
      }, real);
      InferenceDriver.Result r = new InferenceDriver(job, transport, launcher, null,
          new PrintStream(log, true, StandardCharsets.UTF_8)).run(1);
      assertEquals(4, r.nodes());
      assertEquals(2, r.workers().size());
      insider.get().closeFuture().get(10, TimeUnit.SECONDS);
      for (RawPeer p : raws) {
        assertEquals(1, p.framesUntilClosed(10_000), "nothing but the driver's handshake challenge");
        p.close();
      }
    }
    assertTrue(refusals.get(0).startsWith("cannot open a connection to 127.0.0.1:"), refusals.toString());
    String text = log.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("Hello as worker 0 from a connection authenticated as 'worker 1'"), text);
    for (InboundQueue.Event e = insiderInbox.poll(0, TimeUnit.MILLISECONDS); e != null;
        e = insiderInbox.poll(0, TimeUnit.MILLISECONDS)) {
      assertTrue(e.isClose(), "the insider claiming another index received " + e.message());
    }
  }

  @Test
  void aWorkerRefusesADriverWithoutTheSecret() throws Exception {
    // A fake driver (another key) that a worker is pointed at: the worker never says Hello to it.
    JobTransport fake = new JobTransport(TransportSecret.generate(), false, JobTransport.LOOPBACK);
    InboundQueue fakeInbox = new InboundQueue();
    try (org.yarngnn.app.transport.TransportServer server = new org.yarngnn.app.transport.TransportServer(
        fake.options(GraphWorkerCodec.CODEC, Participants.DRIVER), fakeInbox)) {
      server.start();
      InferOptions job = InferOptions.builder().set(GraphJobOptions.EDGES, "e")
          .set(GraphJobOptions.NODES, "n").set(GraphJobOptions.WORKERS, 1).set(GraphJobOptions.LOCAL, true)
          .set(GraphJobOptions.LAYERS, 1).set(InferOptions.MODEL, "m").set(GraphJobOptions.OUTPUT, "o").build();
      int status = InferenceWorker.serve(new Configuration(), job, null, 0, JobTransport.LOOPBACK, server.port(),
          JobTransport.local(new Configuration()));
      assertEquals(1, status);
      assertEquals(null, fakeInbox.poll(200, TimeUnit.MILLISECONDS), "the fake driver heard nothing");
    }
  }
}
