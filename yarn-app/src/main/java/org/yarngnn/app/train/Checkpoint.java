package org.yarngnn.app.train;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.compute.json.Json;
import org.yarngnn.compute.link.LinkLoss;
import org.yarngnn.compute.link.LinkTrainer;
import org.yarngnn.compute.link.NegativeSampler;
import org.yarngnn.compute.model.ModelFormat;
import org.yarngnn.compute.model.ModelFormatException;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.Safetensors;
import org.yarngnn.compute.model.Tensor;
import org.yarngnn.compute.train.Parameters;
import org.yarngnn.io.table.InputException;

/**
 * A training's checkpoints: what {@code --resume} needs to continue a stopped run so that it gives the same
 * epochs, to the bit, as a run that was never stopped.
 *
 * <p>Where. In the stable hidden sibling {@code .OUT.yarn-gnn-checkpoint} of the output {@code OUT}, on the
 * output's (the cluster's) FileSystem. Not inside the output commit's work directory: that one is named after
 * the job that began it and is deleted when the job dies (the abort of a failed or killed run, and the next
 * {@link org.yarngnn.io.table.OutputCommit#begin} on the same output, remove it), which is exactly when a
 * checkpoint must survive; a fixed name is also how {@code --resume OUT} finds it. A successful run deletes it
 * after its commit ({@link #discard}), so nothing hidden is left beside a finished output; a fresh run (no
 * {@code --resume}) refuses an output with a leftover checkpoint unless {@code --overwrite}, which discards it.
 *
 * <p>What. Epoch {@code E}'s checkpoint is two files: {@code state-E-ID.safetensors}, four flat F32 tensors of
 * the model's parameter count ({@code weights}, Adam's {@code adam.m} and {@code adam.v}, and the best epoch's
 * {@code best}), and the manifest {@code checkpoint-E.json} (compute's {@link Json}): {@code format}, the
 * {@code epoch}, Adam's {@code step} (also the weights' version), the {@code rng} (the seed: dropout masks and
 * samples are keyed by seed, epoch, layer and node id, so seed and epoch are the whole random state), the
 * options a resume must repeat (the spec's text, seed, lr, weight decay, dropout, patience, workers), the
 * graph's size (nodes, edges, train/val/test rows), the best epoch and its accuracies, every epoch's figures
 * so far, the seconds run so far, and the state file's name, length and CRC-32C.
 *
 * <p>Atomic. Each file is written under a {@code _tmp-} name and renamed into place, the state file before the
 * manifest that names it, then older checkpoints are deleted; the reader takes the highest-numbered manifest
 * and checks the state file's length and checksum before using it, so a torn checkpoint is never read (a
 * manifest is only ever seen whole, after its rename). Reading is bounded (a manifest of at most
 * {@link #MAX_MANIFEST_BYTES}, a state file of exactly the length the spec implies) and every check failure
 * is an {@link InputException} naming the file: a resume exits 2 with one line.
 *
 * <p>Link prediction ({@code --task link}) writes format {@value #LINK_FORMAT}: format 1's fields and files, plus
 * the link options a resume must repeat ({@code options.link}), the best epoch's validation and test figures
 * ({@code best.val_auc}, ..., {@code best.test_auc}, ...: metrics.json reports the best epoch's test figures, which
 * are computed only when an epoch becomes the best, so they cannot be recomputed later) in place of its
 * accuracies, and each epoch's validation figures in place of its accuracies. An empty set's figures are null (JSON
 * has no NaN). A classification checkpoint is still format 1, written and read as before; a reader that knows only
 * format 1 refuses a link checkpoint rather than resume it as a classification run.
 */
public final class Checkpoint {
  public static final int FORMAT = 1;
  /** The format of a link-prediction checkpoint (the class comment). */
  public static final int LINK_FORMAT = 2;
  /** The infix of the checkpoint directory: {@code .OUT.yarn-gnn-checkpoint}. */
  public static final String INFIX = ".yarn-gnn-checkpoint";
  static final long MAX_MANIFEST_BYTES = 64L << 20;
  static final String MANIFEST_PREFIX = "checkpoint-";
  static final String STATE_PREFIX = "state-";
  static final String TMP_PREFIX = "_tmp-";
  static final String WEIGHTS = "weights";
  static final String ADAM_M = "adam.m";
  static final String ADAM_V = "adam.v";
  static final String BEST = "best";

  /**
   * The options a resume must repeat: anything else would not continue the same run. {@code link}: the link
   * options without {@code --link-pairs} (an output, not part of the run's state), null for classification.
   */
  public record RunOptions(String specJson, long seed, double lr, double weightDecay, double dropout, int patience,
      int workers, LinkOptions link) {
    static RunOptions of(TrainOptions o) {
      LinkOptions l = o.link();
      return new RunOptions(o.get(TrainOptions.SPEC_JSON), o.get(GraphJobOptions.SEED), o.get(TrainOptions.LR),
          o.get(TrainOptions.WEIGHT_DECAY), o.get(TrainOptions.DROPOUT), o.getInt(TrainOptions.PATIENCE),
          o.getInt(GraphJobOptions.WORKERS), l == null ? null : new LinkOptions(l.valFraction(), l.testFraction(),
              l.negatives(), l.sampler(), l.loss(), l.temperature(), l.evalNegatives()));
    }
  }

  /** The graph's size as the run saw it: a resume on another graph is refused. */
  public record GraphSize(long nodes, long edges, long train, long val, long test) {}

  /**
   * A checkpoint after epoch {@code epoch}: the parameter server's state (weights and Adam's moments after
   * {@code step} steps), the best epoch so far and its weights, every epoch's figures, and the seconds so far.
   * Link prediction: {@code bestLinkVal} and {@code bestLinkTest} are the best epoch's figures ({@code bestVal} and
   * {@code bestTest} their AUCs); both null for classification.
   */
  public record State(RunOptions options, GraphSize graph, int epoch, int step, float[] weights, float[] adamM,
      float[] adamV, int bestEpoch, double bestVal, double bestTest, float[] best, List<TrainingDriver.Epoch> epochs,
      double seconds, LinkTrainer.Figures bestLinkVal, LinkTrainer.Figures bestLinkTest) {
    /** A node-classification checkpoint. */
    public State(RunOptions options, GraphSize graph, int epoch, int step, float[] weights, float[] adamM,
        float[] adamV, int bestEpoch, double bestVal, double bestTest, float[] best,
        List<TrainingDriver.Epoch> epochs, double seconds) {
      this(options, graph, epoch, step, weights, adamM, adamV, bestEpoch, bestVal, bestTest, best, epochs, seconds,
          null, null);
    }

    public State {
      if ((options.link() == null) != (bestLinkVal == null) || (bestLinkVal == null) != (bestLinkTest == null)) {
        throw new IllegalArgumentException("a link checkpoint, and only one, holds the best epoch's link figures");
      }
    }

    boolean link() {
      return options.link() != null;
    }
  }

  private final FileSystem fs;
  private final Path dir;

  private Checkpoint(FileSystem fs, Path dir) {
    this.fs = fs;
    this.dir = dir;
  }

  /** The checkpoints of output {@code output} (made qualified on its FileSystem). */
  public static Checkpoint of(Configuration conf, Path output) {
    try {
      FileSystem fs = output.getFileSystem(conf);
      Path out = fs.makeQualified(output);
      if (out.getParent() == null) {
        throw new InputException(output + ": cannot write output to a file system root");
      }
      return new Checkpoint(fs, new Path(out.getParent(), "." + out.getName() + INFIX));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The hidden directory {@code .OUT.yarn-gnn-checkpoint}. */
  public Path dir() {
    return dir;
  }

  public boolean exists() throws IOException {
    return fs.exists(dir);
  }

  /** Deletes the directory and every checkpoint in it (after a successful commit, or a fresh --overwrite run). */
  public void discard() throws IOException {
    if (fs.exists(dir) && !fs.delete(dir, true)) {
      throw new IOException("could not delete " + dir);
    }
  }

  // ---- writing -----------------------------------------------------------------------------------------------

  /** Writes {@code s} as epoch {@code s.epoch()}'s checkpoint (atomically, see the class comment). */
  public void write(State s) throws IOException {
    int n = s.weights().length;
    if (s.adamM().length != n || s.adamV().length != n || s.best().length != n) {
      throw new IllegalArgumentException("checkpoint arrays of different lengths");
    }
    if (!fs.mkdirs(dir)) {
      throw new IOException("could not create " + dir);
    }
    String stateName = String.format(Locale.ROOT, "%s%06d-%s.safetensors", STATE_PREFIX, s.epoch(),
        UUID.randomUUID().toString().substring(0, 8));
    List<Tensor> tensors = List.of(Tensor.vector(WEIGHTS, s.weights()), Tensor.vector(ADAM_M, s.adamM()),
        Tensor.vector(ADAM_V, s.adamV()), Tensor.vector(BEST, s.best()));
    CRC32C crc = new CRC32C();
    long[] bytes = new long[1];
    Path stateFile = new Path(dir, stateName);
    atomically(stateFile, raw -> {
      OutputStream out = new OutputStream() {
        @Override
        public void write(int b) throws IOException {
          raw.write(b);
          crc.update(b);
          bytes[0]++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          raw.write(b, off, len);
          crc.update(b, off, len);
          bytes[0] += len;
        }
      };
      Safetensors.write(tensors, Map.of("format", "yarn-gnn train checkpoint " + FORMAT), out);
    });
    Map<String, Object> m = manifest(s, stateName, bytes[0], crc.getValue());
    byte[] json = Json.write(m).getBytes(StandardCharsets.UTF_8);
    atomically(new Path(dir, manifestName(s.epoch())), out -> out.write(json));
    // The new checkpoint is in place: older ones (and a dead writer's temporary files) go.
    for (FileStatus f : fs.listStatus(dir)) {
      String name = f.getPath().getName();
      if (!name.equals(stateName) && !name.equals(manifestName(s.epoch()))) {
        fs.delete(f.getPath(), true);
      }
    }
  }

  private interface Body {
    void write(OutputStream out) throws IOException;
  }

  /** Writes {@code target} under a temporary name in the same directory, then renames it into place. */
  private void atomically(Path target, Body body) throws IOException {
    Path tmp = new Path(target.getParent(), TMP_PREFIX + target.getName());
    try (OutputStream out = new java.io.BufferedOutputStream(fs.create(tmp, true), 1 << 16)) {
      body.write(out);
    }
    if (fs.exists(target)) {
      fs.delete(target, false);
    }
    if (!fs.rename(tmp, target)) {
      throw new IOException("could not rename " + tmp + " to " + target);
    }
  }

  static String manifestName(int epoch) {
    return String.format(Locale.ROOT, "%s%06d.json", MANIFEST_PREFIX, epoch);
  }

  private static Map<String, Object> manifest(State s, String stateName, long bytes, long crc) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("format", (long) (s.link() ? LINK_FORMAT : FORMAT));
    m.put("kind", "yarn-gnn train checkpoint");
    m.put("epoch", (long) s.epoch());
    m.put("step", (long) s.step());
    Map<String, Object> rng = new LinkedHashMap<>();
    rng.put("seed", s.options().seed());
    rng.put("note", "dropout masks and samples are keyed by (seed, epoch, layer, node id): the seed and the epoch "
        + "are the whole random state");
    m.put("rng", rng);
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("spec", s.options().specJson());
    o.put("seed", s.options().seed());
    o.put("lr", s.options().lr());
    o.put("weight_decay", s.options().weightDecay());
    o.put("dropout", s.options().dropout());
    o.put("patience", (long) s.options().patience());
    o.put("workers", (long) s.options().workers());
    if (s.link()) {
      o.put("link", linkOptions(s.options().link()));
    }
    m.put("options", o);
    Map<String, Object> g = new LinkedHashMap<>();
    g.put("nodes", s.graph().nodes());
    g.put("edges", s.graph().edges());
    g.put("train", s.graph().train());
    g.put("val", s.graph().val());
    g.put("test", s.graph().test());
    m.put("graph", g);
    Map<String, Object> best = new LinkedHashMap<>();
    best.put("epoch", (long) s.bestEpoch());
    if (s.link()) {
      TrainingDriver.linkFigures("val_", s.bestLinkVal(), best);
      TrainingDriver.linkFigures("test_", s.bestLinkTest(), best);
    } else {
      best.put("val_accuracy", s.bestVal());
      best.put("test_accuracy", s.bestTest());
    }
    m.put("best", best);
    List<Object> epochs = new ArrayList<>();
    for (TrainingDriver.Epoch e : s.epochs()) {
      if ((e.link() != null) != s.link()) {
        throw new IllegalArgumentException("epoch " + e.epoch() + "'s figures are of the other task");
      }
      epochs.add(s.link() ? linkEpochFigures(e) : epochFigures(e));
    }
    m.put("epochs", epochs);
    m.put("seconds", s.seconds());
    Map<String, Object> st = new LinkedHashMap<>();
    st.put("file", stateName);
    st.put("parameters", (long) s.weights().length);
    st.put("bytes", bytes);
    st.put("crc32c", String.format(Locale.ROOT, "%08x", crc));
    m.put("state", st);
    return m;
  }

  // ---- reading -----------------------------------------------------------------------------------------------

  /** The latest manifest's path, or null when there is no checkpoint. */
  public Path latest() throws IOException {
    if (!fs.isDirectory(dir)) {
      return null;
    }
    Path best = null;
    int bestEpoch = -1;
    for (FileStatus f : fs.listStatus(dir)) {
      String name = f.getPath().getName();
      if (name.startsWith(MANIFEST_PREFIX) && name.endsWith(".json")) {
        String digits = name.substring(MANIFEST_PREFIX.length(), name.length() - 5);
        if (digits.matches("[0-9]{6,9}") && Integer.parseInt(digits) > bestEpoch) {
          bestEpoch = Integer.parseInt(digits);
          best = f.getPath();
        }
      }
    }
    return best;
  }

  /**
   * Reads the latest checkpoint, for a run of {@code spec}: every field checked, the state file's length and
   * checksum verified, its arrays as long as the spec's parameters. Throws {@link InputException} naming the
   * file when there is none or it is damaged.
   */
  public State read(ModelSpec spec) throws IOException {
    Path manifest = latest();
    if (manifest == null) {
      throw new InputException("no checkpoint in " + dir + " (a run leaves one after its first --checkpoint-every "
          + "epoch until it succeeds; a finished run leaves none)");
    }
    String where = manifest.toString();
    long length = fs.getFileStatus(manifest).getLen();
    if (length > MAX_MANIFEST_BYTES) {
      throw new InputException(where + ": " + length + " bytes, a checkpoint manifest has at most "
          + MAX_MANIFEST_BYTES);
    }
    byte[] raw;
    try (InputStream in = fs.open(manifest)) {
      raw = in.readNBytes((int) length + 1);
    } catch (org.apache.hadoop.fs.ChecksumException e) {
      throw new InputException(where + ": damaged (the FileSystem's checksum fails: " + e.getMessage() + ")");
    }
    String text = Json.utf8OrNull(raw, 0, raw.length);
    if (text == null || raw.length != length) {
      throw new InputException(where + ": not a checkpoint manifest (not UTF-8, or changed while read)");
    }
    Map<?, ?> m;
    try {
      Object v = Json.parse(text);
      if (!(v instanceof Map<?, ?> map)) {
        throw new InputException(where + ": not a checkpoint manifest (not a JSON object)");
      }
      m = map;
    } catch (Json.ParseException e) {
      throw new InputException(where + ": damaged checkpoint manifest: " + e.getMessage());
    }
    Fields f = new Fields(m, where);
    boolean link = f.integer("format", FORMAT, LINK_FORMAT) == LINK_FORMAT;
    int epoch = (int) f.integer("epoch", 1, Integer.MAX_VALUE);
    int step = (int) f.integer("step", epoch, epoch);
    Fields o = f.object("options");
    String specJson = o.string("spec");
    RunOptions options = new RunOptions(specJson, o.integer("seed", Long.MIN_VALUE, Long.MAX_VALUE),
        o.number("lr"), o.number("weight_decay"), o.number("dropout"),
        (int) o.integer("patience", 0, Integer.MAX_VALUE), (int) o.integer("workers", 1, Integer.MAX_VALUE),
        link ? linkOptions(o.object("link")) : null);
    Fields g = f.object("graph");
    GraphSize graph = new GraphSize(g.integer("nodes", 0, Long.MAX_VALUE), g.integer("edges", 0, Long.MAX_VALUE),
        g.integer("train", 1, Long.MAX_VALUE), g.integer("val", 0, Long.MAX_VALUE),
        g.integer("test", 0, Long.MAX_VALUE));
    Fields b = f.object("best");
    int bestEpoch = (int) b.integer("epoch", 1, epoch);
    LinkTrainer.Figures bestLinkVal = link ? b.linkFigures("val_") : null;
    LinkTrainer.Figures bestLinkTest = link ? b.linkFigures("test_") : null;
    double bestVal = link ? bestLinkVal.auc() : b.number("val_accuracy");
    double bestTest = link ? bestLinkTest.auc() : b.number("test_accuracy");
    List<?> list = f.list("epochs");
    if (list.size() != epoch) {
      throw new InputException(where + ": 'epochs' holds " + list.size() + " epochs, the checkpoint is of epoch "
          + epoch);
    }
    List<TrainingDriver.Epoch> epochs = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      if (!(list.get(i) instanceof Map<?, ?> em)) {
        throw new InputException(where + ": epochs[" + i + "] is not an object");
      }
      Fields e = new Fields(em, where + ": epochs[" + i + "]");
      int number = (int) e.integer("epoch", i + 1, i + 1);
      epochs.add(link ? TrainingDriver.Epoch.ofLink(number, e.number("loss"), e.linkFigures("val_"),
          e.number("seconds"))
          : new TrainingDriver.Epoch(number, e.number("loss"), e.number("train_accuracy"), e.number("val_accuracy"),
              e.number("test_accuracy"), e.number("seconds")));
    }
    double seconds = f.number("seconds");
    Fields s = f.object("state");
    String stateName = s.string("file");
    if (!stateName.startsWith(STATE_PREFIX) || !stateName.endsWith(".safetensors") || stateName.contains("/")) {
      throw new InputException(where + ": state file '" + stateName + "' is not a checkpoint state file name");
    }
    int n = new Parameters(spec).size();
    long parameters = s.integer("parameters", 0, Integer.MAX_VALUE);
    if (parameters != n) {
      throw new InputException(where + ": the checkpoint holds " + parameters + " parameters, the model spec has "
          + n + " (another model)");
    }
    long bytes = s.integer("bytes", 0, Long.MAX_VALUE);
    long crc;
    try {
      crc = Long.parseLong(s.string("crc32c"), 16);
    } catch (NumberFormatException e) {
      throw new InputException(where + ": state.crc32c is not a hexadecimal checksum");
    }

    Path stateFile = new Path(dir, stateName);
    long stateLength;
    try {
      stateLength = fs.getFileStatus(stateFile).getLen();
    } catch (FileNotFoundException e) {
      throw new InputException(stateFile + ": missing (named by " + where + ")");
    }
    if (stateLength != bytes) {
      throw new InputException(stateFile + ": " + stateLength + " bytes, its checkpoint manifest says " + bytes
          + " (truncated or damaged)");
    }
    Safetensors.Contents c;
    CRC32C sum = new CRC32C();
    try (CheckedInputStream in = new CheckedInputStream(new java.io.BufferedInputStream(fs.open(stateFile), 1 << 16),
        sum)) {
      c = Safetensors.read(in, stateLength, stateFile.toString());
      if (in.read() != -1) {
        throw new InputException(stateFile + ": longer than its header says");
      }
    } catch (ModelFormatException e) {
      throw new InputException(e.getMessage());
    } catch (org.apache.hadoop.fs.ChecksumException e) {
      throw new InputException(stateFile + ": damaged (the FileSystem's checksum fails: " + e.getMessage() + ")");
    }
    if (sum.getValue() != crc) {
      throw new InputException(stateFile + ": checksum " + String.format(Locale.ROOT, "%08x", sum.getValue())
          + " differs from its checkpoint manifest's " + s.string("crc32c") + " (damaged)");
    }
    float[][] arrays = new float[4][];
    String[] names = {WEIGHTS, ADAM_M, ADAM_V, BEST};
    if (c.tensors().size() != names.length) {
      throw new InputException(stateFile + ": " + c.tensors().size() + " tensors, a checkpoint holds "
          + String.join(", ", names));
    }
    for (int i = 0; i < names.length; i++) {
      Tensor t = c.tensors().get(names[i]);
      if (t == null || t.shape().length != 1 || t.data().length != n) {
        throw new InputException(stateFile + ": tensor '" + names[i] + "' " + (t == null ? "missing"
            : "of shape " + java.util.Arrays.toString(t.shape())) + ", a checkpoint of this model holds [" + n + "]");
      }
      for (float x : t.data()) {
        if (!Float.isFinite(x)) {
          throw new InputException(stateFile + ": tensor '" + names[i] + "' holds a value that is not finite");
        }
      }
      arrays[i] = t.data();
    }
    return new State(options, graph, epoch, step, arrays[0], arrays[1], arrays[2], bestEpoch, bestVal, bestTest,
        arrays[3], List.copyOf(epochs), seconds, bestLinkVal, bestLinkTest);
  }

  // ---- what a resume must match ------------------------------------------------------------------------------

  /**
   * Refuses ({@link InputException} naming the checkpoint) a resume whose options are not the stopped run's:
   * the same spec, seed, lr, weight decay, dropout, patience and workers, and at least as many epochs.
   */
  public void checkOptions(State s, TrainOptions o, ModelSpec spec) {
    String where = "--resume: the checkpoint in " + dir + " (epoch " + s.epoch() + ")";
    RunOptions want = s.options();
    ModelSpec theirs;
    try {
      theirs = ModelFormat.parse(want.specJson(), dir.toString());
    } catch (RuntimeException e) {
      throw new InputException(where + " holds a model spec that does not parse: " + e.getMessage());
    }
    if (!theirs.equals(spec)) {
      throw new InputException(where + " is of another model spec than --model-spec " + o.get(TrainOptions.MODEL_SPEC));
    }
    mismatch(where, "--seed", want.seed(), o.get(GraphJobOptions.SEED));
    mismatch(where, "--lr", want.lr(), o.get(TrainOptions.LR));
    mismatch(where, "--weight-decay", want.weightDecay(), o.get(TrainOptions.WEIGHT_DECAY));
    mismatch(where, "--dropout", want.dropout(), o.get(TrainOptions.DROPOUT));
    mismatch(where, "--patience", want.patience(), o.getInt(TrainOptions.PATIENCE));
    mismatch(where, "--workers", want.workers(), o.getInt(GraphJobOptions.WORKERS));
    LinkOptions theirLink = want.link();
    LinkOptions ourLink = RunOptions.of(o).link();
    if ((theirLink == null) != (ourLink == null)) {
      throw new InputException(where + " is of a " + (theirLink != null ? "link-prediction" : "node-classification")
          + " run: resume it with" + (theirLink != null ? "" : "out") + " --task link");
    }
    if (theirLink != null) {
      mismatch(where, "--link-split", theirLink.valFraction() + "," + theirLink.testFraction(),
          ourLink.valFraction() + "," + ourLink.testFraction());
      mismatch(where, "--negatives", theirLink.negatives(), ourLink.negatives());
      mismatch(where, "--negative-sampler", name(theirLink.sampler()), name(ourLink.sampler()));
      mismatch(where, "--loss", name(theirLink.loss()), name(ourLink.loss()));
      mismatch(where, "--temperature", theirLink.temperature(), ourLink.temperature());
      mismatch(where, "--eval-negatives", theirLink.evalNegatives(), ourLink.evalNegatives());
    }
    if (o.getInt(TrainOptions.EPOCHS) < s.epoch()) {
      throw new InputException(where + " is past --epochs " + o.getInt(TrainOptions.EPOCHS)
          + " (--epochs may grow, not shrink)");
    }
  }

  /** Refuses a resume on a graph of another size than the checkpoint's. */
  public void checkGraph(State s, GraphSize g) {
    if (!s.graph().equals(g)) {
      throw new InputException("--resume: the checkpoint in " + dir + " (epoch " + s.epoch() + ") is of a graph of "
          + describe(s.graph()) + "; this one has " + describe(g) + " (another graph or other graph options)");
    }
  }

  private static String describe(GraphSize g) {
    return String.format(Locale.ROOT, "%d nodes, %d edges, %d/%d/%d train/val/test rows", g.nodes(), g.edges(),
        g.train(), g.val(), g.test());
  }

  private static void mismatch(String where, String option, Object theirs, Object ours) {
    if (!theirs.equals(ours)) {
      throw new InputException(where + " was run with " + option + " " + theirs + ", not " + ours
          + " (a resume repeats the run's options; only --epochs may grow)");
    }
  }

  /** Typed, checked access to a manifest object's fields; every failure names the file and the field. */
  private static final class Fields {
    private final Map<?, ?> m;
    private final String where;

    Fields(Map<?, ?> m, String where) {
      this.m = m;
      this.where = where;
    }

    private Object get(String key) {
      Object v = m.get(key);
      if (v == null) {
        throw new InputException(where + ": checkpoint manifest lacks '" + key + "'");
      }
      return v;
    }

    long integer(String key, long min, long max) {
      if (!(get(key) instanceof Long v) || v < min || v > max) {
        throw new InputException(where + ": '" + key + "' is " + get(key) + ", not an integer in " + min + ".." + max);
      }
      return v;
    }

    double number(String key) {
      if (!(get(key) instanceof Number v) || !Double.isFinite(v.doubleValue())) {
        throw new InputException(where + ": '" + key + "' is not a number");
      }
      return v.doubleValue();
    }

    String string(String key) {
      if (!(get(key) instanceof String v)) {
        throw new InputException(where + ": '" + key + "' is not a string");
      }
      return v;
    }

    List<?> list(String key) {
      if (!(get(key) instanceof List<?> v)) {
        throw new InputException(where + ": '" + key + "' is not a list");
      }
      return v;
    }

    /** A number, or NaN where the manifest holds null (an empty set's link figure). */
    double numberOrNull(String key) {
      return m.containsKey(key) && m.get(key) == null ? Double.NaN : number(key);
    }

    /** The link figures named {@code prefix}auc, ... ({@link TrainingDriver#linkFigures}). */
    LinkTrainer.Figures linkFigures(String prefix) {
      return new LinkTrainer.Figures(numberOrNull(prefix + "auc"), numberOrNull(prefix + "ap"),
          numberOrNull(prefix + "mrr"), numberOrNull(prefix + "hits@10"), numberOrNull(prefix + "hits@50"),
          numberOrNull(prefix + "hits@100"));
    }

    /** One of {@code values} by its lower-case name (as the command line spells it). */
    <E extends Enum<E>> E choice(String key, E[] values) {
      String v = string(key);
      for (E e : values) {
        if (name(e).equals(v)) {
          return e;
        }
      }
      throw new InputException(where + ": '" + key + "' is '" + v + "', not one of "
          + java.util.Arrays.stream(values).map(Checkpoint::name).toList());
    }

    Fields object(String key) {
      if (!(get(key) instanceof Map<?, ?> v)) {
        throw new InputException(where + ": '" + key + "' is not an object");
      }
      return new Fields(v, where + ": " + key);
    }
  }

  private static String name(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }

  /** The link options a resume must repeat, as {@code options.link} keeps them. */
  private static Map<String, Object> linkOptions(LinkOptions l) {
    Map<String, Object> x = new LinkedHashMap<>();
    x.put("val_fraction", l.valFraction());
    x.put("test_fraction", l.testFraction());
    x.put("negatives", (long) l.negatives());
    x.put("negative_sampler", name(l.sampler()));
    x.put("loss", name(l.loss()));
    x.put("temperature", l.temperature());
    x.put("eval_negatives", (long) l.evalNegatives());
    return x;
  }

  private static LinkOptions linkOptions(Fields l) {
    return new LinkOptions(l.number("val_fraction"), l.number("test_fraction"),
        (int) l.integer("negatives", 1, Integer.MAX_VALUE), l.choice("negative_sampler", NegativeSampler.Kind.values()),
        l.choice("loss", LinkLoss.Kind.values()), l.number("temperature"),
        (int) l.integer("eval_negatives", 1, Integer.MAX_VALUE));
  }

  /** A link epoch's figures as the manifest keeps them: metrics.json's without the staleness. */
  static Map<String, Object> linkEpochFigures(TrainingDriver.Epoch e) {
    Map<String, Object> x = new LinkedHashMap<>();
    x.put("epoch", (long) e.epoch());
    x.put("loss", e.loss());
    TrainingDriver.linkFigures("val_", e.link(), x);
    x.put("seconds", e.seconds());
    return x;
  }

  /** An epoch's figures as the manifest keeps them (metrics.json adds its staleness to the same map). */
  static Map<String, Object> epochFigures(TrainingDriver.Epoch e) {
    Map<String, Object> x = new LinkedHashMap<>();
    x.put("epoch", (long) e.epoch());
    x.put("loss", e.loss());
    x.put("train_accuracy", e.trainAccuracy());
    x.put("val_accuracy", e.valAccuracy());
    x.put("test_accuracy", e.testAccuracy());
    x.put("seconds", e.seconds());
    return x;
  }
}
