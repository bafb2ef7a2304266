package org.yarngnn.compute.model;

/**
 * A model directory (model.json, weights.safetensors) or model spec that cannot be used. The message is one
 * line that names the file and the layer, field or tensor at fault; the CLI reports it with exit status 2.
 */
public class ModelFormatException extends IllegalArgumentException {
  public ModelFormatException(String message) {
    super(message);
  }

  public ModelFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
