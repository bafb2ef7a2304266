package org.yarngnn.compute.model;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.yarngnn.compute.json.Json;

/**
 * A model directory: {@value #MODEL_JSON} and {@value #WEIGHTS}. Works on the files' bytes so callers can
 * fetch them from any Hadoop FileSystem; {@link #read(Path)} and {@link #write(Model, Path)} are the local-disk
 * shortcuts. Everything read is validated: the spec (see {@link ModelFormat}) and that the weights are
 * exactly the tensors {@link WeightLayout} names, with those shapes.
 */
public final class ModelDirectory {
  public static final String MODEL_JSON = "model.json";
  public static final String WEIGHTS = "weights.safetensors";

  /** Recorded in the weights file's metadata, as PyTorch's save_file records "format": "pt". */
  private static final Map<String, String> WEIGHTS_METADATA = Map.of("format", "yarn-gnn");

  private ModelDirectory() {}

  /**
   * The model in {@code modelJson} and {@code weights}; {@code where} names the directory in messages (empty
   * or null for bare file names).
   *
   * @throws ModelFormatException naming the file and the layer, field or tensor at fault
   */
  public static Model read(byte[] modelJson, byte[] weights, String where) {
    try {
      return read(modelJson, new java.io.ByteArrayInputStream(weights), weights.length, where);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
  }

  /**
   * As {@link #read(byte[], byte[], String)}, the weights streamed from {@code weights} (not closed), a file of
   * {@code weightsLength} bytes: the safetensors header is checked against that length before any tensor is
   * allocated ({@link Safetensors#read(java.io.InputStream, long, String)}).
   */
  public static Model read(byte[] modelJson, java.io.InputStream weights, long weightsLength, String where)
      throws IOException {
    ModelSpec spec = readSpec(modelJson, file(where, MODEL_JSON));
    String weightsFile = file(where, WEIGHTS);
    Map<String, Tensor> tensors = Safetensors.read(weights, weightsLength, weightsFile).tensors();
    validateWeights(spec, tensors, weightsFile);
    FiniteWeights.check(tensors, weightsFile);
    return new Model(spec, tensors);
  }

  /** A model.json or model spec file (no weights), validated; {@code file} names it in messages. */
  public static ModelSpec readSpec(byte[] json, String file) {
    String text = Json.utf8OrNull(json, 0, json.length);
    if (text == null) {
      throw new ModelFormatException(file + ": not valid UTF-8 text");
    }
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1); // a byte order mark some editors write
    }
    return ModelFormat.parse(text, file);
  }

  public static Model read(Path dir) throws IOException {
    return read(Files.readAllBytes(dir.resolve(MODEL_JSON)), Files.readAllBytes(dir.resolve(WEIGHTS)),
        dir.toString());
  }

  /**
   * Checks that {@code weights} are exactly the tensors of {@code spec} with the right shapes.
   *
   * @throws ModelFormatException naming {@code file}, the layer and the tensor
   */
  public static void validateWeights(ModelSpec spec, Map<String, Tensor> weights, String file) {
    for (int k = 0; k < spec.layers().size(); k++) {
      LayerSpec l = spec.layers().get(k);
      String layer = "layer " + k + " (" + l.type().jsonName() + ")";
      for (Map.Entry<String, int[]> e : WeightLayout.shapes(k, l).entrySet()) {
        Tensor t = weights.get(e.getKey());
        if (t == null) {
          throw new ModelFormatException(file + ": " + layer + ": tensor " + e.getKey() + " is missing (expected"
              + " shape " + Arrays.toString(e.getValue()) + ")");
        }
        if (!Arrays.equals(t.shape(), e.getValue())) {
          throw new ModelFormatException(file + ": " + layer + ": tensor " + e.getKey() + " has shape "
              + Arrays.toString(t.shape()) + ", expected " + Arrays.toString(e.getValue()) + shapeNote(l,
              e.getKey()));
        }
      }
    }
    Map<String, int[]> expected = WeightLayout.shapes(spec);
    for (String name : new TreeMap<>(weights).keySet()) {
      if (!expected.containsKey(name)) {
        throw new ModelFormatException(file + ": tensor " + name + " is not part of the model" + extraNote(spec,
            name));
      }
    }
  }

  private static String shapeNote(LayerSpec l, String name) {
    if (name.endsWith("." + WeightLayout.BIAS)) {
      return l.type() == LayerType.GAT ? (l.concat() ? " (heads*out, concat true)" : " (out, concat false)")
          : " (out)";
    }
    if (name.endsWith(".attn_src") || name.endsWith(".attn_dst")) {
      return " (heads, out)";
    }
    return l.type() == LayerType.GAT ? " (in, heads*out)" : " (in, out)";
  }

  private static String extraNote(ModelSpec spec, String name) {
    for (int k = 0; k < spec.layers().size(); k++) {
      LayerSpec l = spec.layers().get(k);
      if (name.equals(WeightLayout.name(k, WeightLayout.BIAS)) && !l.bias()) {
        return " (layer " + k + " (" + l.type().jsonName() + ") has bias false)";
      }
      if (name.startsWith("layers." + k + ".")) {
        return " (layer " + k + " (" + l.type().jsonName() + ") has tensors "
            + String.join(", ", WeightLayout.shapes(k, l).keySet()) + ")";
      }
    }
    return " (model.json has " + spec.layers().size() + " layers)";
  }

  /** model.json bytes for {@code spec} (UTF-8). */
  public static byte[] modelJsonBytes(ModelSpec spec) {
    return ModelFormat.write(spec).getBytes(StandardCharsets.UTF_8);
  }

  /** weights.safetensors bytes for {@code model}, after validating it. */
  public static byte[] weightsBytes(Model model) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      write(model, null, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /**
   * Validates {@code model} and writes its model.json to {@code modelJson} and its weights to {@code weights};
   * either stream may be null to skip that file. Streams are not closed.
   */
  public static void write(Model model, OutputStream modelJson, OutputStream weights) throws IOException {
    validateWeights(model.spec(), model.weights(), "model to write");
    if (modelJson != null) {
      modelJson.write(modelJsonBytes(model.spec()));
    }
    if (weights != null) {
      Safetensors.write(model.weights().values(), WEIGHTS_METADATA, weights);
    }
  }

  /** Writes {@code model} into {@code dir} (created if needed; existing files replaced). */
  public static void write(Model model, Path dir) throws IOException {
    Files.createDirectories(dir);
    try (OutputStream json = Files.newOutputStream(dir.resolve(MODEL_JSON));
        OutputStream weights = new java.io.BufferedOutputStream(Files.newOutputStream(dir.resolve(WEIGHTS)))) {
      write(model, json, weights);
    }
  }

  private static String file(String where, String name) {
    if (where == null || where.isEmpty()) {
      return name;
    }
    return where.endsWith("/") ? where + name : where + "/" + name;
  }
}
