package org.yarngnn.app.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.compute.link.LinkTrainer;
import org.yarngnn.compute.model.ModelFormat;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.train.Parameters;
import org.yarngnn.io.table.InputException;

/** The checkpoint files: a round trip to the bit, the atomic replacement of older ones, and every refusal. */
class CheckpointTest {
  static final String SPEC = "{\"format\": 1, \"layers\": [{\"type\": \"gcn\", \"in\": 4, \"out\": 3, \"bias\": true}],"
      + " \"output\": {\"predict\": true}}";
  static final String OTHER = SPEC.replace("\"out\": 3", "\"out\": 2");

  @TempDir Path tmp;

  static TrainOptions options(String specJson, long seed, int epochs) {
    return TrainOptions.builder().set(GraphJobOptions.EDGES, "e.tsv")
        .set(GraphJobOptions.NODES, "n.tsv").set(GraphJobOptions.OUTPUT, "out")
        .set(GraphJobOptions.SEED, seed).set(GraphJobOptions.WORKERS, 2).set(TrainOptions.MODEL_SPEC, "spec.json")
        .set(TrainOptions.SPEC_JSON, specJson)
            .set(TrainOptions.EPOCHS, epochs).set(TrainOptions.LR, 0.01).set(TrainOptions.WEIGHT_DECAY, 5e-4)
        .build();
  }

  static Checkpoint.State state(ModelSpec spec, int epoch, float shift) {
    int n = new Parameters(spec).size();
    float[][] a = new float[4][n];
    for (int k = 0; k < 4; k++) {
      for (int i = 0; i < n; i++) {
        a[k][i] = (float) Math.sin(1.7 * i + k) * (k + 1) + shift;
      }
    }
    List<TrainingDriver.Epoch> epochs = new ArrayList<>();
    for (int e = 1; e <= epoch; e++) {
      epochs.add(new TrainingDriver.Epoch(e, 1.0 / (3 * e) + Math.PI * 1e-9, 0.1 * e / epoch, 1.0 / 3,
          Math.nextUp(0.7), 0.012345678901234));
    }
    return new Checkpoint.State(Checkpoint.RunOptions.of(options(SPEC, 1, 60)),
        new Checkpoint.GraphSize(2708, 10556, 140, 500, 1000), epoch, epoch, a[0], a[1], a[2], epoch - 1,
        0.794, 0.815, a[3], epochs, 12.5);
  }

  static TrainOptions linkOptions(int negatives) {
    return options(SPEC, 1, 60).toBuilder().set(LinkOptions.TASK, true).set(LinkOptions.NEGATIVES, negatives)
        .set(LinkOptions.PAIRS, "pairs").set(LinkOptions.PAIRS_WORK_DIR, "pairs-work").build();
  }

  /** A link checkpoint: its epochs' validation figures, the best epoch's; an empty set's figures NaN. */
  static Checkpoint.State linkState(ModelSpec spec, int epoch) {
    Checkpoint.State c = state(spec, epoch, 0.25f);
    List<TrainingDriver.Epoch> epochs = new ArrayList<>();
    for (int e = 1; e <= epoch; e++) {
      epochs.add(TrainingDriver.Epoch.ofLink(e, 1.0 / (3 * e) + Math.PI * 1e-9, new LinkTrainer.Figures(
          0.5 + e * 1e-3 / 3, 0.6, 1.0 / 7, 0.25, e % 2 == 0 ? Double.NaN : 0.5, 1), 0.012345678901234));
    }
    LinkTrainer.Figures val = epochs.get(epoch - 2).link();
    LinkTrainer.Figures test = new LinkTrainer.Figures(Math.nextUp(0.9), 0.8, 0.3, 0.7, 0.8, Double.NaN);
    return new Checkpoint.State(Checkpoint.RunOptions.of(linkOptions(1)), c.graph(), epoch, epoch, c.weights(),
        c.adamM(), c.adamV(), epoch - 1, val.auc(), test.auc(), c.best(), epochs, 12.5, val, test);
  }

  @Test
  void aLinkCheckpointRoundTripsItsFiguresAndOptionsAndRefusesTheOtherTask() throws Exception {
    ModelSpec spec = ModelFormat.parse(SPEC, "spec.json");
    Checkpoint c = store();
    c.write(state(spec, 10, 0));
    String classification = Files.readString(Path.of(c.dir().toUri()).resolve("checkpoint-000010.json"));
    assertTrue(classification.contains("\"format\": 1,") && !classification.contains("link"), classification);
    Checkpoint.State want = linkState(spec, 20);
    c.write(want);
    Checkpoint.State got = c.read(spec);
    assertTrue(Files.readString(Path.of(c.dir().toUri()).resolve("checkpoint-000020.json"))
        .contains("\"format\": 2,"));
    assertEquals(want.options(), got.options(), "the link options, without --link-pairs");
    assertEquals(null, got.options().link().pairs());
    assertEquals(want.epochs(), got.epochs(), "every epoch's link figures, doubles exactly, NaN as null");
    assertEquals(want.bestLinkVal(), got.bestLinkVal());
    assertEquals(want.bestLinkTest(), got.bestLinkTest());
    assertEquals(want.bestVal(), got.bestVal());
    assertEquals(want.bestTest(), got.bestTest());
    assertEquals(19, got.bestEpoch());
    assertArrayEquals(want.best(), got.best());

    c.checkOptions(got, linkOptions(1), spec);
    String m = assertThrows(InputException.class, () -> c.checkOptions(got, linkOptions(3), spec)).getMessage();
    assertTrue(m.contains("--negatives 1, not 3"), m);
    m = assertThrows(InputException.class, () -> c.checkOptions(got, options(SPEC, 1, 60), spec)).getMessage();
    assertTrue(m.contains("link-prediction run: resume it with --task link"), m);
    c.write(state(spec, 30, 0));
    Checkpoint.State classified = c.read(spec);
    m = assertThrows(InputException.class, () -> c.checkOptions(classified, linkOptions(1), spec)).getMessage();
    assertTrue(m.contains("node-classification run: resume it without --task link"), m);
  }

  Checkpoint store() {
    return Checkpoint.of(new Configuration(), new org.apache.hadoop.fs.Path(tmp.resolve("model").toUri()));
  }

  List<String> files(Checkpoint c) throws Exception {
    try (Stream<Path> s = Files.list(Path.of(c.dir().toUri()))) {
      // Without the local FileSystem's own .NAME.crc files.
      return s.map(p -> p.getFileName().toString()).filter(f -> !f.startsWith(".")).sorted()
          .collect(Collectors.toList());
    }
  }

  Path stateFile(Checkpoint c) throws Exception {
    return Path.of(c.dir().toUri()).resolve(files(c).stream().filter(f -> f.startsWith("state-")).findFirst()
        .orElseThrow());
  }

  @Test
  void roundTripsToTheBitAndReplacesOlderCheckpoints() throws Exception {
    ModelSpec spec = ModelFormat.parse(SPEC, "spec.json");
    Checkpoint c = store();
    assertEquals(tmp.resolve(".model.yarn-gnn-checkpoint").toString(), Path.of(c.dir().toUri()).toString());
    c.write(state(spec, 10, 0));
    Checkpoint.State want = state(spec, 20, 0.5f);
    c.write(want);
    assertEquals(List.of("checkpoint-000020.json"), files(c).stream().filter(f -> f.endsWith(".json")).toList());
    assertEquals(2, files(c).size(), "older checkpoints deleted: " + files(c));
    Checkpoint.State got = c.read(spec);
    assertEquals(20, got.epoch());
    assertEquals(20, got.step());
    assertArrayEquals(want.weights(), got.weights());
    assertArrayEquals(want.adamM(), got.adamM());
    assertArrayEquals(want.adamV(), got.adamV());
    assertArrayEquals(want.best(), got.best());
    assertEquals(want.epochs(), got.epochs(), "every epoch's figures, doubles exactly");
    assertEquals(want.options(), got.options());
    assertEquals(want.graph(), got.graph());
    assertEquals(19, got.bestEpoch());
    assertEquals(0.794, got.bestVal());
    assertEquals(12.5, got.seconds());
    // A dead writer's temporary files are never read, and go at the next write.
    Files.writeString(Path.of(c.dir().toUri()).resolve("_tmp-checkpoint-000030.json"), "{");
    assertEquals(20, c.read(spec).epoch());
    c.write(state(spec, 30, 0));
    assertEquals(2, files(c).size(), files(c).toString());
    assertEquals(30, c.read(spec).epoch());
    c.discard();
    assertTrue(!Files.exists(Path.of(c.dir().toUri())));
  }

  @Test
  void refusesWhatIsMissingTornOrDamaged() throws Exception {
    ModelSpec spec = ModelFormat.parse(SPEC, "spec.json");
    Checkpoint c = store();
    assertTrue(assertThrows(InputException.class, () -> c.read(spec)).getMessage().contains("no checkpoint"));
    c.write(state(spec, 10, 0));
    Path state = stateFile(c);
    byte[] good = Files.readAllBytes(state);

    Files.write(state, java.util.Arrays.copyOf(good, good.length - 5));
    String m = assertThrows(InputException.class, () -> c.read(spec)).getMessage();
    assertTrue(m.contains(state.getFileName().toString()) && m.contains("truncated"), m);

    byte[] flipped = good.clone();
    flipped[flipped.length - 3] ^= 0x10;
    Files.write(state, flipped);
    m = assertThrows(InputException.class, () -> c.read(spec)).getMessage();
    assertTrue(m.contains(state.getFileName().toString()) && m.contains("checksum"), m);
    // The same without the local FileSystem's .crc file: the manifest's CRC-32C finds it.
    Path crc = state.resolveSibling("." + state.getFileName() + ".crc");
    byte[] crcBytes = Files.readAllBytes(crc);
    Files.delete(crc);
    m = assertThrows(InputException.class, () -> c.read(spec)).getMessage();
    assertTrue(m.contains(state.getFileName().toString()) && m.contains("differs from its checkpoint manifest"), m);
    Files.write(crc, crcBytes);

    Files.write(state, good);
    assertEquals(10, c.read(spec).epoch());
    Files.delete(state);
    m = assertThrows(InputException.class, () -> c.read(spec)).getMessage();
    assertTrue(m.contains("missing"), m);
    Files.write(state, good);

    Path manifest = Path.of(c.dir().toUri()).resolve("checkpoint-000010.json");
    String text = Files.readString(manifest);
    Path manifestCrc = manifest.resolveSibling(".checkpoint-000010.json.crc");
    Files.delete(manifestCrc); // as a FileSystem without checksums of its own (e.g. a torn manifest on S3)
    Files.writeString(manifest, text.substring(0, text.length() / 2));
    m = assertThrows(InputException.class, () -> c.read(spec)).getMessage();
    assertTrue(m.contains("checkpoint-000010.json") && m.contains("damaged"), m);
    Files.writeString(manifest, text.replace("\"epoch\": 10,", "\"epoch\": 11,"));
    m = assertThrows(InputException.class, () -> c.read(spec)).getMessage();
    assertTrue(m.contains("checkpoint-000010.json"), m);
    Files.writeString(manifest, text);

    // Another model: its parameter count differs.
    m = assertThrows(InputException.class, () -> c.read(ModelFormat.parse(OTHER, "other.json"))).getMessage();
    assertTrue(m.contains("parameters"), m);
  }

  @Test
  void refusesAResumeWithOtherOptionsOrAnotherGraph() throws Exception {
    ModelSpec spec = ModelFormat.parse(SPEC, "spec.json");
    Checkpoint c = store();
    c.write(state(spec, 10, 0));
    Checkpoint.State s = c.read(spec);
    c.checkOptions(s, options(SPEC, 1, 60), spec);
    c.checkOptions(s, options(SPEC, 1, 100), spec); // --epochs may grow
    c.checkOptions(s, options(SPEC, 1, 10), spec);
    String m = assertThrows(InputException.class, () -> c.checkOptions(s, options(SPEC, 2, 60), spec)).getMessage();
    assertTrue(m.contains("--seed 1, not 2"), m);
    m = assertThrows(InputException.class, () -> c.checkOptions(s, options(SPEC, 1, 9), spec)).getMessage();
    assertTrue(m.contains("--epochs 9"), m);
    String wider = SPEC.replace("\"bias\": true", "\"bias\": true, \"dropout\": 0.1");
    ModelSpec w = ModelFormat.parse(wider, "w.json");
    m = assertThrows(InputException.class, () -> c.checkOptions(s, options(wider, 1, 60), w)).getMessage();
    assertTrue(m.contains("another model spec"), m);
    c.checkGraph(s, new Checkpoint.GraphSize(2708, 10556, 140, 500, 1000));
    m = assertThrows(InputException.class, () -> c.checkGraph(s, new Checkpoint.GraphSize(2708, 10556, 140, 500,
        999))).getMessage();
    assertTrue(m.contains("another graph"), m);
  }
}
