package org.yarngnn.io.model;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.model.ModelDirectory;
import org.yarngnn.compute.model.ModelFormatException;

/** Reads a model directory (model.json + weights.safetensors) from any Hadoop FileSystem. */
public final class ModelFiles {
  public static final String SPEC = "model.json";
  public static final String WEIGHTS = "weights.safetensors";

  private ModelFiles() {}

  /**
   * The model in {@code dir}. Sizes are checked before reading: {@value #SPEC} at most {@link #MAX_SPEC_BYTES},
   * and the weights file must hold exactly what its safetensors header promises (checked against its length
   * before any tensor is allocated).
   */
  public static Model read(Configuration conf, Path dir) throws IOException {
    FileSystem fs = dir.getFileSystem(conf);
    Path spec = new Path(dir, SPEC);
    Path weights = new Path(dir, WEIGHTS);
    for (Path p : new Path[] {spec, weights}) {
      if (!fs.exists(p)) {
        throw new ModelFormatException(p + ": not found (a model directory holds " + SPEC + " and " + WEIGHTS + ")");
      }
    }
    byte[] json = readAll(fs, spec, MAX_SPEC_BYTES);
    org.apache.hadoop.fs.FileStatus ws = fs.getFileStatus(weights);
    if (ws.isDirectory()) {
      throw new ModelFormatException(weights + ": is a directory, not a file");
    }
    long weightsLength = ws.getLen();
    try (InputStream in = new java.io.BufferedInputStream(fs.open(weights), 1 << 16)) {
      return ModelDirectory.read(json, in, weightsLength, dir.toString());
    }
  }

  /**
   * The model.json that {@code path} names: the file itself, or {@value #SPEC} inside a directory. Refused when
   * it does not exist.
   */
  public static Path specFile(Configuration conf, Path path) throws IOException {
    FileSystem fs = path.getFileSystem(conf);
    if (!fs.exists(path)) {
      throw new ModelFormatException(path + ": not found");
    }
    Path file = fs.getFileStatus(path).isDirectory() ? new Path(path, SPEC) : path;
    if (!fs.exists(file)) {
      throw new ModelFormatException(file + ": not found (a model spec is a " + SPEC + ", or a directory holding one)");
    }
    return file;
  }

  /** The text of a model.json file (size-checked as {@link #read} checks it), validated as a spec. */
  public static String readSpecText(Configuration conf, Path file) throws IOException {
    byte[] json = readAll(file.getFileSystem(conf), file, MAX_SPEC_BYTES);
    ModelDirectory.readSpec(json, file.toString());
    return new String(json, java.nio.charset.StandardCharsets.UTF_8);
  }

  /** Refuses (as bad input) a model whose first layer does not take rows of the features' width. */
  public static void checkInputWidth(Model model, String modelDir, int featureWidth, String features) {
    if (featureWidth != model.spec().inputWidth()) {
      throw new org.yarngnn.io.table.InputException(modelDir + ": the model's input width " + model.spec().inputWidth()
          + " differs from the feature width " + featureWidth + " of " + features);
    }
  }

  /** The largest model.json read: a spec is a few kilobytes; a bigger file is not a model.json. */
  public static final long MAX_SPEC_BYTES = 16L << 20;

  /** The whole file, refused (before reading) when it is longer than {@code max} bytes or is a directory. */
  static byte[] readAll(FileSystem fs, Path p, long max) throws IOException {
    org.apache.hadoop.fs.FileStatus st = fs.getFileStatus(p);
    if (st.isDirectory()) {
      throw new ModelFormatException(p + ": is a directory, not a file");
    }
    if (st.getLen() > max) {
      throw new ModelFormatException(p + ": " + st.getLen() + " bytes; at most " + max + " are read (is this a "
          + SPEC + "?)");
    }
    try (InputStream in = fs.open(p)) {
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      in.transferTo(buf);
      return buf.toByteArray();
    }
  }
}
