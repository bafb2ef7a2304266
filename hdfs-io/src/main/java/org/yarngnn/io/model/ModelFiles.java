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

  public static Model read(Configuration conf, Path dir) throws IOException {
    FileSystem fs = dir.getFileSystem(conf);
    Path spec = new Path(dir, SPEC);
    Path weights = new Path(dir, WEIGHTS);
    for (Path p : new Path[] {spec, weights}) {
      if (!fs.exists(p)) {
        throw new ModelFormatException(p + ": not found (a model directory holds " + SPEC + " and " + WEIGHTS + ")");
      }
    }
    return ModelDirectory.read(readAll(fs, spec), readAll(fs, weights), dir.toString());
  }

  /** Refuses (as bad input) a model whose first layer does not take rows of the features' width. */
  public static void checkInputWidth(Model model, String modelDir, int featureWidth, String features) {
    if (featureWidth != model.spec().inputWidth()) {
      throw new org.yarngnn.io.table.InputException(modelDir + ": the model's input width " + model.spec().inputWidth()
          + " differs from the feature width " + featureWidth + " of " + features);
    }
  }

  static byte[] readAll(FileSystem fs, Path p) throws IOException {
    try (InputStream in = fs.open(p)) {
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      in.transferTo(buf);
      return buf.toByteArray();
    }
  }
}
